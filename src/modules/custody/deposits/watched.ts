import type { EntityManager } from '@mikro-orm/sql';
import { readsOver } from '../../../platform/queries.js';
import type { WatchedChain, TokenTransfer } from '../../../rails/port.js';
import type { TransferTables } from '../../transfers/service.js';

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

/**
 * The deposit addresses of the chain's off-ramps whose window is open or closed less than
 * LATE_DEPOSIT_WATCH_MS ago, in lower case: the only recipients whose token transfers Ramp reads.
 */
export async function watchedAddresses(em: EntityManager, chain: WatchedChain, now: Date): Promise<string[]> {
  const rows = await readsOver<TransferTables>()
    .acrossTenants(em, 'transfers', 't')
    .innerJoin('quotes as q', 'q.id', 't.quote_id')
    .select('t.deposit_blockchain_address as address')
    .where('t.deposit_address_index', 'is not', null)
    .where('t.environment', '=', chain.environment)
    .where('q.source_network', '=', chain.network)
    .where('t.deposit_expires_at', '>', new Date(now.getTime() - LATE_DEPOSIT_WATCH_MS))
    .execute();
  return [...new Set(rows.flatMap((r) => (r.address ? [r.address.toLowerCase()] : [])))];
}

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
