import type { KeysetPage } from '../../platform/reads/pagination.js';
import { type Columns, keyset, readsOver, rowShape, rowsOf, selecting } from '../../platform/reads/queries.js';
import { type Scope, modelOf } from '../../platform/use-cases/scope.js';
import { VirtualAccount, type VirtualAccountTables } from './entities.js';

/** A virtual account as lists show it: its columns as a plain object (an entity of a write fits too). */
export type VirtualAccountRow = Columns<VirtualAccount>;

const { tenant } = readsOver<VirtualAccountTables>();

/** GraphQL `Customer.virtualAccounts`: a keyset page of one customer's accounts, oldest first, as plain rows. */
export function virtualAccountPage(scope: Scope, customerId: string, page: KeysetPage): Promise<VirtualAccountRow[]> {
  const accounts = rowShape(modelOf(scope), VirtualAccount, 'v');
  const query = selecting(tenant(scope, 'virtual_accounts', 'v'), accounts).where('v.customer_id', '=', customerId);
  return rowsOf(keyset(query, page, 'v'), accounts);
}
