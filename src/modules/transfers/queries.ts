import { sql } from 'kysely';
import { NotFoundError } from '../../domain/errors.js';
import type { TransferPurpose } from '../../domain/transfer-purpose.js';
import type { BankAccountDetails } from '../bank-accounts/records.js';
import type { DepositBankAccount } from './accounts/deposit-instructions.js';
import type { TransferDirection, TransferStatus } from '../../domain/transfer-status.js';
import { parseInput } from '../../domain/validation.js';
import type { KeysetPage, OffsetPage } from '../../platform/reads/pagination.js';
import {
  type Columns,
  type From,
  type Selected,
  type Wanted,
  keyset,
  preparedRead,
  readsOver,
  rowShape,
  rowsOf,
  selecting,
} from '../../platform/reads/queries.js';
import { type Scope, modelOf } from '../../platform/use-cases/scope.js';
import { isUuid } from '../../domain/identifiers/uuid.js';
import { Customer, type CustomerTables } from '../customers/entities.js';
import type { CustomerRow } from '../customers/queries.js';
import { Quote, Transfer, TransferStatusChange, type TransferTables } from './entities.js';
import { TransferFilter } from './inputs.js';

/**
 * Every read of transfers that is not a write's own: typed Kysely statements (platform/reads/queries.ts)
 * whose rows are plain objects, a page with the quotes and customers it shows joined in
 * (PostGraphile's way), never an entity per row. An entity of a write fits the same row types.
 */
export type TransferRow = Columns<Transfer>;
export type QuoteRow = Columns<Quote>;
export type StatusChangeRow = Columns<TransferStatusChange>;

/**
 * A transfer row as its direction has it. Writes set an on-ramp's destination and deposit
 * instructions (onramp.ts) and an off-ramp's purpose, payout account and deposit address
 * (offramp.ts) when they create it, and never clear them.
 */
export type OnrampTransferRow = TransferRow & { direction: 'onramp'; destinationAddress: string; depositBankAccount: DepositBankAccount };
export type OfframpTransferRow = TransferRow & {
  direction: 'offramp';
  transferPurpose: TransferPurpose;
  destinationBankAccount: BankAccountDetails;
  depositBlockchainAddress: string;
};

/** A transfer with its quote, whole. */
export interface TransferWithQuote {
  transfer: TransferRow;
  quote: QuoteRow;
}

/** The columns of a transfer every transfer's lifecycle shows (presenters.ts `lifecycle`). */
export const LIFECYCLE_COLUMNS = [
  'customerId',
  'failureReason',
  'depositExpiresAt',
  'confirmations',
  'requiredConfirmations',
  'createdAt',
  'updatedAt',
] as const;
/** The columns of a quote its fee breakdown shows (presenters.ts `feeBreakdown`). */
export const FEE_COLUMNS = ['sourceCurrency', 'platformFee', 'developerFee', 'networkFee'] as const;

/**
 * What REST shows of a transfer and its quote, of either direction, and all that its reads select: about two thirds of
 * the columns, where every column of a row costs the driver per row (its description, its parser, its value). The
 * presenters take rows of these columns only (presenters.ts), so a presenter that reads another does not compile.
 */
const SHOWN_TRANSFER_COLUMNS = [
  ...LIFECYCLE_COLUMNS,
  'status',
  'direction',
  'destinationAddress',
  'payoutTransactionHash',
  'virtualAccountId',
  'depositReceivedAmount',
  'depositBankAccount',
  'depositMessage',
  'transferPurpose',
  'destinationExternalAccountId',
  'destinationBankAccount',
  'depositBlockchainAddress',
  'depositTransactionHash',
  'uetr',
] as const;
const SHOWN_QUOTE_COLUMNS = [
  ...FEE_COLUMNS,
  'sourceRails',
  'sourceNetwork',
  'destinationCurrency',
  'destinationRails',
  'destinationNetwork',
  'sourceAmount',
  'destinationAmount',
  'exchangeRate',
  'feeAmount',
] as const;

/** A transfer with its quote, as REST's reads select them: the columns REST shows. */
export interface ShownTransferWithQuote {
  transfer: Selected<TransferRow, (typeof SHOWN_TRANSFER_COLUMNS)[number]>;
  quote: Selected<QuoteRow, (typeof SHOWN_QUOTE_COLUMNS)[number]>;
}
/** What a REST read selects: the columns it shows. */
const SHOWN: Joined = { transfer: SHOWN_TRANSFER_COLUMNS, quote: SHOWN_QUOTE_COLUMNS };

/** A listed transfer with what the read joined; a relation not asked for is null. */
export interface ListedTransfer {
  transfer: TransferRow;
  quote: QuoteRow | null;
  customer: CustomerRow | null;
}

/**
 * What a read selects: of the transfer (every column unless said), and which related rows it
 * joins in the same statement, with which of their columns (GraphQL asks for what its selection reads).
 */
export interface Joined {
  transfer?: Wanted;
  quote?: Wanted;
  customer?: Wanted;
}

/** What a page joins: the transfer, its quote and its customer. */
type Tables = TransferTables & CustomerTables;
const { tenant } = readsOver<Tables>();
type Transfers = From<Tables, 'transfers', 't'>;

const FILTERS = ['customerId', 'direction', 'status', 'createdAfter', 'createdBefore'] as const;
/** A filter's values as a statement's parameters: only those given, times as ISO text. */
type FilterValues = Partial<Record<(typeof FILTERS)[number], string>>;

/** The values of a filter (checked: TransferFilter); null when nothing can match. */
function filterValues(filter: TransferFilter): FilterValues | null {
  const f = parseInput(TransferFilter, filter);
  if (f.customerId !== undefined && !isUuid(f.customerId)) return null;
  const values: FilterValues = {};
  for (const name of FILTERS) {
    const value = f[name];
    if (value !== undefined) values[name] = value instanceof Date ? value.toISOString() : value;
  }
  return values;
}

/** The transfers a filter's values match, as conditions on `t`. */
function matching<Q extends Transfers>(query: Q, v: FilterValues): Q {
  let q: Transfers = query;
  if (v.customerId !== undefined) q = q.where('t.customer_id', '=', v.customerId);
  if (v.direction !== undefined) q = q.where('t.direction', '=', v.direction as TransferDirection);
  if (v.status !== undefined) q = q.where('t.status', '=', v.status as TransferStatus);
  // PostgreSQL reads the ISO text as the column's timestamptz.
  if (v.createdAfter !== undefined) q = q.where('t.created_at', '>=', v.createdAfter as never);
  if (v.createdBefore !== undefined) q = q.where('t.created_at', '<', v.createdBefore as never);
  return q as Q;
}

/**
 * `select … from transfers t`, with the quote and customer joined by their primary key: the
 * transfer's tenant (the caller's: `tenant`) is theirs. Comparing the tenant columns too let a
 * planner without statistics reach the quote through `quotes_customer`, thousands of rows a transfer
 * (test/perf/transfer-page-plan.test.ts).
 */
function selectFrom(scope: Scope, joined: Joined, key?: string): Transfers {
  const em = modelOf(scope);
  let query = selecting(tenant(scope, 'transfers', 't', key), rowShape(em, Transfer, 't', joined.transfer));
  // The joined tables are left out of the statement's type: their columns are read by their row shapes.
  if (joined.quote) query = selecting(query.leftJoin('quotes as q', 'q.id', 't.quote_id') as Transfers, rowShape(em, Quote, 'q', joined.quote));
  if (joined.customer) query = selecting(query.leftJoin('customers as c', 'c.id', 't.customer_id') as Transfers, rowShape(em, Customer, 'c', joined.customer));
  return query;
}

async function listed(scope: Scope, query: Transfers, joined: Joined): Promise<ListedTransfer[]> {
  return readListed(scope, await query.execute(), joined);
}

function readListed(scope: Scope, rows: object[], joined: Joined): ListedTransfer[] {
  const em = modelOf(scope);
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
  const filters = filterValues(filter);
  if (!filters) return [];
  const values: PageValues = { ...filters, limit: page.limit };
  if (page.after) Object.assign(values, { afterAt: page.after.createdAt.toISOString(), afterId: page.after.id });
  if (page.before) Object.assign(values, { beforeAt: page.before.createdAt.toISOString(), beforeId: page.before.id });
  const shape: PageShape = {
    joined,
    filters: FILTERS.filter((name) => name in filters),
    after: Boolean(page.after),
    before: Boolean(page.before),
    inverted: page.inverted,
  };
  return readListed(scope, await pageOf(scope, values, shape), joined);
}

/** A page's values, each a parameter of its statement: the filters given, the cursors' places, the page's size. */
type PageValues = FilterValues & { limit: number; afterAt?: string; afterId?: string; beforeAt?: string; beforeId?: string };
/** What makes a page's statement: what it selects and joins, which filters and cursors it has, its order. */
interface PageShape {
  joined: Joined;
  filters: (typeof FILTERS)[number][];
  after: boolean;
  before: boolean;
  inverted: boolean;
}

/**
 * A page's statement, compiled once per shape: building and compiling it with Kysely on every page cost as much
 * CPU as reading its hundred rows.
 */
const pageOf = preparedRead(
  (scope, v: PageValues, shape: PageShape) => {
    const place = (createdAt?: string, id?: string) => (createdAt === undefined || id === undefined ? null : { createdAt, id });
    const page = { limit: v.limit, inverted: shape.inverted, after: place(v.afterAt, v.afterId), before: place(v.beforeAt, v.beforeId) };
    return keyset(matching(selectFrom(scope, shape.joined), v), page, 't');
  },
  ({ joined, filters, after, before, inverted }) =>
    JSON.stringify([joined.transfer ?? 'all', joined.quote ?? null, joined.customer ?? null, filters, after, before, inverted]),
);

/** GraphQL `transfer(id)`: one of the caller's transfers with what `joined` asks for, in one statement; null when unknown. */
export async function transferById(scope: Scope, id: string, joined: Joined): Promise<ListedTransfer | null> {
  if (!isUuid(id)) return null;
  const [found] = readListed(scope, await byId(scope, { id }, joined), joined);
  return found ?? null;
}

/** One statement per selection (what it selects of the transfer, which relations it joins), compiled once each. */
const byId = preparedRead(
  (scope, { id }: { id: string }, joined: Joined) => selectFrom(scope, joined, id),
  (joined) => JSON.stringify([joined.transfer ?? 'all', joined.quote ?? null, joined.customer ?? null]),
);

/** How many transfers the filter matches (a connection's totalCount). */
export async function countTransfers(scope: Scope, filter: TransferFilter): Promise<number> {
  const values = filterValues(filter);
  if (!values) return 0;
  return (await matching(tenant(scope, 'transfers', 't').select(sql<number>`count(*)::int`.as('n')), values).executeTakeFirst())?.n ?? 0;
}

/** REST `GET …/{direction}-transfer`: one customer's transfers of one direction with their quotes, newest first, by offset. */
export async function transfersOfCustomer(scope: Scope, customerId: string, direction: TransferDirection, page: OffsetPage): Promise<ShownTransferWithQuote[]> {
  const query = matching(selectFrom(scope, SHOWN), { customerId, direction });
  const rows = await listed(scope, query.orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').limit(page.limit).offset(page.skip), SHOWN);
  return rows.map(({ transfer, quote }) => ({ transfer, quote: quote! }));
}

/**
 * REST `GET …/{direction}-transfer/{id}`, the hottest read: the customer, the transfer and its quote
 * in one statement of plain rows (three entity reads cost three round trips and most of the request's
 * CPU in MikroORM). The customer row is read even when the transfer is not there, so an unknown
 * customer is still told apart from an unknown transfer of a known one. The customer is the caller's
 * (`tenant`); the transfer is that customer's, its quote the transfer's (by key).
 */
export async function transferOfCustomer(scope: Scope, customerId: string, direction: TransferDirection, transferId: string): Promise<ShownTransferWithQuote> {
  if (!isUuid(customerId)) throw new NotFoundError('Customer');
  // A malformed transfer id matches no row (null never equals), which reads as an unknown transfer.
  const id = isUuid(transferId) ? transferId : null;
  const [row] = await ofCustomer(scope, { customerId, direction, id }, undefined);
  if (!row) throw new NotFoundError('Customer');
  const transfer = rowShape(modelOf(scope), Transfer, 't', SHOWN_TRANSFER_COLUMNS).read(row);
  const quote = rowShape(modelOf(scope), Quote, 'q', SHOWN_QUOTE_COLUMNS).read(row);
  if (!transfer || !quote) throw new NotFoundError('Transfer');
  return { transfer, quote };
}

/** transferOfCustomer's statement: the same text on every call, compiled once. */
const ofCustomer = preparedRead((scope, { customerId, direction, id }: { customerId: string; direction: TransferDirection; id: string | null }) =>
  selecting(
    tenant(scope, 'customers', 'c')
      .leftJoin('transfers as t', (join) => join.on('t.id', '=', id).onRef('t.customer_id', '=', 'c.id').on('t.direction', '=', direction))
      .leftJoin('quotes as q', 'q.id', 't.quote_id')
      .where('c.id', '=', customerId),
    rowShape(modelOf(scope), Transfer, 't', SHOWN_TRANSFER_COLUMNS),
    rowShape(modelOf(scope), Quote, 'q', SHOWN_QUOTE_COLUMNS),
  ),
);

/**
 * The status histories of the caller's own transfers among `ids`, oldest first, as plain rows: one statement, whose
 * tenant is the transfers' (the history rows carry none of their own).
 */
export function historiesOf(scope: Scope, ids: readonly string[]): Promise<StatusChangeRow[]> {
  const shape = rowShape(modelOf(scope), TransferStatusChange, 'h');
  return rowsOf(
    selecting(
      tenant(scope, 'transfers', 't').innerJoin('transfer_status_history as h', 'h.transfer_id', 't.id').where('t.id', 'in', ids).orderBy('h.id'),
      shape,
    ),
    shape,
  );
}
