import type { EntityManager } from '@mikro-orm/sql';
import { assertTransition } from '../../../domain/transfer-status.js';
import { afterCommit, unitOfWork } from '../../../platform/db/unit-of-work.js';
import type { Job } from '../../../platform/jobs.js';
import { ACROSS_TENANTS } from '../../../platform/tenant.js';
import type { LiveChain } from '../../../rails/port.js';
import type { PayoutSettings } from '../context.js';
import { Quote, Transfer, type TransferTables } from '../entities.js';
import { readsOver } from '../../../platform/queries.js';
import { crashAt } from '../../custody/crash-points.js';
import { broadcastPayouts, broadcastSigned } from './broadcast.js';
import { ChainPayout, type PayoutTables } from './entities.js';
import { type PayableTransfer, type TreasuryReading, readTreasury, signPayouts } from './sign.js';

/** Transfers signed under one hold of the nonce lock: the lock is held while they are signed, so a batch stays short. */
const BATCH = 20;

/**
 * The payout sender of one live chain: broadcasts what is stored and not yet sent, reads the treasury (outside any
 * transaction), then claims processing on-ramps of this chain that have no payout (`SKIP LOCKED`: instances share
 * the work), signs and stores their payouts in one transaction, and broadcasts them once it committed.
 */
export function payoutSenderJob(chain: LiveChain, settings: PayoutSettings): Job {
  return {
    name: `payout-sender ${chain.key}`,
    batchSize: BATCH,
    async run(em) {
      // A transaction the node refuses must not stop new payouts: its error is raised once they are sent (the runner logs it).
      const repair: unknown = await broadcastSigned(em, chain).catch((error: unknown) => error);
      if (!(await hasUnpaid(em, chain))) {
        if (repair instanceof Error) throw repair;
        return 0;
      }
      const reading = await readTreasury(chain);
      const claimed = await unitOfWork(em, async (tx) => {
        const rows = await unpaid(tx, chain).orderBy('t.updated_at').orderBy('t.id').limit(BATCH).forUpdate('t').skipLocked().execute();
        if (!rows.length) return 0;
        const transfers = await tx.find(Transfer, { id: { $in: rows.map((r) => r.id) } }, { ...ACROSS_TENANTS, orderBy: { updatedAt: 'asc', id: 'asc' } });
        const quotes = new Map((await tx.find(Quote, { id: { $in: transfers.map((t) => t.quoteId) } }, ACROSS_TENANTS)).map((q) => [q.id, q]));
        const payable: PayableTransfer[] = transfers.map((transfer) => ({ transfer, quote: quotes.get(transfer.quoteId)! }));
        const payouts = await signPayouts(tx, chain, reading, payable);
        afterCommit(async (outside) => {
          // The fault the crash tests inject: stored and committed, never broadcast by this process.
          if (payouts.length) crashAt(settings.crashAt, 'payout-signed');
          await broadcastPayouts(outside, chain, payouts);
        });
        return rows.length;
      });
      if (repair instanceof Error) throw repair;
      return claimed;
    },
  };
}

/** Whether an on-ramp of this chain waits for its payout: the treasury is read only when one does. */
async function hasUnpaid(em: EntityManager, chain: LiveChain): Promise<boolean> {
  return (await unpaid(em, chain).limit(1).execute()).length > 0;
}

/** Processing on-ramps of the chain's environment and network that have no payout yet: what the sender pays. */
const unpaid = (em: EntityManager, chain: LiveChain) =>
  readsOver<TransferTables & PayoutTables>()
    .acrossTenants(em, 'transfers', 't')
    .innerJoin('quotes as q', 'q.id', 't.quote_id')
    .select('t.id')
    .where('t.environment', '=', chain.environment)
    .where('t.direction', '=', 'onramp')
    .where('t.status', '=', 'processing')
    .where('q.destination_network', '=', chain.network)
    // Those without a payout yet.
    .leftJoin('chain_payouts as p', 'p.transfer_id', 't.id')
    .where('p.id', 'is', null);

/**
 * Pays one processing on-ramp now, in the caller's unit of work, on the transfer the caller locked (the sandbox's
 * settle): the same signing as the sender job's, with the treasury read before the transaction opened. A transfer
 * already paid (by the job, or an earlier call) is left as it is. Broadcast after commit.
 */
export async function payNow(tx: EntityManager, chain: LiveChain, reading: TreasuryReading, payable: PayableTransfer, settings: PayoutSettings): Promise<void> {
  const { transfer } = payable;
  assertTransition(transfer.status, 'completed', { fundsReceived: transfer.fundsReceivedAt != null });
  if (await tx.count(ChainPayout, { transferId: transfer.id })) return;
  const payouts = await signPayouts(tx, chain, reading, [payable]);
  // A node that does not answer now only delays it: the sender job broadcasts what is left `signed`.
  afterCommit(async (outside) => {
    if (payouts.length) crashAt(settings.crashAt, 'settle-committed');
    await broadcastPayouts(outside, chain, payouts);
  });
}

export { readTreasury };
