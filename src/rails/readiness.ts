import type { LiveChain } from './port.js';

/** What readiness says of one chain: its node answered in time, or not. */
export type ChainReadiness = 'ok' | 'unreachable';

/** A chain's probe waits no longer than the database's, so /readyz still answers within a second. */
const CHAIN_PROBE_TIMEOUT_MS = 900;

/**
 * Asks each live chain for its head, all at once, each bounded on its own: a chain that does not answer in time is
 * unreachable. Keyed `environment:network`, as the chains are.
 */
export async function chainReadiness(chains: readonly LiveChain[], timeoutMs = CHAIN_PROBE_TIMEOUT_MS): Promise<Record<string, ChainReadiness>> {
  const probes = chains.map(async (chain): Promise<[string, ChainReadiness]> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ChainReadiness>((resolve) => (timer = setTimeout(() => resolve('unreachable'), timeoutMs)));
    const answered = chain.head().then(
      (): ChainReadiness => 'ok',
      (): ChainReadiness => 'unreachable',
    );
    try {
      return [chain.key, await Promise.race([answered, late])];
    } finally {
      clearTimeout(timer);
    }
  });
  return Object.fromEntries(await Promise.all(probes));
}
