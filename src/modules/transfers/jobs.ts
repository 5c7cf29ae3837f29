import type { EntityManager } from '@mikro-orm/sql';
import type { Network } from '../../domain/money.js';
import type { TransferStatus } from '../../domain/transfer-status.js';
import type { Job } from '../../platform/runtime/jobs.js';
import { ACROSS_TENANTS, scopeTo } from '../../platform/security/tenant.js';
import { Quote, Transfer } from './entities.js';
import { closeDepositWindowsJob } from '../custody/deposits/window.js';
import { depositCalls } from './calls/deposit.js';
import { moveTransfer } from './ramps/lifecycle.js';

const BATCH = 100;

/**
 * Claims up to a batch of transfers matching `where` (plain SQL over `transfers`), skipping rows
 * another instance or a request holds, and moves each to `to` in one transaction.
 */
async function claimAndMove(em: EntityManager, where: string, params: unknown[], to: TransferStatus, reason: string): Promise<number> {
  return em.transactional(async (tx) => {
    const rows = await tx.execute<{ id: string }[]>(
      `select id from transfers where ${where} order by updated_at, id limit ${BATCH} for update skip locked`,
      params,
    );
    for (const { id } of rows) {
      // Claimed across tenants; each move is then made in its own transfer's tenant.
      const transfer = await tx.findOneOrFail(Transfer, { id }, ACROSS_TENANTS);
      const quote = await tx.findOneOrFail(Quote, { id: transfer.quoteId }, ACROSS_TENANTS);
      await moveTransfer(scopeTo(tx, transfer), transfer, quote, to, reason);
    }
    return rows.length;
  });
}

/**
 * Pending transfers past their deposit window become `expired` (every environment), except one whose
 * chain deposits arrived in time: still gaining confirmations (deposits/watcher.ts), or confirmed but
 * short, which fails `underpaid` instead (deposits/window.ts).
 */
export const expireTransfersJob: Job = {
  name: 'expire-transfers',
  batchSize: BATCH,
  run: (em) =>
    claimAndMove(
      em,
      `status = 'pending' and deposit_expires_at <= now()
       and not exists (select 1 from chain_deposits d where d.transfer_id = transfers.id and d.status in ('observed', 'confirmed'))`,
      [],
      'expired',
      'deposit_window_elapsed',
    ),
};

/**
 * Sandbox only, when AUTO_SETTLE_DELAY_MS is set: what a partner would otherwise simulate by
 * hand. An on-ramp's fiat "arrives" the delay after creation, and any processing transfer
 * settles the delay after it started processing, but an on-ramp to a live chain (`liveNetworks`), which
 * the payout sender pays for real. Off-ramps still wait for their deposit hash.
 */
export function autoSettlementJobs(delayMs: number, liveNetworks: readonly Network[] = []): Job[] {
  const older = `now() - (? * interval '1 millisecond')`;
  return [
    {
      name: 'sandbox-auto-deposit',
      batchSize: BATCH,
      run: (em) =>
        claimAndMove(
          em,
          `environment = 'sandbox' and direction = 'onramp' and status = 'pending' and created_at <= ${older} and deposit_expires_at > now()`,
          [delayMs],
          'processing',
          'fiat_deposit_received',
        ),
    },
    {
      name: 'sandbox-auto-settlement',
      batchSize: BATCH,
      run: (em) =>
        claimAndMove(
          em,
          // An on-ramp to a live chain completes when its real payout is confirmed (payouts/), never by the clock.
          `environment = 'sandbox' and status = 'processing' and updated_at <= ${older}${liveNetworks.length ? ` and not (direction = 'onramp' and quote_id in (select id from quotes where destination_network in (${liveNetworks.map(() => '?').join(', ')})))` : ''}`,
          [delayMs, ...liveNetworks],
          'completed',
          'settled',
        ),
    },
  ];
}

/** The jobs of money movement, as configured. */
export function transferJobs(options: { autoSettleDelayMs?: number | undefined; liveSandboxNetworks?: readonly Network[] }): Job[] {
  return [
    closeDepositWindowsJob(depositCalls),
    expireTransfersJob,
    ...(options.autoSettleDelayMs !== undefined ? autoSettlementJobs(options.autoSettleDelayMs, options.liveSandboxNetworks) : []),
  ];
}
