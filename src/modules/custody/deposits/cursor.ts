import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { BlockRef, WatchedChain } from '../../../rails/port.js';
import { ChainBlock, ChainCursor } from './entities.js';

/** Blocks remembered per chain, for walking a reorganisation back; a new cursor also starts this far behind the head. */
export const WINDOW = 256n;

/** A block the watcher stands on. */
export interface Cursor {
  number: bigint;
  hash: string;
}

/** Where the chain's watcher stands as committed, read without a lock: what the poll's chain reads start from. */
export async function readCursor(em: EntityManager, chain: WatchedChain): Promise<Cursor | null> {
  const row = await em.findOne(ChainCursor, { chainKey: chain.key }, { refresh: true });
  return row ? { number: row.blockNumber, hash: row.blockHash } : null;
}

/** A chain seen for the first time starts at `start`; an instance that raced this one to it keeps its own. */
export async function startCursor(em: EntityManager, chain: WatchedChain, start: BlockRef): Promise<void> {
  await em.upsert(
    ChainCursor,
    { chainKey: chain.key, blockNumber: start.number, blockHash: start.hash, updatedAt: new Date() },
    { onConflictFields: ['chainKey'], onConflictAction: 'ignore' },
  );
}

/**
 * The cursor locked `FOR UPDATE SKIP LOCKED` until the transaction ends, if it is still where `read`
 * says: null when another instance holds it, or moved it since (what was read of the chain then
 * belongs to a cursor that is gone). Either way this poll does nothing; one instance at a time.
 */
export async function claimCursor(tx: EntityManager, chain: WatchedChain, read: Cursor): Promise<ChainCursor | null> {
  const cursor = await tx.findOne(ChainCursor, { chainKey: chain.key }, { lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE, refresh: true });
  if (!cursor || cursor.blockNumber !== read.number || cursor.blockHash !== read.hash) return null;
  return cursor;
}

/** Moves the claimed cursor to the new tip, remembered for later reorganisations; blocks older than the window are forgotten. */
export async function advanceCursor(tx: EntityManager, cursor: ChainCursor, tip: BlockRef): Promise<void> {
  cursor.blockNumber = tip.number;
  cursor.blockHash = tip.hash;
  cursor.updatedAt = new Date();
  await tx.flush();
  await tx.upsert(ChainBlock, { chainKey: cursor.chainKey, number: tip.number, hash: tip.hash, parentHash: tip.parentHash });
  await tx.nativeDelete(ChainBlock, { chainKey: cursor.chainKey, number: { $lt: tip.number - WINDOW } });
}

/** Moves the claimed cursor back to where the chains part; the blocks above it are no longer the chain's. */
export async function rewindCursor(tx: EntityManager, cursor: ChainCursor, fork: Cursor): Promise<void> {
  await tx.nativeDelete(ChainBlock, { chainKey: cursor.chainKey, number: { $gt: fork.number } });
  cursor.blockNumber = fork.number;
  cursor.blockHash = fork.hash;
  cursor.updatedAt = new Date();
  await tx.flush();
}
