import { defineEntity, p } from '@mikro-orm/core';
import type { InferKyselyDB } from '@mikro-orm/sql';
import { type Decimal, TOKENS } from '../../domain/money.js';
import { createdAtColumn, idColumn } from '../../platform/db/columns.js';
import { DecimalColumn } from '../../platform/db/decimal-column.js';
import { depositEntities } from './deposits/entities.js';
import { payoutEntities } from './payouts/entities.js';

/**
 * One account Ramp signs with on one chain (a treasury, the sandbox's minter): its row is the nonce lock. Every
 * transaction the account signs takes its nonce while this row is held `FOR UPDATE`, in the transaction that stores
 * what was signed, so no two instances, and no two kinds of transaction (payouts, gas top-ups, mints), share a nonce.
 */
const ChainSenderSchema = defineEntity({
  name: 'ChainSender',
  tableName: 'chain_senders',
  properties: {
    /** The nonce sequence's key: a chain's key, `<environment>:<network>`, or the sandbox chain's minter sequence. */
    chain: p.text().primary(),
    address: p.text().primary(),
    nextNonce: p.bigint('number'),
    updatedAt: p.datetime(),
  },
});
export class ChainSender extends ChainSenderSchema.class {}
ChainSenderSchema.setClass(ChainSender);

/**
 * `signed` (stored, maybe not yet broadcast) → `sent` → `mined` (in a block, gaining confirmations) → `confirmed`; a
 * reorganisation takes a mined one back to `sent` (sent again), and a replacement of a stuck one is `signed` again.
 */
export const MINT_STATUSES = ['signed', 'sent', 'mined', 'confirmed'] as const;
export type MintStatus = (typeof MINT_STATUSES)[number];

/** Base units or wei, which outgrow a bigint column: numeric(78,0), a Decimal in memory. */
const units = () => p.type(DecimalColumn).$type<Decimal>().precision(78).scale(0);

/**
 * A sandbox faucet mint: signed under the minter's nonce lock and stored before it is broadcast, so a crash or a
 * timeout never mints twice (a nonce is mined once) and never loses one (the follower broadcasts it again). Followed
 * like a payout until it has the chain's confirmations: one a reorganisation drops is sent again, and one stuck unmined
 * is signed again under its nonce at higher fees (it holds every later mint up).
 */
const ChainMintSchema = defineEntity({
  name: 'ChainMint',
  tableName: 'chain_mints',
  properties: {
    id: idColumn(),
    /** The minter's nonce sequence (ChainSender.chain). */
    sequence: p.text(),
    sender: p.text(),
    nonce: p.bigint('number'),
    contractAddress: p.text(),
    to: p.text(),
    amount: units(),
    rawTransaction: p.text(),
    transactionHash: p.text(),
    /** Hashes of mints the latest replaced: any of them may be the one mined. */
    earlierHashes: p.json<string[]>(),
    /** The latest signature's fees; null for a mint stored before they were kept (never replaced, only sent again). */
    maxFeePerGas: units().nullable(),
    maxPriorityFeePerGas: units().nullable(),
    /** When the latest signature was first sent: a mint still unmined PAYOUT_REPLACE_AFTER_SECONDS later is replaced. */
    sentAt: p.datetime().nullable(),
    status: p.enum(MINT_STATUSES),
    createdAt: createdAtColumn(),
    updatedAt: p.datetime(),
  },
});
export class ChainMint extends ChainMintSchema.class {}
ChainMintSchema.setClass(ChainMint);

/** `funding` (its gas top-up on its way, or none needed yet) → `sweeping` (the token transfer sent) → `swept`; or `failed`. */
export const SWEEP_STATUSES = ['funding', 'sweeping', 'swept', 'failed'] as const;
export type SweepStatus = (typeof SWEEP_STATUSES)[number];

/**
 * A confirmed deposit moved from its own address to the network's treasury: the treasury's gas top-up (when the
 * address lacks gas), then the address's token transfer. Both are stored signed before they are broadcast, and
 * followed until each has the chain's confirmations: one a reorganisation or the mempool drops is sent again.
 */
const ChainSweepSchema = defineEntity({
  name: 'ChainSweep',
  tableName: 'chain_sweeps',
  properties: {
    id: idColumn(),
    depositId: p.uuid().unique(),
    chain: p.text(),
    address: p.text(),
    addressIndex: p.bigint('number'),
    token: p.enum(TOKENS),
    amount: p.type(DecimalColumn).$type<Decimal>().precision(38).scale(18),
    status: p.enum(SWEEP_STATUSES),
    maxFeePerGas: units().nullable(),
    maxPriorityFeePerGas: units().nullable(),
    gasAmount: units().nullable(),
    gasNonce: p.bigint('number').nullable(),
    gasRawTransaction: p.text().nullable(),
    gasTransactionHash: p.text().nullable(),
    /** When the latest top-up was sent: a stuck one is signed again PAYOUT_REPLACE_AFTER_SECONDS later, same nonce. */
    gasSentAt: p.datetime().nullable(),
    /** The latest top-up's own fees (a replacement's rise above the sweep's). */
    gasMaxFeePerGas: units().nullable(),
    gasMaxPriorityFeePerGas: units().nullable(),
    /** Hashes of top-ups the latest replaced: any of them may be the one mined. */
    gasEarlierHashes: p.json<string[]>(),
    sweepNonce: p.bigint('number').nullable(),
    sweepRawTransaction: p.text().nullable(),
    sweepTransactionHash: p.text().nullable(),
    /** When the latest sweep was sent: a stuck one is signed again PAYOUT_REPLACE_AFTER_SECONDS later, same nonce. */
    sweepSentAt: p.datetime().nullable(),
    /** Hashes of sweeps the latest replaced: any of them may be the one mined. */
    sweepEarlierHashes: p.json<string[]>(),
    failureReason: p.text().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: p.datetime(),
  },
});
export class ChainSweep extends ChainSweepSchema.class {}
ChainSweepSchema.setClass(ChainSweep);

export const custodyEntities = [ChainSender, ChainMint, ChainSweep, ...payoutEntities, ...depositEntities];
export type CustodyTables = InferKyselyDB<typeof ChainSenderSchema | typeof ChainMintSchema | typeof ChainSweepSchema>;
