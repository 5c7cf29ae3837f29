import type { EntityManager } from '@mikro-orm/sql';
import type { WatchedChain } from '../../../rails/port.js';
import { type Cursor, WINDOW } from './cursor.js';
import { ChainBlock, ChainDeposit } from './entities.js';
import type { DepositCalls } from './calls.js';
import { unobserveDeposit } from './follow.js';

/** Deposit statuses a reorganisation can undo: those that count, or may count, toward a transfer. */
const OPEN = ['observed', 'confirmed', 'credited'] as const;

/** What a reorganisation under the cursor changes, found by reading the chain before any transaction opens. */
export interface Unwind {
  /** The newest remembered block the chain still has: the cursor goes back to it. */
  fork: Cursor;
  /** Deposits above the fork whose transaction the chain still has, in another block. */
  moved: { id: string; blockNumber: bigint; blockHash: string }[];
  /** Deposits above the fork whose transaction left the chain. */
  gone: string[];
}

/**
 * The chain under the cursor changed: the newest remembered block whose hash the chain still has is
 * where the two part (every block below it is the same, each hash naming its parent). Deeper than the
 * window, the watcher starts again from the window's bottom. Each deposit above the fork is looked up
 * again: still on the chain, it only moved block; gone, it is un-observed (or reversed, if credited).
 */
export async function planUnwind(em: EntityManager, chain: WatchedChain, cursor: Cursor): Promise<Unwind> {
  const remembered = await em.find(ChainBlock, { chainKey: chain.key, number: { $lt: cursor.number } }, { orderBy: { number: 'desc' }, refresh: true });
  let fork: Cursor | null = null;
  for (const block of remembered) {
    if ((await chain.block(block.number))?.hash === block.hash) {
      fork = { number: block.number, hash: block.hash };
      break;
    }
  }
  if (!fork) {
    const bottom = await chain.block(cursor.number > WINDOW ? cursor.number - WINDOW : 0n);
    fork = bottom ? { number: bottom.number, hash: bottom.hash } : { number: 0n, hash: '' };
  }
  const above = await em.find(
    ChainDeposit,
    { chainKey: chain.key, blockNumber: { $gt: fork.number }, status: { $in: [...OPEN] } },
    { orderBy: { blockNumber: 'desc', logIndex: 'desc' }, refresh: true },
  );
  const plan: Unwind = { fork, moved: [], gone: [] };
  const lookups = new Map<string, Awaited<ReturnType<WatchedChain['lookUpTransaction']>>>();
  for (const deposit of above) {
    if (!lookups.has(deposit.txHash)) lookups.set(deposit.txHash, await chain.lookUpTransaction(deposit.txHash));
    const found = lookups.get(deposit.txHash)!;
    if (found.found && found.succeeded) plan.moved.push({ id: deposit.id, blockNumber: found.blockNumber, blockHash: found.blockHash });
    else plan.gone.push(deposit.id);
  }
  return plan;
}

/** Applies a planned unwind under the claimed cursor (the caller moves the cursor back to the fork). */
export async function applyUnwind(tx: EntityManager, calls: DepositCalls, plan: Unwind): Promise<void> {
  const now = new Date();
  for (const moved of plan.moved) {
    await tx.nativeUpdate(
      ChainDeposit,
      { id: moved.id, status: { $in: [...OPEN] } },
      { blockNumber: moved.blockNumber, blockHash: moved.blockHash, updatedAt: now },
    );
  }
  for (const id of plan.gone) await unobserveDeposit(tx, calls, id);
}
