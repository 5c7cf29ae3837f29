import type { EntityManager } from '@mikro-orm/sql';
import type { WatchedChain, TokenTransfer } from '../../../rails/port.js';
import type { DepositCalls } from './calls.js';

/**
 * How long after its window closes an address is still watched: a deposit that arrives late is
 * still seen, labelled `late` and held for return, rather than sitting at the address unknown.
 */
export const LATE_DEPOSIT_WATCH_MS = 24 * 3600 * 1000;

/**
 * Recipients per `eth_getLogs`: the `to` topic takes a list, but providers cap a request's size and
 * its results, so a busy chain's addresses are asked for in chunks.
 */
export const RECIPIENTS_PER_CALL = 100;

/** The deposit addresses of the chain's off-ramps whose window is open or closed less than LATE_DEPOSIT_WATCH_MS ago. */
export const watchedAddresses = (em: EntityManager, chain: WatchedChain, calls: DepositCalls, now: Date): Promise<string[]> =>
  calls.depositAddresses(em, chain, new Date(now.getTime() - LATE_DEPOSIT_WATCH_MS));

/** The configured tokens' transfers to `recipients` in [from, to], RECIPIENTS_PER_CALL to a request, in chain order. */
export async function transfersTo(chain: WatchedChain, from: bigint, to: bigint, recipients: readonly string[]): Promise<TokenTransfer[]> {
  const logs: TokenTransfer[] = [];
  for (let i = 0; i < recipients.length; i += RECIPIENTS_PER_CALL) {
    logs.push(...(await chain.tokenTransfers(from, to, recipients.slice(i, i + RECIPIENTS_PER_CALL))));
  }
  return logs
    .filter((log) => log.token !== null)
    .sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
}
