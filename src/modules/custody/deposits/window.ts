import type { EntityManager } from '@mikro-orm/sql';
import { readsOver } from '../../../platform/reads/queries.js';
import { Decimal } from '../../../domain/money.js';
import type { Job } from '../../../platform/runtime/jobs.js';
import type { DepositCalls, DepositingTransfer } from './calls.js';
import { ChainDeposit, type DepositTables } from './entities.js';

/**
 * Deposits to one address add up within the transfer's window, so nobody who knows the address can
 * fail the transfer: dust sent before the real deposit, or the amount paid in parts, only adds to
 * what arrived. A transfer is underpaid only when its window closes short.
 */

const BATCH = 100;
/** Transfers with confirmed deposits asked about at once. */
const WAITING_PAGE = 500;

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
    const due = await windowsDue(em, calls, now);
    let closed = 0;
    for (const transferId of due) {
      if (await em.transactional((tx) => closeWindow(tx, calls, transferId, now))) closed++;
    }
    return closed;
  },
});

/**
 * Up to BATCH transfers with confirmed deposits whose window is due (transfers say which): their deposits read a page
 * of transfers at a time, so those still waiting in their window never hide the due ones behind them.
 */
async function windowsDue(em: EntityManager, calls: DepositCalls, now: Date): Promise<string[]> {
  const due: string[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await readsOver<DepositTables>()
      .acrossTenants(em, 'chain_deposits', 'd')
      .select('d.transfer_id')
      .distinct()
      .where('d.status', '=', 'confirmed')
      .$if(after !== null, (q) => q.where('d.transfer_id', '>', after!))
      .orderBy('d.transfer_id')
      .limit(WAITING_PAGE)
      .execute();
    const ids = page.map((r) => r.transfer_id);
    due.push(...(await calls.windowsDue(em, ids, now)));
    if (due.length >= BATCH || ids.length < WAITING_PAGE) return due.slice(0, BATCH);
    after = ids.at(-1)!;
  }
}

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
