import type { EntityManager } from '@mikro-orm/sql';
import { readsOver } from '../../../platform/queries.js';
import { Decimal } from '../../../domain/money.js';
import type { Job } from '../../../platform/jobs.js';
import type { TransferTables } from '../../transfers/service.js';
import type { DepositCalls, DepositingTransfer } from './calls.js';
import { ChainDeposit, type DepositTables } from './entities.js';

/**
 * Deposits to one address add up within the transfer's window, so nobody who knows the address can
 * fail the transfer: dust sent before the real deposit, or the amount paid in parts, only adds to
 * what arrived. A transfer is underpaid only when its window closes short.
 */

const BATCH = 100;

/**
 * Adds up a pending transfer's confirmed deposits (its row locked by the caller). At the deposit
 * amount they are credited together: the transfer moves to processing with their sum (an excess is
 * held for return, as any overpayment). Short, they wait for more, until the window has closed with
 * no other deposit still gaining confirmations: then they are credited as an underpayment, the
 * transfer failed `underpaid` and the sum held for return. Answers whether the transfer moved.
 */
export async function creditDeposits(em: EntityManager, calls: DepositCalls, transfer: DepositingTransfer, now: Date): Promise<boolean> {
  const confirmed = await em.find(ChainDeposit, { transferId: transfer.id, status: 'confirmed' }, { refresh: true });
  if (!confirmed.length) return false;
  const received = confirmed.reduce((sum, d) => sum.plus(d.amount), new Decimal(0));
  const funded = received.gte(transfer.depositAmount);
  if (!funded && transfer.depositExpiresAt > now) return false;
  if (!funded && (await em.count(ChainDeposit, { transferId: transfer.id, status: 'observed' })) > 0) return false;
  for (const deposit of confirmed) {
    deposit.status = 'credited';
    deposit.updatedAt = now;
  }
  await em.flush();
  await calls.depositsCredited(em, transfer.id, received, funded);
  return true;
}

/**
 * Confirmed deposits whose transfer no longer waits for more: its window closed short (→ failed
 * `underpaid`, unless a deposit is still gaining confirmations), or it left pending otherwise
 * (canceled: the deposits are `late`, held for return). Each transfer in a transaction of its own.
 */
export const closeDepositWindowsJob = (calls: DepositCalls): Job => ({
  name: 'close-deposit-windows',
  batchSize: BATCH,
  async run(em) {
    const now = new Date();
    const due = await readsOver<TransferTables & DepositTables>()
      .acrossTenants(em, 'chain_deposits', 'd')
      .innerJoin('transfers as t', 't.id', 'd.transfer_id')
      .select('d.transfer_id')
      .distinct()
      .where('d.status', '=', 'confirmed')
      .where((w) => w.or([w('t.status', '<>', 'pending'), w('t.deposit_expires_at', '<=', now)]))
      .limit(BATCH)
      .execute();
    let closed = 0;
    for (const { transfer_id } of due) {
      if (await em.transactional((tx) => closeWindow(tx, calls, transfer_id, now))) closed++;
    }
    return closed;
  },
});

async function closeWindow(tx: EntityManager, calls: DepositCalls, transferId: string, now: Date): Promise<boolean> {
  const transfer = await calls.lockForDeposit(tx, transferId);
  if (transfer.status === 'pending') return creditDeposits(tx, calls, transfer, now);
  const stranded = await tx.find(ChainDeposit, { transferId, status: 'confirmed' }, { refresh: true });
  for (const deposit of stranded) {
    deposit.status = 'late';
    deposit.updatedAt = now;
  }
  await tx.flush();
  return stranded.length > 0;
}
