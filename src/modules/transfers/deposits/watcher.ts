import type { EntityManager } from '@mikro-orm/sql';
import type { Job } from '../../../platform/jobs.js';
import type { BlockRef, LiveChain } from '../../../rails/port.js';
import { followDeposit, unobserveDeposit } from './follow.js';
import { recordDeposit, statusOfNewDeposit, targetsOf } from './record.js';

/** Blocks read per poll at most: a public RPC refuses wide `eth_getLogs` ranges, and the cursor's lock stays short. */
const RANGE = 500n;
/** Blocks remembered per chain, for walking a reorganisation back; a new cursor also starts this far behind the head. */
const WINDOW = 256n;

interface Cursor {
  number: bigint;
  hash: string;
}

/**
 * The deposit watcher of one live chain (DESIGN §9). Each poll, in one transaction: claim the
 * chain's cursor `FOR UPDATE SKIP LOCKED` (one instance at a time; another takes over when the
 * holder dies and its transaction ends); if the block at the cursor is no longer the one stored,
 * walk back to where the chains part and un-observe the deposits above it; read the token
 * `Transfer` logs of the next range to Ramp's deposit addresses; then bring every waiting deposit
 * to the head's confirmations, crediting those that reached the network's count.
 */
export function depositWatcher(chain: LiveChain): Job {
  return {
    name: `deposit-watcher:${chain.key}`,
    batchSize: 1,
    run: (em) => em.transactional((tx) => poll(tx, chain)),
  };
}

/** One poll; 1 when the head is still ahead (the runner polls again at once), else 0. */
async function poll(em: EntityManager, chain: LiveChain): Promise<number> {
  let cursor = await claimCursor(em, chain);
  if (!cursor) return 0;
  const head = await chain.head();
  const stored = await chain.block(cursor.number);
  if (stored?.hash !== cursor.hash) cursor = await unwind(em, chain, cursor);
  if (head.number > cursor.number) {
    const to = head.number < cursor.number + RANGE ? head.number : cursor.number + RANGE;
    const tip = to === head.number ? head : await chain.block(to);
    if (!tip) return 0;
    await observe(em, chain, cursor.number + 1n, to);
    await advanceCursor(em, chain, tip);
    cursor = tip;
  }
  await followWaiting(em, chain, head.number);
  return head.number > cursor.number ? 1 : 0;
}

/** The chain's cursor, locked until the poll ends; null when another instance holds it. A new chain starts WINDOW blocks behind the head. */
async function claimCursor(em: EntityManager, chain: LiveChain): Promise<Cursor | null> {
  const claim = () =>
    em.execute<{ block_number: string; block_hash: string }[]>(
      'select block_number::text as block_number, block_hash from chain_cursors where chain_key = ? for update skip locked',
      [chain.key],
    );
  let [row] = await claim();
  if (!row) {
    const [known] = await em.execute('select 1 from chain_cursors where chain_key = ?', [chain.key]);
    if (known) return null;
    const head = await chain.head();
    const start = (await chain.block(head.number > WINDOW ? head.number - WINDOW : 0n)) ?? head;
    await em.execute('insert into chain_cursors (chain_key, block_number, block_hash, updated_at) values (?, ?, ?, ?) on conflict do nothing', [
      chain.key,
      start.number.toString(),
      start.hash,
      new Date(),
    ]);
    [row] = await claim();
    if (!row) return null;
  }
  return { number: BigInt(row.block_number), hash: row.block_hash };
}

/** Stores the new tip, remembered for later reorganisations, and forgets blocks older than the window. */
async function advanceCursor(em: EntityManager, chain: LiveChain, tip: BlockRef): Promise<void> {
  await em.execute('update chain_cursors set block_number = ?, block_hash = ?, updated_at = ? where chain_key = ?', [
    tip.number.toString(),
    tip.hash,
    new Date(),
    chain.key,
  ]);
  await em.execute(
    `insert into chain_blocks (chain_key, number, hash, parent_hash) values (?, ?, ?, ?)
     on conflict (chain_key, number) do update set hash = excluded.hash, parent_hash = excluded.parent_hash`,
    [chain.key, tip.number.toString(), tip.hash, tip.parentHash],
  );
  await em.execute('delete from chain_blocks where chain_key = ? and number < ?', [chain.key, (tip.number - WINDOW).toString()]);
}

/**
 * The chain under the cursor changed: the newest remembered block whose hash the chain still has
 * is where the two part (every block below it is the same, each hash naming its parent). Deposits
 * above it are looked up again: one whose transaction is still on the chain only moved block; one
 * that is gone is un-observed (or reversed, if credited). The cursor goes back to the fork.
 */
async function unwind(em: EntityManager, chain: LiveChain, cursor: Cursor): Promise<Cursor> {
  const remembered = await em.execute<{ number: string; hash: string }[]>(
    'select number::text as number, hash from chain_blocks where chain_key = ? and number < ? order by number desc',
    [chain.key, cursor.number.toString()],
  );
  let fork: Cursor | null = null;
  for (const block of remembered) {
    const now = await chain.block(BigInt(block.number));
    if (now?.hash === block.hash) {
      fork = { number: BigInt(block.number), hash: block.hash };
      break;
    }
  }
  if (!fork) {
    // Deeper than the window: start again from the window's bottom on the chain as it is now.
    const bottom = await chain.block(cursor.number > WINDOW ? cursor.number - WINDOW : 0n);
    fork = bottom ? { number: bottom.number, hash: bottom.hash } : { number: 0n, hash: '' };
  }
  const above = await em.execute<{ id: string; tx_hash: string }[]>(
    `select id, tx_hash from chain_deposits where chain_key = ? and block_number > ? and status in ('observed', 'credited') order by block_number desc, log_index desc`,
    [chain.key, fork.number.toString()],
  );
  for (const deposit of above) {
    const found = await chain.lookUpTransaction(deposit.tx_hash);
    if (found.found && found.succeeded) {
      await em.execute('update chain_deposits set block_number = ?, block_hash = ?, updated_at = ? where id = ?', [
        found.blockNumber.toString(),
        found.blockHash,
        new Date(),
        deposit.id,
      ]);
    } else {
      await unobserveDeposit(em, deposit.id);
    }
  }
  await em.execute('delete from chain_blocks where chain_key = ? and number > ?', [chain.key, fork.number.toString()]);
  await em.execute('update chain_cursors set block_number = ?, block_hash = ?, updated_at = ? where chain_key = ?', [
    fork.number.toString(),
    fork.hash,
    new Date(),
    chain.key,
  ]);
  return fork;
}

/** Records the range's token transfers to deposit addresses of this chain's off-ramps. */
async function observe(em: EntityManager, chain: LiveChain, from: bigint, to: bigint): Promise<void> {
  const logs = (await chain.tokenTransfers(from, to)).filter((log) => log.token !== null);
  const targets = await targetsOf(em, chain, [...new Set(logs.map((log) => log.to))]);
  const now = new Date();
  for (const log of logs) {
    const target = targets.get(log.to);
    if (target) await recordDeposit(em, chain, log, target.transferId, statusOfNewDeposit(log, target, now));
  }
}

/** Every deposit of the chain still waiting, oldest first, brought to the head. */
async function followWaiting(em: EntityManager, chain: LiveChain, head: bigint): Promise<void> {
  const waiting = await em.execute<{ id: string }[]>(
    `select id from chain_deposits where chain_key = ? and status = 'observed' order by block_number, log_index`,
    [chain.key],
  );
  for (const { id } of waiting) await followDeposit(em, chain, id, head);
}
