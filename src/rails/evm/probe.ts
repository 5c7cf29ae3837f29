import { createPublicClient, getAddress, http } from 'viem';

/**
 * What Ramp asks a chain before trusting its configuration (rails/registry.ts): its id, and whether a
 * configured token contract is there. Kept here so that only rails/evm/ speaks to viem.
 */
export async function chainIdAt(rpcUrl: string, timeoutMs = 10_000): Promise<number> {
  return createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs }) }).getChainId();
}

/** Whether `address` holds contract code on the chain at `rpcUrl`. */
export async function holdsContract(rpcUrl: string, address: string, timeoutMs = 10_000): Promise<boolean> {
  const code = await createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs }) }).getCode({ address: getAddress(address) });
  return !!code && code !== '0x';
}
