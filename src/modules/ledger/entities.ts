import type { InferKyselyDB } from '@mikro-orm/sql';
import { defineEntity, p } from '@mikro-orm/core';
import { LEDGER_ACCOUNTS, MOVEMENTS } from '../../domain/ledger.js';
import { type Decimal, FIAT_CURRENCIES, TOKENS } from '../../domain/money.js';
import { DecimalColumn } from '../../platform/db/decimal-column.js';
import { TENANT_FILTERS, tenantColumns } from '../../platform/security/tenant.js';
import { createdAtColumn, idColumn } from '../../platform/db/columns.js';

/** One money movement of one transfer; (transfer, movement) is unique, so nothing posts twice. */
const LedgerTransactionSchema = defineEntity({
  name: 'LedgerTransaction',
  tableName: 'ledger_transactions',
  filters: TENANT_FILTERS,
  properties: {
    id: idColumn(),
    ...tenantColumns(),
    transferId: p.uuid(),
    movement: p.enum(MOVEMENTS),
    createdAt: createdAtColumn(),
  },
});
export class LedgerTransaction extends LedgerTransactionSchema.class {}
LedgerTransactionSchema.setClass(LedgerTransaction);

/** A signed line of a ledger transaction: debit > 0, credit < 0. */
const LedgerEntrySchema = defineEntity({
  name: 'LedgerEntry',
  tableName: 'ledger_entries',
  filters: TENANT_FILTERS,
  properties: {
    id: p.bigint('string').primary().autoincrement(),
    transactionId: p.uuid(),
    ...tenantColumns(),
    /** Denormalised from the ledger transaction so a transfer's postings load in one query. */
    transferId: p.uuid(),
    movement: p.enum(MOVEMENTS),
    account: p.enum(LEDGER_ACCOUNTS),
    currency: p.enum([...FIAT_CURRENCIES, ...TOKENS] as const),
    amount: p.type(DecimalColumn).$type<Decimal>().precision(38).scale(18),
    createdAt: createdAtColumn(),
  },
});
export class LedgerEntry extends LedgerEntrySchema.class {}
LedgerEntrySchema.setClass(LedgerEntry);

export const ledgerEntities = [LedgerTransaction, LedgerEntry];

/** The tables above as the module's query file reads them (platform/reads/queries.ts): SQL names, the entities' value types. */
export type LedgerTables = InferKyselyDB<typeof LedgerEntrySchema>;
