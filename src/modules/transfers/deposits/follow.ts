import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { LiveChain } from '../../../rails/port.js';
import { ACROSS_TENANTS, scopeTo } from '../../../platform/tenant.js';
import { Quote, Transfer } from '../entities.js';
import { announce, moveTransfer, reverseDeposit } from '../lifecycle.js';
import { ChainDeposit } from './entities.js';
import { confirmationsAt } from './record.js';

/**
 * What becomes of a deposit as the chain moves: it gains confirmations until the network's count,
 * then it is credited (once: every change of a deposit happens under its transfer's row lock, and
 * the ledger takes one `deposit` per transfer); it is un-observed or reversed when its block leaves
 * the chain. Used by the watcher and by `complete`, which may both see the same log.
 */

/** A deposit's transfer and quote, locked `FOR UPDATE` (whichever tenant: the watcher acts for none). */
export async function lockDepositTransfer(em: EntityManager, transferId: string): Promise<{ transfer: Transfer; quote: Quote }> {
  const transfer = await em.findOneOrFail(Transfer, { id: transferId }, { ...ACROSS_TENANTS, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  const quote = await em.findOneOrFail(Quote, { id: transfer.quoteId }, ACROSS_TENANTS);
  scopeTo(em, transfer);
  return { transfer, quote };
}

/** The deposit as committed now (read after its transfer's lock is held). */
const freshDeposit = (em: EntityManager, id: string) => em.findOneOrFail(ChainDeposit, { id }, { refresh: true });

/** Whether another transfer already names this hash (one transaction paying two addresses funds only the first). */
async function hashTakenElsewhere(em: EntityManager, transfer: Transfer, txHash: string): Promise<boolean> {
  const rows = await em.execute(`select 1 from transfers where environment = ? and deposit_transaction_hash = ? and id <> ?`, [
    transfer.environment,
    txHash,
    transfer.id,
  ]);
  return rows.length > 0;
}

/** Whether an earlier deposit (by block, then log) to the same transfer is still waiting. */
async function behindAnother(em: EntityManager, deposit: ChainDeposit): Promise<boolean> {
  const rows = await em.execute(
    `select 1 from chain_deposits where transfer_id = ? and status = 'observed' and id <> ?
       and (block_number < ? or (block_number = ? and log_index < ?))`,
    [deposit.transferId, deposit.id, deposit.blockNumber.toString(), deposit.blockNumber.toString(), deposit.logIndex],
  );
  return rows.length > 0;
}

/**
 * An observed deposit at `head`: its transfer shows its confirmations (announced when they change);
 * at the network's count it is credited: pending → processing with what arrived (an overpayment's
 * excess returned), or → failed `underpaid`. A transfer that stopped waiting (credited by an
 * earlier deposit, canceled, expired) leaves the deposit `late`, held for return.
 */
export async function followDeposit(em: EntityManager, chain: LiveChain, depositId: string, head: bigint): Promise<void> {
  const { transfer, quote } = await lockDepositTransfer(em, (await freshDeposit(em, depositId)).transferId);
  const deposit = await freshDeposit(em, depositId);
  if (deposit.status !== 'observed') return;
  const now = new Date();
  if (transfer.status !== 'pending') {
    deposit.status = 'late';
    deposit.updatedAt = now;
    await em.flush();
    return;
  }
  // Two deposits to one address are taken in chain order: the transfer follows the first; the next waits for it.
  if (await behindAnother(em, deposit)) return;
  const confirmations = Math.min(confirmationsAt(head, deposit.blockNumber), chain.requiredConfirmations);
  const changed = transfer.confirmations !== confirmations || transfer.depositTransactionHash !== deposit.txHash;
  transfer.confirmations = confirmations;
  transfer.requiredConfirmations = chain.requiredConfirmations;
  if (transfer.depositTransactionHash !== deposit.txHash && !(await hashTakenElsewhere(em, transfer, deposit.txHash))) {
    transfer.depositTransactionHash = deposit.txHash;
  }
  if (confirmations < chain.requiredConfirmations) {
    if (!changed) return;
    transfer.updatedAt = now;
    await em.flush();
    await announce(em, transfer, quote, 'deposit.updated');
    return;
  }
  deposit.status = 'credited';
  deposit.updatedAt = now;
  const received = deposit.amount;
  if (received.lt(quote.sourceAmount)) await moveTransfer(em, transfer, quote, 'failed', 'underpaid', { received });
  else await moveTransfer(em, transfer, quote, 'processing', 'deposit_confirmed', { received });
}

/**
 * A deposit whose transaction left the chain: observed → `removed` (the transfer waits again, its
 * confirmations reset, announced); credited → `reversed`, by a new ledger movement (lifecycle's
 * reverseDeposit). Other statuses never touched the ledger: they only record the loss.
 */
export async function unobserveDeposit(em: EntityManager, depositId: string): Promise<void> {
  const { transfer, quote } = await lockDepositTransfer(em, (await freshDeposit(em, depositId)).transferId);
  const deposit = await freshDeposit(em, depositId);
  const was = deposit.status;
  deposit.status = was === 'credited' ? 'reversed' : 'removed';
  deposit.updatedAt = new Date();
  if (was === 'credited') {
    await reverseDeposit(em, transfer, quote);
    return;
  }
  if (was !== 'observed') {
    await em.flush();
    return;
  }
  if (transfer.status === 'pending') {
    transfer.confirmations = null;
    if (transfer.depositTransactionHash === deposit.txHash) transfer.depositTransactionHash = null;
    transfer.updatedAt = new Date();
  }
  await em.flush();
  if (transfer.status === 'pending') await announce(em, transfer, quote, 'deposit.updated');
}
