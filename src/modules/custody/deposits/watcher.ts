import type { EntityManager } from '@mikro-orm/sql';
import type { Job } from '../../../platform/runtime/jobs.js';
import type { BlockRef, WatchedChain, TokenTransfer } from '../../../rails/port.js';
import { type Cursor, WINDOW, advanceCursor, claimCursor, readCursor, rewindCursor, startCursor } from './cursor.js';
import { ChainDeposit } from './entities.js';
import type { DepositCalls } from './calls.js';
import { followDeposit } from './follow.js';
import { recordDeposit, statusOfNewDeposit } from './record.js';
import { type Unwind, applyUnwind, planUnwind } from './reorg.js';
import { transfersTo, watchedAddresses } from './watched.js';

/** Blocks read per poll at most: a public RPC refuses wide `eth_getLogs` ranges, and each poll's transaction stays short. */
const RANGE = 500n;

/** What one poll read of the chain, before its transaction opened. */
interface Reading {
  head: BlockRef;
  unwind: Unwind | null;
  /** The next range's tip and the token transfers in it to watched addresses; null when the cursor is at the head. */
  range: { tip: BlockRef; logs: TokenTransfer[] } | null;
}

/**
 * The deposit watcher of one live chain. Each poll reads the chain first, with no transaction open
 * (a slow node must never hold a database connection or a lock): the cursor as committed, the head,
 * the block at the cursor (and, if the chain under it changed, where the two part and which deposits
 * left), and the token `Transfer` logs of the next range to Ramp's watched deposit addresses. Then,
 * in one transaction, it claims the cursor `FOR UPDATE SKIP LOCKED` (one instance at a time), and
 * only if the cursor is still where it read it, applies what it read and brings every waiting
 * deposit to the head's confirmations.
 */
export function depositWatcher(chain: WatchedChain, calls: DepositCalls): Job {
  return {
    name: `deposit-watcher:${chain.key}`,
    batchSize: 1,
    run: (em) => poll(em, chain, calls),
  };
}

/** One poll; 1 when the head is still ahead (the runner polls again at once), else 0. */
async function poll(em: EntityManager, chain: WatchedChain, calls: DepositCalls): Promise<number> {
  const read = await readCursor(em, chain);
  if (!read) {
    const head = await chain.head();
    await startCursor(em, chain, (await chain.block(head.number > WINDOW ? head.number - WINDOW : 0n)) ?? head);
    return 1;
  }
  const reading = await readChain(em, chain, calls, read);
  return em.transactional(async (tx) => {
    const cursor = await claimCursor(tx, chain, read);
    if (!cursor) return 0;
    let at: Cursor = read;
    if (reading.unwind) {
      await applyUnwind(tx, calls, reading.unwind);
      await rewindCursor(tx, cursor, reading.unwind.fork);
      at = reading.unwind.fork;
    }
    if (reading.range) {
      await recordLogs(tx, chain, calls, reading.range.logs);
      await advanceCursor(tx, cursor, reading.range.tip);
      at = reading.range.tip;
    }
    await followWaiting(tx, chain, calls, reading.head.number);
    return reading.head.number > at.number ? 1 : 0;
  });
}

/** Every chain read of a poll, from the cursor as read. */
async function readChain(em: EntityManager, chain: WatchedChain, calls: DepositCalls, read: Cursor): Promise<Reading> {
  const head = await chain.head();
  const stored = await chain.block(read.number);
  const unwind = stored?.hash === read.hash ? null : await planUnwind(em, chain, read);
  const from = unwind?.fork ?? read;
  if (head.number <= from.number) return { head, unwind, range: null };
  const to = head.number < from.number + RANGE ? head.number : from.number + RANGE;
  const tip = to === head.number ? head : await chain.block(to);
  if (!tip) return { head, unwind, range: null };
  const logs = await transfersTo(chain, from.number + 1n, to, await watchedAddresses(em, chain, calls, new Date()));
  return { head, unwind, range: { tip, logs } };
}

/** Records the range's token transfers to deposit addresses of this chain's off-ramps. */
async function recordLogs(tx: EntityManager, chain: WatchedChain, calls: DepositCalls, logs: readonly TokenTransfer[]): Promise<void> {
  const targets = await calls.depositTargets(tx, chain, [...new Set(logs.map((log) => log.to))]);
  const now = new Date();
  for (const log of logs) {
    const target = targets.get(log.to);
    if (target) await recordDeposit(tx, chain, log, target.transferId, statusOfNewDeposit(log, target, now));
  }
}

/** Every deposit of the chain still gaining confirmations, oldest first, brought to the head. */
async function followWaiting(tx: EntityManager, chain: WatchedChain, calls: DepositCalls, head: bigint): Promise<void> {
  const waiting = await tx.find(
    ChainDeposit,
    { chainKey: chain.key, status: 'observed' },
    { fields: ['id'], orderBy: { blockNumber: 'asc', logIndex: 'asc' }, refresh: true },
  );
  for (const { id } of waiting) await followDeposit(tx, chain, calls, id, head);
}
