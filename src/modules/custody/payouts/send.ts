import type { EntityManager } from '@mikro-orm/sql';
import { afterCommit, unitOfWork } from '../../../platform/db/unit-of-work.js';
import type { Job } from '../../../platform/runtime/jobs.js';
import type { LiveChain } from '../../../rails/port.js';
import { crashAt } from '../crash-points.js';
import type { SendingSettings } from '../fees.js';
import { broadcastPayouts, broadcastSigned } from './broadcast.js';
import type { PayoutCalls, PayoutRequest } from './calls.js';
import { ChainPayout } from './entities.js';
import { type TreasuryReading, readTreasury, signPayouts } from './sign.js';

/** Transfers signed under one hold of the nonce lock: the lock is held while they are signed, so a batch stays short. */
const BATCH = 20;

/**
 * The payout sender of one live chain: broadcasts what is stored and not yet sent, reads the treasury (outside any
 * transaction), then asks transfers for the on-ramps of this chain waiting for their payout (claimed `SKIP LOCKED`:
 * instances share the work), signs and stores their payouts in one transaction, and broadcasts them once it committed.
 */
export function payoutSenderJob(chain: LiveChain, settings: SendingSettings, calls: PayoutCalls): Job {
  return {
    name: `payout-sender ${chain.key}`,
    batchSize: BATCH,
    async run(em) {
      // A transaction the node refuses must not stop new payouts: its error is raised once they are sent (the runner logs it).
      const repair: unknown = await broadcastSigned(em, chain).catch((error: unknown) => error);
      // The treasury is read only when an on-ramp waits (a look without locks; the claim below decides).
      const waiting = await em.transactional((tx) => calls.payoutsRequested(tx, chain, 1));
      if (!waiting.length) {
        if (repair instanceof Error) throw repair;
        return 0;
      }
      const reading = await readTreasury(chain);
      const claimed = await unitOfWork(em, async (tx) => {
        const requests = await calls.payoutsRequested(tx, chain, BATCH);
        if (!requests.length) return 0;
        const payouts = await signPayouts(tx, chain, reading, requests, calls);
        afterCommit(async (outside) => {
          // The fault the crash tests inject: stored and committed, never broadcast by this process.
          if (payouts.length) crashAt(settings.crashAt, 'payout-signed');
          await broadcastPayouts(outside, chain, payouts);
        });
        return requests.length;
      });
      if (repair instanceof Error) throw repair;
      return claimed;
    },
  };
}

/**
 * Pays one processing on-ramp now, in the caller's unit of work, on the transfer the caller locked (the sandbox's
 * settle): the same signing as the sender job's, with the treasury read before the transaction opened. A transfer
 * already paid (by the job, or an earlier call) is left as it is. Broadcast after commit.
 */
export async function payNow(
  tx: EntityManager,
  chain: LiveChain,
  reading: TreasuryReading,
  request: PayoutRequest,
  settings: SendingSettings,
  calls: PayoutCalls,
): Promise<void> {
  if (await tx.count(ChainPayout, { transferId: request.transferId })) return;
  const payouts = await signPayouts(tx, chain, reading, [request], calls);
  // A node that does not answer now only delays it: the sender job broadcasts what is left `signed`.
  afterCommit(async (outside) => {
    if (payouts.length) crashAt(settings.crashAt, 'settle-committed');
    await broadcastPayouts(outside, chain, payouts);
  });
}

export { readTreasury };
