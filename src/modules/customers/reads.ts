import { parseInput } from '../../domain/validation.js';
import { type KeysetPage, type OffsetPage, keysetSql } from '../../platform/pagination.js';
import { type Columns, rowShape } from '../../platform/plain-rows.js';
import type { Scope } from '../../platform/scope.js';
import { Customer } from './entities.js';
import { CustomerFilter } from './inputs.js';

/** A customer as lists show it: its columns as a plain object (an entity of a write fits too). */
export type CustomerRecord = Columns<Customer>;

/** The caller's customers a filter matches, as conditions on `c` with their parameters. */
function matching({ actor }: Scope, filter: CustomerFilter) {
  const f = parseInput(CustomerFilter, filter);
  const where = ['c.partner_id = ?', 'c.environment = ?'];
  const params: unknown[] = [actor.partnerId, actor.environment];
  const add = (condition: string, value: unknown) => {
    where.push(condition);
    params.push(value);
  };
  if (f.email) add('c.email = ?', f.email);
  if (f.type) add('c.type = ?', f.type);
  if (f.kycStatus) add('c.kyc_status_breakdown @> ?::jsonb', JSON.stringify([{ status: f.kycStatus }]));
  return { where: where.join(' and '), params };
}

async function read(scope: Scope, sql: string, params: unknown[]): Promise<CustomerRecord[]> {
  const customers = rowShape(scope.em, Customer, 'c');
  const rows = await scope.em.execute<Record<string, unknown>[]>(sql, params);
  return rows.map((row) => customers.read(row)!);
}

/** GraphQL `customers`: a keyset page, oldest first, as plain rows. */
export function customerPage(scope: Scope, filter: CustomerFilter, page: KeysetPage): Promise<CustomerRecord[]> {
  const { where, params } = matching(scope, filter);
  const keyset = keysetSql(page, 'c');
  const conditions = [where, ...keyset.where].join(' and ');
  const sql = `select ${rowShape(scope.em, Customer, 'c').select} from customers c where ${conditions} order by ${keyset.orderBy} limit ?`;
  return read(scope, sql, [...params, ...keyset.params, page.limit]);
}

/** REST's list: `page.limit` customers after the first `page.skip`, oldest first. */
export function customersByOffset(scope: Scope, filter: CustomerFilter, page: OffsetPage): Promise<CustomerRecord[]> {
  const { where, params } = matching(scope, filter);
  const sql = `select ${rowShape(scope.em, Customer, 'c').select} from customers c where ${where} order by c.created_at asc, c.id asc limit ? offset ?`;
  return read(scope, sql, [...params, page.limit, page.skip]);
}

/** How many customers the filter matches (a connection's totalCount). */
export async function countCustomers(scope: Scope, filter: CustomerFilter): Promise<number> {
  const { where, params } = matching(scope, filter);
  const [row] = await scope.em.execute<{ n: number }[]>(`select count(*)::int as n from customers c where ${where}`, params);
  return row?.n ?? 0;
}
