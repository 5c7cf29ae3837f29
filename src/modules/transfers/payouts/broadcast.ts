import type { EntityManager } from '@mikro-orm/sql';
import type { LiveChain } from '../../../rails/port.js';

interface Stored {
  id: string;
  rawTransaction: string;
  transactionHash: string;
}

/**
 * Broadcasts stored payouts, lowest nonce first, each marked `sent` once the node has it. Runs
 * after the signing transaction committed, never inside it: what is broadcast is always on record.
 * Stops at the first failure (a later nonce would only wait behind the missing one); what is left
 * `signed` is broadcast again by the next poll (`broadcastSigned`).
 */
export async function broadcastPayouts(em: EntityManager, chain: LiveChain, payouts: readonly Stored[]): Promise<void> {
  for (const payout of payouts) {
    await chain.broadcast(payout.rawTransaction);
    // Keyed by hash too: a replacement signed meanwhile (confirm.ts) stays `signed` until it is broadcast itself.
    await em.execute(
      `update chain_payouts set status = 'sent', sent_at = now(), updated_at = now() where id = ? and transaction_hash = ? and status = 'signed'`,
      [payout.id, payout.transactionHash],
    );
  }
}

/**
 * Payouts of this chain stored but not (known to be) broadcast: an instance died between its commit
 * and the broadcast, the node was unreachable, or a replacement was just signed. Broadcasting a
 * transaction the node already has, or has mined, is harmless (rails/port.ts `broadcast`), so two
 * instances doing it at once pay nothing twice: a nonce pays once.
 */
export async function broadcastSigned(em: EntityManager, chain: LiveChain): Promise<number> {
  const rows = await em.execute<{ id: string; raw_transaction: string; transaction_hash: string }[]>(
    `select id, raw_transaction, transaction_hash from chain_payouts where chain = ? and status = 'signed' order by nonce`,
    [chain.key],
  );
  await broadcastPayouts(
    em,
    chain,
    rows.map((r) => ({ id: r.id, rawTransaction: r.raw_transaction, transactionHash: r.transaction_hash })),
  );
  return rows.length;
}
