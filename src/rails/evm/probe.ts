import { createPublicClient, erc20Abi, getAddress } from 'viem';
import { type RpcEndpoint, rpcTransport } from './rpc.js';

/**
 * What Ramp asks a chain before trusting its configuration (rails/registry.ts): its id, and whether a
 * configured token contract is there, and how many decimals it counts in. Kept here so that only rails/evm/ speaks to viem.
 */
export async function chainIdAt(rpc: RpcEndpoint): Promise<number> {
  return createPublicClient({ transport: rpcTransport(rpc) }).getChainId();
}

/** Whether `address` holds contract code on the chain at `rpc`. */
export async function holdsContract(rpc: RpcEndpoint, address: string): Promise<boolean> {
  const code = await createPublicClient({ transport: rpcTransport(rpc) }).getCode({ address: getAddress(address) });
  return !!code && code !== '0x';
}

/**
 * The decimals a token contract counts its amounts in (`decimals()`): read once, when the chain is
 * opened, and used for every conversion between base units and amounts, because the same token has
 * different decimals on different chains (USDC has 6 on most, 18 on BNB Smart Chain).
 */
export async function tokenDecimals(rpc: RpcEndpoint, address: string): Promise<number> {
  const client = createPublicClient({ transport: rpcTransport(rpc) });
  return client.readContract({ address: getAddress(address), abi: erc20Abi, functionName: 'decimals' });
}
