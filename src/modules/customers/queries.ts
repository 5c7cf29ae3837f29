import { type SqlBool, sql } from 'kysely';
import { parseInput } from '../../domain/validation.js';
import type { KeysetPage, OffsetPage } from '../../platform/reads/pagination.js';
import { type Columns, type From, keyset, readsOver, rowShape, selecting } from '../../platform/reads/queries.js';
import { type Scope, modelOf } from '../../platform/use-cases/scope.js';
import { Customer, type CustomerTables } from './entities.js';
import { CustomerFilter } from './inputs.js';

/** A customer as lists show it: its columns as a plain object (an entity of a write fits too). */
export type CustomerRow = Columns<Customer>;

const { tenant } = readsOver<CustomerTables>();
type Customers = From<CustomerTables, 'customers', 'c'>;

/** A filter whose email is the digest the rows keep (the service digests it under the tenant's key). */
export type DigestedFilter = Omit<CustomerFilter, 'email'> & { emailDigest?: string };

/** The customers a filter matches, as conditions on `c`. */
function matching<Q extends Customers>(query: Q, { emailDigest, ...filter }: DigestedFilter): Q {
  const f = parseInput(CustomerFilter, filter);
  let q: Customers = query;
  if (emailDigest !== undefined) q = q.where('c.email_digest', '=', emailDigest);
  if (f.type) q = q.where('c.type', '=', f.type);
  if (f.kycStatus) q = q.where(sql<SqlBool>`c.kyc_status_breakdown @> ${JSON.stringify([{ status: f.kycStatus }])}::jsonb`);
  return q as Q;
}

const selectFrom = (scope: Scope): Customers => selecting(tenant(scope, 'customers', 'c'), rowShape(modelOf(scope), Customer, 'c'));

async function read(scope: Scope, query: Customers): Promise<CustomerRow[]> {
  const customers = rowShape(modelOf(scope), Customer, 'c');
  return (await query.execute()).map((row) => customers.read(row)!);
}

/** GraphQL `customers`: a keyset page, oldest first, as plain rows. */
export function customerPage(scope: Scope, filter: DigestedFilter, page: KeysetPage): Promise<CustomerRow[]> {
  return read(scope, keyset(matching(selectFrom(scope), filter), page, 'c'));
}

/** REST's list: `page.limit` customers after the first `page.skip`, oldest first. */
export function customersByOffset(scope: Scope, filter: DigestedFilter, page: OffsetPage): Promise<CustomerRow[]> {
  const query = matching(selectFrom(scope), filter);
  return read(scope, query.orderBy('c.created_at', 'asc').orderBy('c.id', 'asc').limit(page.limit).offset(page.skip));
}

/** How many customers the filter matches (a connection's totalCount). */
export async function countCustomers(scope: Scope, filter: DigestedFilter): Promise<number> {
  const query = matching(tenant(scope, 'customers', 'c').select(sql<number>`count(*)::int`.as('n')), filter);
  return (await query.executeTakeFirst())?.n ?? 0;
}
