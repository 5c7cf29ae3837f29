import type { KeysetPage } from '../../platform/reads/pagination.js';
import { type Columns, keyset, readsOver, rowShape, rowsOf, selecting } from '../../platform/reads/queries.js';
import { type Scope, modelOf } from '../../platform/use-cases/scope.js';
import { BankAccount, type BankAccountTables } from './entities.js';

/** An external account as lists show it: its columns as a plain object (an entity of a write fits too). */
export type BankAccountRow = Columns<BankAccount>;

const { tenant } = readsOver<BankAccountTables>();

/** GraphQL `Customer.bankAccounts`: a keyset page of one customer's accounts, oldest first, as plain rows. */
export function bankAccountPage(scope: Scope, customerId: string, page: KeysetPage): Promise<BankAccountRow[]> {
  const accounts = rowShape(modelOf(scope), BankAccount, 'a');
  const query = selecting(tenant(scope, 'external_accounts', 'a'), accounts).where('a.customer_id', '=', customerId);
  return rowsOf(keyset(query, page, 'a'), accounts);
}
