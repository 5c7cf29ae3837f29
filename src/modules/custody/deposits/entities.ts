import { defineEntity, p } from '@mikro-orm/core';
import type { InferKyselyDB } from '@mikro-orm/sql';
import { ENVIRONMENTS } from '../../../domain/environment.js';
import { type Decimal, NETWORKS, TOKENS } from '../../../domain/money.js';
import { DecimalColumn } from '../../../platform/db/decimal-column.js';

/**
 * What happened to one token `Transfer` log to a deposit address:
 * - `observed`: in the chain, waiting for the network's confirmations;
 * - `confirmed`: has its confirmations, and counts toward its transfer's deposit, which is still short
 *   of the deposit amount and within its window (nothing posted yet: more may come);
 * - `credited`: posted to the ledger, with the deposits to the same address that add up with it (the
 *   transfer funded, or failed `underpaid` when its window closed short);
 * - `removed`: its block left the chain before it was confirmed (nothing was posted);
 * - `reversed`: its block left the chain after it was credited (a `deposit_reversal` posted);
 * - `late`: confirmed, but its transfer no longer waited for it (held for return);
 * - `wrong_token`: another of the network's tokens than the quote's (held for return).
 */
export const DEPOSIT_STATUSES = ['observed', 'confirmed', 'credited', 'removed', 'reversed', 'late', 'wrong_token'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** One deposit, once per (chain, tx hash, log index): the key that makes a deposit credited exactly once. */
const ChainDepositSchema = defineEntity({
  name: 'ChainDeposit',
  tableName: 'chain_deposits',
  properties: {
    id: p.uuid().primary(),
    /** `<environment>:<network>` (WatchedChain.key). */
    chainKey: p.text(),
    environment: p.enum(ENVIRONMENTS),
    network: p.enum(NETWORKS),
    txHash: p.text(),
    logIndex: p.integer(),
    blockNumber: p.bigint('bigint'),
    blockHash: p.text(),
    token: p.enum(TOKENS),
    contractAddress: p.text(),
    fromAddress: p.text(),
    toAddress: p.text(),
    /** In token units (not base units): numeric(38,18), a Decimal. */
    amount: p.type(DecimalColumn).$type<Decimal>().precision(38).scale(18),
    transferId: p.uuid(),
    status: p.enum(DEPOSIT_STATUSES),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class ChainDeposit extends ChainDepositSchema.class {}
ChainDepositSchema.setClass(ChainDeposit);

/** Where a chain's watcher stands: the last block it has read, by number and hash. */
const ChainCursorSchema = defineEntity({
  name: 'ChainCursor',
  tableName: 'chain_cursors',
  properties: {
    chainKey: p.text().primary(),
    blockNumber: p.bigint('bigint'),
    blockHash: p.text(),
    updatedAt: p.datetime(),
  },
});
export class ChainCursor extends ChainCursorSchema.class {}
ChainCursorSchema.setClass(ChainCursor);

/** A window of blocks the watcher passed: where a reorganisation is walked back to. */
const ChainBlockSchema = defineEntity({
  name: 'ChainBlock',
  tableName: 'chain_blocks',
  properties: {
    chainKey: p.text().primary(),
    number: p.bigint('bigint').primary(),
    hash: p.text(),
    parentHash: p.text(),
  },
});
export class ChainBlock extends ChainBlockSchema.class {}
ChainBlockSchema.setClass(ChainBlock);

export const depositEntities = [ChainDeposit, ChainCursor, ChainBlock];

/** The deposit tables as the typed query layer (Kysely) sees them. */
export type DepositTables = InferKyselyDB<typeof ChainDepositSchema | typeof ChainCursorSchema | typeof ChainBlockSchema>;
