import type { TransferDirection } from '../../domain/transfer-status.js';
import { parseInput } from '../../domain/validation.js';
import { type KeysetPage, type OffsetPage, keysetSql } from '../../platform/pagination.js';
import { type Columns, type Wanted, readRows, rowShape } from '../../platform/plain-rows.js';

import { type Scope, isUuid } from '../../platform/scope.js';
import { Customer } from '../customers/entities.js';
import type { CustomerRecord } from '../customers/reads.js';
import { Quote, Transfer } from './entities.js';
import { TransferFilter } from './inputs.js';

/**
 * Transfer lists, read as plain rows in one statement: a page with the quotes and customers it
 * shows joined in (PostGraphile's way), never an entity per row. What both faces present: an
 * entity of a write fits the same types.
 */
export type TransferRecord = Columns<Transfer>;
export type QuoteRecord = Columns<Quote>;

export interface TransferWithQuote {
  transfer: TransferRecord;
  quote: QuoteRecord;
}

/** A listed transfer with what the page joined; a relation not asked for is null. */
export interface ListedTransfer {
  transfer: TransferRecord;
  quote: QuoteRecord | null;
  customer: CustomerRecord | null;
}

/**
 * What a read selects: of the transfer (every column unless said), and which related records it
 * joins in the same statement, with which of their columns (GraphQL asks for what its selection reads).
 */
export interface Joined {
  transfer?: Wanted;
  quote?: Wanted;
  customer?: Wanted;
}

interface Conditions {
  where: string[];
  params: unknown[];
}

/** The caller's transfers a filter matches, as conditions on `t`; null when nothing can match. */
function matching({ actor }: Scope, filter: TransferFilter): Conditions | null {
  const f = parseInput(TransferFilter, filter);
  if (f.customerId !== undefined && !isUuid(f.customerId)) return null;
  const out: Conditions = { where: ['t.partner_id = ?', 't.environment = ?'], params: [actor.partnerId, actor.environment] };
  const add = (condition: string, value: unknown) => {
    out.where.push(condition);
    out.params.push(value);
  };
  if (f.customerId) add('t.customer_id = ?', f.customerId);
  if (f.direction) add('t.direction = ?', f.direction);
  if (f.status) add('t.status = ?', f.status);
  if (f.createdAfter) add('t.created_at >= ?', f.createdAfter.toISOString());
  if (f.createdBefore) add('t.created_at < ?', f.createdBefore.toISOString());
  return out;
}

/** `select … from transfers t`, the joined relations of the caller's tenant beside each row. */
function selectFrom(scope: Scope, joined: Joined): string {
  const { em } = scope;
  const columns = [rowShape(em, Transfer, 't', joined.transfer).select];
  let from = 'transfers t';
  // By primary key only: the transfer's tenant (the conditions narrow it to the caller's) is its quote's
  // and its customer's. Comparing the tenant columns too let a planner without statistics reach the
  // quote through `quotes_customer`, thousands of rows a transfer (test/e2e/transfer-page-plan.test.ts).
  if (joined.quote) {
    columns.push(rowShape(em, Quote, 'q', joined.quote).select);
    from += ' left join quotes q on q.id = t.quote_id';
  }
  if (joined.customer) {
    columns.push(rowShape(em, Customer, 'c', joined.customer).select);
    from += ' left join customers c on c.id = t.customer_id';
  }
  return `select ${columns.join(', ')} from ${from}`;
}

async function listed(scope: Scope, sql: string, params: unknown[], joined: Joined): Promise<ListedTransfer[]> {
  const { em } = scope;
  const rows = await readRows(em, sql, params);
  const transfers = rowShape(em, Transfer, 't', joined.transfer);
  const quotes = joined.quote ? rowShape(em, Quote, 'q', joined.quote) : null;
  const customers = joined.customer ? rowShape(em, Customer, 'c', joined.customer) : null;
  return rows.map((row) => ({
    transfer: transfers.read(row)!,
    quote: quotes?.read(row) ?? null,
    customer: customers?.read(row) ?? null,
  }));
}

/** GraphQL `transfers` and `Customer.transfers`: a keyset page, oldest first, with what `joined` asks for. */
export async function transferPage(scope: Scope, filter: TransferFilter, page: KeysetPage, joined: Joined): Promise<ListedTransfer[]> {
  const conditions = matching(scope, filter);
  if (!conditions) return [];
  const keyset = keysetSql(page, 't');
  const where = [...conditions.where, ...keyset.where].join(' and ');
  const sql = `${selectFrom(scope, joined)} where ${where} order by ${keyset.orderBy} limit ?`;
  return listed(scope, sql, [...conditions.params, ...keyset.params, page.limit], joined);
}

/** GraphQL `transfer(id)`: one of the caller's transfers with what `joined` asks for, in one statement; null when unknown. */
export async function transferById(scope: Scope, id: string, joined: Joined): Promise<ListedTransfer | null> {
  if (!isUuid(id)) return null;
  const sql = `${selectFrom(scope, joined)} where t.id = ? and t.partner_id = ? and t.environment = ?`;
  const [found] = await listed(scope, sql, [id, scope.actor.partnerId, scope.actor.environment], joined);
  return found ?? null;
}

/** How many transfers the filter matches (a connection's totalCount). */
export async function countTransfers(scope: Scope, filter: TransferFilter): Promise<number> {
  const conditions = matching(scope, filter);
  if (!conditions) return 0;
  const [row] = await scope.em.execute<{ n: number }[]>(
    `select count(*)::int as n from transfers t where ${conditions.where.join(' and ')}`,
    conditions.params,
  );
  return row?.n ?? 0;
}

/** REST `GET …/{direction}-transfer`: one customer's transfers of one direction with their quotes, newest first, by offset. */
export async function transfersOfCustomer(scope: Scope, customerId: string, direction: TransferDirection, page: OffsetPage): Promise<TransferWithQuote[]> {
  const conditions = matching(scope, { customerId, direction })!;
  const sql = `${selectFrom(scope, { quote: 'all' })} where ${conditions.where.join(' and ')} order by t.created_at desc, t.id desc limit ? offset ?`;
  const rows = await listed(scope, sql, [...conditions.params, page.limit, page.skip], { quote: 'all' });
  return rows.map(({ transfer, quote }) => ({ transfer, quote: quote! }));
}
