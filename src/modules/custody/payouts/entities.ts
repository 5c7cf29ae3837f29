import { defineEntity, p } from '@mikro-orm/core';
import type { InferKyselyDB } from '@mikro-orm/sql';
import type { Decimal } from '../../../domain/money.js';
import { TOKENS } from '../../../domain/money.js';
import { createdAtColumn, idColumn } from '../../../platform/db/columns.js';
import { DecimalColumn } from '../../../platform/db/decimal-column.js';

/** `signed` (stored, maybe not yet broadcast) → `sent` → `mined` (back to `sent` if its block is reorganised away) → `confirmed`; or `failed`. */
export const PAYOUT_STATUSES = ['signed', 'sent', 'mined', 'confirmed', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** Wei, which outgrows a bigint column on some chains: numeric(78,0), a Decimal in memory. */
const wei = () => p.type(DecimalColumn).$type<Decimal>().precision(78).scale(0);

/**
 * The token transfer that pays an on-ramp: signed and stored before it is broadcast, so a crash
 * never pays twice. Replacing a stuck transaction keeps the nonce and remembers the hashes before.
 */
const ChainPayoutSchema = defineEntity({
  name: 'ChainPayout',
  tableName: 'chain_payouts',
  properties: {
    id: idColumn(),
    /** Unique: one payout per transfer, whatever instance or request signs it. */
    transferId: p.uuid().unique(),
    chain: p.text(),
    sender: p.text(),
    nonce: p.bigint('number'),
    token: p.enum(TOKENS),
    to: p.text(),
    /** The quote's destination amount, in tokens (6 decimals). */
    amount: p.type(DecimalColumn).$type<Decimal>().precision(38).scale(18),
    rawTransaction: p.text(),
    /** The latest attempt's hash; the one mined, once it is. */
    transactionHash: p.text(),
    /** Hashes of attempts this one replaced (same nonce, lower fees): any of them may still be the one mined. */
    earlierHashes: p.json<string[]>(),
    maxFeePerGas: wei(),
    maxPriorityFeePerGas: wei(),
    status: p.enum(PAYOUT_STATUSES),
    failureReason: p.text().nullable(),
    blockNumber: p.bigint('number').nullable(),
    blockHash: p.text().nullable(),
    /** When the latest attempt was broadcast: a stuck one is replaced PAYOUT_REPLACE_AFTER_SECONDS later. */
    sentAt: p.datetime().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: p.datetime(),
  },
});
export class ChainPayout extends ChainPayoutSchema.class {}
ChainPayoutSchema.setClass(ChainPayout);

export const payoutEntities = [ChainPayout];
export type PayoutTables = InferKyselyDB<typeof ChainPayoutSchema>;
