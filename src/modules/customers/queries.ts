import { type SqlBool, sql } from 'kysely';
import { parseInput } from '../../domain/validation.js';
import type { KeysetPage, OffsetPage } from '../../platform/pagination.js';
import { type Columns, rowShape } from '../../platform/queries.js';
import { type Select, keyset, tenant } from '../../platform/queries.js';
import type { Scope } from '../../platform/scope.js';
import { Customer } from './entities.js';
import { CustomerFilter } from './inputs.js';

/** A customer as lists show it: its columns as a plain object (an entity of a write fits too). */
export type CustomerRow = Columns<Customer>;

/** The customers a filter matches, as conditions on `c`. */
function matching(query: Select, filter: CustomerFilter): Select {
  const f = parseInput(CustomerFilter, filter);
  let q = query;
  if (f.email) q = q.where('c.email', '=', f.email);
  if (f.type) q = q.where('c.type', '=', f.type);
  if (f.kycStatus) q = q.where(sql<SqlBool>`c.kyc_status_breakdown @> ${JSON.stringify([{ status: f.kycStatus }])}::jsonb`);
  return q;
}

const selectFrom = (scope: Scope): Select => tenant(scope, 'customers', 'c').select(sql.raw(rowShape(scope.em, Customer, 'c').select) as never);

async function read(scope: Scope, query: Select): Promise<CustomerRow[]> {
  const customers = rowShape(scope.em, Customer, 'c');
  return ((await query.execute()) as Record<string, unknown>[]).map((row) => customers.read(row)!);
}

/** GraphQL `customers`: a keyset page, oldest first, as plain rows. */
export function customerPage(scope: Scope, filter: CustomerFilter, page: KeysetPage): Promise<CustomerRow[]> {
  const { where, direction } = keyset(page, 'c');
  const query = where.reduce((q, condition) => q.where(condition), matching(selectFrom(scope), filter));
  return read(scope, query.orderBy('c.created_at', direction).orderBy('c.id', direction).limit(page.limit));
}

/** REST's list: `page.limit` customers after the first `page.skip`, oldest first. */
export function customersByOffset(scope: Scope, filter: CustomerFilter, page: OffsetPage): Promise<CustomerRow[]> {
  const query = matching(selectFrom(scope), filter);
  return read(scope, query.orderBy('c.created_at', 'asc').orderBy('c.id', 'asc').limit(page.limit).offset(page.skip));
}

/** How many customers the filter matches (a connection's totalCount). */
export async function countCustomers(scope: Scope, filter: CustomerFilter): Promise<number> {
  const query = matching(tenant(scope, 'customers', 'c').select(sql<number>`count(*)::int`.as('n')), filter);
  const row = (await query.executeTakeFirst()) as { n: number } | undefined;
  return row?.n ?? 0;
}
