import { createPublicClient, getAddress } from 'viem';
import { rpcTimeoutMs, rpcTransport } from './rpc.js';

/**
 * What Ramp asks a chain before trusting its configuration (rails/registry.ts): its id, and whether a
 * configured token contract is there. Kept here so that only rails/evm/ speaks to viem.
 */
export async function chainIdAt(rpcUrl: string, timeoutMs = rpcTimeoutMs()): Promise<number> {
  return createPublicClient({ transport: rpcTransport(rpcUrl, timeoutMs) }).getChainId();
}

/** Whether `address` holds contract code on the chain at `rpcUrl`. */
export async function holdsContract(rpcUrl: string, address: string, timeoutMs = rpcTimeoutMs()): Promise<boolean> {
  const code = await createPublicClient({ transport: rpcTransport(rpcUrl, timeoutMs) }).getCode({ address: getAddress(address) });
  return !!code && code !== '0x';
}
