import { createPublicClient, erc20Abi, getAddress } from 'viem';
import { rpcTimeoutMs, rpcTransport } from './rpc.js';

/**
 * What Ramp asks a chain before trusting its configuration (rails/registry.ts): its id, and whether a
 * configured token contract is there, and how many decimals it counts in. Kept here so that only rails/evm/ speaks to viem.
 */
export async function chainIdAt(rpcUrl: string, timeoutMs = rpcTimeoutMs()): Promise<number> {
  return createPublicClient({ transport: rpcTransport(rpcUrl, timeoutMs) }).getChainId();
}

/** Whether `address` holds contract code on the chain at `rpcUrl`. */
export async function holdsContract(rpcUrl: string, address: string, timeoutMs = rpcTimeoutMs()): Promise<boolean> {
  const code = await createPublicClient({ transport: rpcTransport(rpcUrl, timeoutMs) }).getCode({ address: getAddress(address) });
  return !!code && code !== '0x';
}

/**
 * The decimals a token contract counts its amounts in (`decimals()`): read once, when the chain is
 * opened, and used for every conversion between base units and amounts, because the same token has
 * different decimals on different chains (USDC has 6 on most, 18 on BNB Smart Chain).
 */
export async function tokenDecimals(rpcUrl: string, address: string, timeoutMs = rpcTimeoutMs()): Promise<number> {
  const client = createPublicClient({ transport: rpcTransport(rpcUrl, timeoutMs) });
  return client.readContract({ address: getAddress(address), abi: erc20Abi, functionName: 'decimals' });
}
