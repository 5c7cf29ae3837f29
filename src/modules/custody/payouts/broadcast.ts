import type { EntityManager } from '@mikro-orm/sql';
import type { TreasurySender } from '../../../rails/port.js';
import { ChainPayout } from './entities.js';

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
export async function broadcastPayouts(em: EntityManager, chain: TreasurySender & { key: string }, payouts: readonly Stored[]): Promise<void> {
  for (const payout of payouts) {
    await chain.broadcast(payout.rawTransaction);
    // Keyed by hash too: a replacement signed meanwhile (confirm.ts) stays `signed` until it is broadcast itself.
    const now = new Date();
    await em.nativeUpdate(
      ChainPayout,
      { id: payout.id, transactionHash: payout.transactionHash, status: 'signed' },
      { status: 'sent', sentAt: now, updatedAt: now },
    );
  }
}

/**
 * Payouts of this chain stored but not (known to be) broadcast: an instance died between its commit
 * and the broadcast, the node was unreachable, or a replacement was just signed. Broadcasting a
 * transaction the node already has, or has mined, is harmless (rails/port.ts `broadcast`), so two
 * instances doing it at once pay nothing twice: a nonce pays once.
 */
export async function broadcastSigned(em: EntityManager, chain: TreasurySender & { key: string }): Promise<number> {
  const stored = await em.find(
    ChainPayout,
    { chain: chain.key, status: 'signed' },
    { orderBy: { nonce: 'asc' }, fields: ['id', 'rawTransaction', 'transactionHash'] },
  );
  await broadcastPayouts(em, chain, stored);
  return stored.length;
}
