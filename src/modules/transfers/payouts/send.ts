import type { EntityManager } from '@mikro-orm/sql';
import { assertTransition } from '../../../domain/transfer-status.js';
import type { Job } from '../../../platform/jobs.js';
import { ACROSS_TENANTS } from '../../../platform/tenant.js';
import type { LiveChain } from '../../../rails/port.js';
import type { PayoutSettings } from '../context.js';
import { Quote, Transfer } from '../entities.js';
import { broadcastPayouts, broadcastSigned } from './broadcast.js';
import { ChainPayout } from './entities.js';
import { type PayableTransfer, signPayouts } from './sign.js';

/** Transfers signed under one hold of the nonce lock: the lock is held while they are signed, so a batch stays short. */
const BATCH = 20;

/**
 * The payout sender of one live chain: broadcasts what is stored and not yet sent, then claims
 * processing on-ramps of this chain that have no payout (`SKIP LOCKED`: instances share the work),
 * signs and stores their payouts in one transaction, and broadcasts them once it committed.
 */
export function payoutSenderJob(chain: LiveChain, settings: PayoutSettings): Job {
  return {
    name: `payout-sender ${chain.key}`,
    batchSize: BATCH,
    async run(em) {
      // A transaction the node refuses must not stop new payouts: its error is raised once they are sent (the runner logs it).
      const repair: unknown = await broadcastSigned(em, chain).catch((error: unknown) => error);
      const { claimed, payouts } = await em.transactional(async (tx) => {
        const rows = await tx.execute<{ id: string }[]>(
          `select t.id from transfers t join quotes q on q.id = t.quote_id
           where t.environment = ? and t.direction = 'onramp' and t.status = 'processing' and q.destination_network = ?
             and not exists (select 1 from chain_payouts p where p.transfer_id = t.id)
           order by t.updated_at, t.id limit ${BATCH} for update of t skip locked`,
          [chain.environment, chain.network],
        );
        if (!rows.length) return { claimed: 0, payouts: [] };
        const transfers = await tx.find(Transfer, { id: { $in: rows.map((r) => r.id) } }, { ...ACROSS_TENANTS, orderBy: { updatedAt: 'asc', id: 'asc' } });
        const quotes = new Map((await tx.find(Quote, { id: { $in: transfers.map((t) => t.quoteId) } }, ACROSS_TENANTS)).map((q) => [q.id, q]));
        const payable: PayableTransfer[] = transfers.map((transfer) => ({ transfer, quote: quotes.get(transfer.quoteId)! }));
        return { claimed: rows.length, payouts: await signPayouts(tx, chain, payable) };
      });
      // The fault the crash test injects: stored and committed, never broadcast by this process.
      if (settings.crashAfterSigning && payouts.length) process.kill(process.pid, 'SIGKILL');
      await broadcastPayouts(em, chain, payouts);
      if (repair instanceof Error) throw repair;
      return claimed;
    },
  };
}

/**
 * Pays one processing on-ramp now, in the caller's transaction, on the transfer the caller locked
 * (the sandbox's settle): the same signing as the sender job's. A transfer already paid (by the
 * job, or an earlier call) is left as it is. The caller broadcasts with `broadcastPayouts` after commit.
 */
export async function payNow(tx: EntityManager, chain: LiveChain, payable: PayableTransfer): Promise<ChainPayout[]> {
  const { transfer } = payable;
  assertTransition(transfer.status, 'completed', { fundsReceived: transfer.fundsReceivedAt != null });
  if (await tx.count(ChainPayout, { transferId: transfer.id })) return [];
  return signPayouts(tx, chain, [payable]);
}
