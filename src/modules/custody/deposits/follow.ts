import type { EntityManager } from '@mikro-orm/sql';
import { sql } from 'kysely';
import { readsOver } from '../../../platform/reads/queries.js';
import type { WatchedChain } from '../../../rails/port.js';
import type { DepositCalls } from './calls.js';
import { ChainDeposit, type DepositTables } from './entities.js';
import { confirmationsAt } from './record.js';
import { creditDeposits } from './window.js';

/**
 * What becomes of a deposit as the chain moves: it gains confirmations until the network's count,
 * then it counts toward its transfer, whose deposits add up until they reach the deposit amount
 * (window.ts); it is un-observed or reversed when its block leaves the chain. Every change of a
 * deposit happens under its transfer's row lock, so the watcher and `complete`, which may both see
 * the same log, credit it once.
 */

/** The deposit as committed now (read after its transfer's lock is held). */
const freshDeposit = (em: EntityManager, id: string) => em.findOneOrFail(ChainDeposit, { id }, { refresh: true });

/** Whether an earlier deposit (by block, then log) to the same transfer is still waiting for its confirmations. */
async function behindAnother(em: EntityManager, deposit: ChainDeposit): Promise<boolean> {
  const earlier = await readsOver<DepositTables>()
    .acrossTenants(em, 'chain_deposits', 'd')
    .select('d.id')
    .where('d.transfer_id', '=', deposit.transferId)
    .where('d.status', '=', 'observed')
    .where('d.id', '<>', deposit.id)
    // Chain order: the block, then the log within it.
    .where(sql`(d.block_number, d.log_index)`, '<', sql`(${deposit.blockNumber}, ${deposit.logIndex})`)
    .limit(1)
    .execute();
  return earlier.length > 0;
}

/**
 * An observed deposit at `head`: its transfer shows the confirmations of its oldest waiting deposit
 * (announced when they change). At the network's count the deposit is `confirmed` and the transfer's
 * confirmed deposits are added up (window.ts). A transfer that stopped waiting (credited, canceled,
 * expired) leaves the deposit `late`, held for return.
 */
export async function followDeposit(em: EntityManager, chain: WatchedChain, calls: DepositCalls, depositId: string, head: bigint): Promise<void> {
  const transfer = await calls.lockForDeposit(em, (await freshDeposit(em, depositId)).transferId);
  const deposit = await freshDeposit(em, depositId);
  if (deposit.status !== 'observed') return;
  const now = new Date();
  if (transfer.status !== 'pending') {
    deposit.status = 'late';
    deposit.updatedAt = now;
    await em.flush();
    return;
  }
  // Deposits to one address are followed in chain order: the transfer shows the first still waiting.
  if (await behindAnother(em, deposit)) return;
  const confirmations = Math.min(confirmationsAt(head, deposit.blockNumber), chain.requiredConfirmations);
  const changed = await calls.depositConfirming(em, transfer.id, { txHash: deposit.txHash, confirmations, required: chain.requiredConfirmations });
  if (confirmations >= chain.requiredConfirmations) {
    deposit.status = 'confirmed';
    deposit.updatedAt = now;
    await em.flush();
    if (await creditDeposits(em, calls, transfer, now)) return;
  }
  if (changed) await calls.depositUpdated(em, transfer.id);
}

/**
 * A deposit whose transaction left the chain: observed or confirmed → `removed` (nothing was posted;
 * the transfer waits again, its confirmations reset, announced); credited → `reversed`, by a new
 * ledger movement for everything its transfer was credited (lifecycle's reverseDeposit), the other
 * deposits credited with it then `late`: their tokens may still be there, but they fund nothing now
 * and are held for return. Other statuses never touched the ledger: they only record the loss.
 */
export async function unobserveDeposit(em: EntityManager, calls: DepositCalls, depositId: string): Promise<void> {
  const transfer = await calls.lockForDeposit(em, (await freshDeposit(em, depositId)).transferId);
  const deposit = await freshDeposit(em, depositId);
  const was = deposit.status;
  const now = new Date();
  deposit.status = was === 'credited' ? 'reversed' : 'removed';
  deposit.updatedAt = now;
  if (was === 'credited') {
    const others = await em.find(ChainDeposit, { transferId: transfer.id, status: 'credited', id: { $ne: deposit.id } }, { refresh: true });
    for (const other of others) {
      other.status = 'late';
      other.updatedAt = now;
    }
    await em.flush();
    await calls.depositReversed(em, transfer.id);
    return;
  }
  if (was !== 'observed' && was !== 'confirmed') {
    await em.flush();
    return;
  }
  await em.flush();
  await calls.depositRemoved(em, transfer.id, deposit.txHash);
}
