import { defineEntity, p } from '@mikro-orm/core';
import { ENVIRONMENTS } from '../../domain/environment.js';
import { LEDGER_ACCOUNTS, MOVEMENTS } from '../../domain/ledger.js';
import { type Decimal, FIAT_CURRENCIES, TOKENS } from '../../domain/money.js';
import { DecimalColumn } from '../../platform/decimal-column.js';

/** One money movement of one transfer; (transfer, movement) is unique, so nothing posts twice. */
const LedgerTransactionSchema = defineEntity({
  name: 'LedgerTransaction',
  tableName: 'ledger_transactions',
  properties: {
    id: p.uuid().primary(),
    partnerId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    transferId: p.uuid(),
    movement: p.enum(MOVEMENTS),
    createdAt: p.datetime(),
  },
});
export class LedgerTransaction extends LedgerTransactionSchema.class {}
LedgerTransactionSchema.setClass(LedgerTransaction);

/** A signed line of a ledger transaction: debit > 0, credit < 0. */
const LedgerEntrySchema = defineEntity({
  name: 'LedgerEntry',
  tableName: 'ledger_entries',
  properties: {
    id: p.bigint('string').primary().autoincrement(),
    transactionId: p.uuid(),
    partnerId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    /** Denormalised from the ledger transaction so a transfer's postings load in one query. */
    transferId: p.uuid(),
    movement: p.enum(MOVEMENTS),
    account: p.enum(LEDGER_ACCOUNTS),
    currency: p.enum([...FIAT_CURRENCIES, ...TOKENS] as const),
    amount: p.type(DecimalColumn).$type<Decimal>().precision(38).scale(18),
    createdAt: p.datetime(),
  },
});
export class LedgerEntry extends LedgerEntrySchema.class {}
LedgerEntrySchema.setClass(LedgerEntry);

export const ledgerEntities = [LedgerTransaction, LedgerEntry];
