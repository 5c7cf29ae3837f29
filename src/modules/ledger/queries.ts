import { sql } from 'kysely';
import { Decimal } from '../../domain/money.js';
import { type Columns, readsOver, rowShape, rowsOf, selecting } from '../../platform/reads/queries.js';
import { type Scope, modelOf } from '../../platform/use-cases/scope.js';
import { LedgerEntry, type LedgerTables } from './entities.js';

const { tenant } = readsOver<LedgerTables>();

/** Sums are read as text: a numeric(38,18) sum is exact there, and becomes a Decimal (never a JS number). */
const sumOf = (negated: boolean) => (negated ? sql<string>`(-sum(e.amount))::text` : sql<string>`sum(e.amount)::text`);

/** The caller's balance of every account and asset it has used, ordered by account then asset. */
export async function accountBalances(scope: Scope) {
  const rows = await tenant(scope, 'ledger_entries', 'e')
    .select(['e.account', 'e.currency', sumOf(false).as('balance')])
    .groupBy(['e.account', 'e.currency'])
    .orderBy('e.account')
    .orderBy('e.currency')
    .execute();
  return rows.map((r) => ({ account: r.account, currency: r.currency, balance: new Decimal(r.balance) }));
}

/** What the caller's customers hold per asset: the credit balance of `customer_funds`. */
export async function customerFundsHeld(scope: Scope) {
  const rows = await tenant(scope, 'ledger_entries', 'e')
    .where('e.account', '=', 'customer_funds')
    .select(['e.currency', sumOf(true).as('held')])
    .groupBy('e.currency')
    .execute();
  return new Map(rows.map((r) => [r.currency, new Decimal(r.held)]));
}

export type LedgerEntryRow = Columns<LedgerEntry>;

/** The caller's postings of the transfers `ids`, oldest first, as plain rows (a page's postings hydrate no entity). */
export function entriesOfTransfers(scope: Scope, ids: readonly string[]): Promise<LedgerEntryRow[]> {
  const shape = rowShape(modelOf(scope), LedgerEntry, 'e');
  return rowsOf(selecting(tenant(scope, 'ledger_entries', 'e').where('e.transfer_id', 'in', ids).orderBy('e.id'), shape), shape);
}
