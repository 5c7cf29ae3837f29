import type { DefaultConnectionArguments } from '@pothos/plugin-relay';
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import { undefinedIfNull } from '../../../graphql/types/arguments.js';
import { builder } from '../../../graphql/builder.js';
import { connectionFieldOptions, resolveKeysetPage } from '../../../graphql/types/connection.js';
import { type GraphQLContext, scopeOf } from '../../../graphql/context.js';
import { nullIfNotFound } from '../../../graphql/types/errors.js';
import { reads, selectedColumns, selectedFields } from '../../../graphql/types/columns.js';
import { optionalDatabaseIdOf } from '../../../graphql/types/node.js';
import { CustomerRef } from '../../customers/graphql.js';
import type { TransferFilter } from '../inputs.js';
import type { Wanted } from '../../../platform/reads/queries.js';
import { type Joined, type ListedTransfer, countTransfers, transferById, transferPage as readTransferPage } from '../queries.js';
import { quoteIdOf, transferIdOf } from './ids.js';
import { QuoteRef, TransferConnection, TransferDirectionEnum, type TransferNode, TransferRef, TransferStatusEnum, transferNode } from './types.js';

const TRANSFER_TYPES = ['Transfer', 'OnrampTransfer', 'OfframpTransfer'];
/** What every listed transfer needs whatever its selection: its global id and type, its cursor, the keys of its relations. */
const TRANSFER_ALWAYS = ['id', 'direction', 'createdAt', 'quoteId', 'customerId'];

/**
 * What a read joins of a relation: what its own selection (`quote { … }`, at `path`) reads, with what
 * the transfer's fields read through it (`amount` reads the quote's); undefined when nothing does.
 */
function relationColumns(info: GraphQLResolveInfo, path: string[], typeName: string, shown: boolean, readThrough?: Set<string>): Wanted | undefined {
  const always = [...(readThrough ?? []), 'id'];
  if (!shown) return readThrough ? always : undefined;
  return selectedColumns(info, [typeName], selectedFields(info, path), always)?.own ?? 'all';
}

/**
 * What a selection of transfers (the nodes under `path`) reads, as one statement: only the columns
 * its fields read, of the transfer and of the quote and customer it shows, joined in. A field that
 * does not say what it reads makes that record whole.
 */
function joinedFor(info: GraphQLResolveInfo, path: string[]): Joined {
  // A document's nodes are parsed once (Yoga's cache): its selection is worked out once too.
  const byPath = joinedByField.get(info.fieldNodes[0]!) ?? new Map<string, Joined>();
  joinedByField.set(info.fieldNodes[0]!, byPath);
  const key = path.join('.');
  const known = byPath.get(key);
  if (known) return known;
  const joined = joinedOf(info, path);
  byPath.set(key, joined);
  return joined;
}
const joinedByField = new WeakMap<FieldNode, Map<string, Joined>>();

function joinedOf(info: GraphQLResolveInfo, path: string[]): Joined {
  const shown = selectedFields(info, path);
  const transfer = selectedColumns(info, TRANSFER_TYPES, shown, TRANSFER_ALWAYS);
  if (!transfer) return { transfer: 'all', quote: 'all', customer: shown.has('customer') ? 'all' : undefined };
  return {
    transfer: transfer.own,
    quote: relationColumns(info, [...path, 'quote'], 'Quote', shown.has('quote'), transfer.related.get('quote')),
    customer: relationColumns(info, [...path, 'customer'], 'Customer', shown.has('customer')),
  };
}

/** The listed transfers with their joined customers' personal values opened (their keys in one read, none when not shown). */
async function withOpenedCustomers<L extends ListedTransfer | null>(ctx: GraphQLContext, listed: L[]): Promise<L[]> {
  await ctx.services.customers.open(
    scopeOf(ctx),
    listed.map((l) => l?.customer ?? null),
  );
  return listed;
}

/**
 * One page of the transfers a filter matches, and their count when a client asks for totalCount.
 * The quotes and customers the page shows are read in the same statement, only the columns its
 * fields read, so the page is one query however many of its nodes show them.
 */
function transferPage(ctx: GraphQLContext, info: GraphQLResolveInfo, args: DefaultConnectionArguments, filter: TransferFilter) {
  const scope = scopeOf(ctx);
  const joined = joinedFor(info, ['edges', 'node']);
  return resolveKeysetPage(
    ctx,
    info,
    args,
    (node: TransferNode) => node.transfer,
    async (page) => (await withOpenedCustomers(ctx, await readTransferPage(scope, filter, page, joined))).map(transferNode),
    {
      count: () => countTransfers(scope, filter),
    },
  );
}

/** The caller's transfer an id names, or null (unknown, another partner's, or a global id of the other direction), read with what the selection shows. */
async function transferNamed(ctx: GraphQLContext, info: GraphQLResolveInfo, idArgument: string | number): Promise<TransferNode | null> {
  const { id, within } = transferIdOf(idArgument);
  const [found] = await withOpenedCustomers(ctx, [await transferById(scopeOf(ctx), id, joinedFor(info, []))]);
  if (!found || (within.direction && found.transfer.direction !== within.direction)) return null;
  return transferNode(found);
}

builder.queryFields((t) => ({
  transfer: t.field({
    keyScope: 'read',
    type: TransferRef,
    nullable: true,
    description:
      "One of the caller's transfers by global id (of an OnrampTransfer or an OfframpTransfer) or databaseId; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true, description: 'Its global id, or its databaseId (the id REST shows)' }) },
    resolve: (_, { id }, ctx, info) => transferNamed(ctx, info, id),
  }),
  transfers: t.connection(
    {
      keyScope: 'read',
      type: TransferRef,
      description: 'Transfers, oldest first, with cursor pagination (at most 100 a page) and filters.',
      args: {
        customerId: t.arg.id({ description: "The customer's global id or databaseId" }),
        direction: t.arg({ type: TransferDirectionEnum, description: 'Only on-ramps or only off-ramps' }),
        status: t.arg({ type: TransferStatusEnum, description: 'Only transfers in this status' }),
        createdAfter: t.arg({ type: 'DateTime', description: 'Inclusive' }),
        createdBefore: t.arg({ type: 'DateTime', description: 'Exclusive' }),
      },
      ...connectionFieldOptions(),
      resolve: (_, args, ctx, info) =>
        transferPage(ctx, info, args, {
          customerId: optionalDatabaseIdOf(args.customerId, 'Customer'),
          direction: undefinedIfNull(args.direction),
          status: undefinedIfNull(args.status),
          createdAfter: undefinedIfNull(args.createdAfter),
          createdBefore: undefinedIfNull(args.createdBefore),
        }),
    },
    TransferConnection,
  ),
  quote: t.field({
    keyScope: 'read',
    type: QuoteRef,
    nullable: true,
    description: "One of the caller's quotes by global id or databaseId; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true, description: 'Its global id, or its databaseId (the id REST shows)' }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.transfers.getQuote(scopeOf(ctx), quoteIdOf(id))),
  }),
}));

builder.objectFields(CustomerRef, (t) => ({
  transfers: t.connection(
    {
      type: TransferRef,
      description: "The customer's transfers, oldest first (at most 100 a page).",
      extensions: reads(['id']),
      args: {
        direction: t.arg({ type: TransferDirectionEnum, description: 'Only on-ramps or only off-ramps' }),
        status: t.arg({ type: TransferStatusEnum, description: 'Only transfers in this status' }),
      },
      ...connectionFieldOptions(),
      resolve: (customer, args, ctx, info) =>
        transferPage(ctx, info, args, { customerId: customer.id, direction: undefinedIfNull(args.direction), status: undefinedIfNull(args.status) }),
    },
    TransferConnection,
  ),
}));

builder.objectFields(QuoteRef, (t) => ({
  transfer: t.loadable({
    type: TransferRef,
    nullable: true,
    description: 'The transfer made from this quote; null while unused',
    extensions: reads(['id']),
    load: async (quoteIds: string[], ctx) =>
      (await ctx.services.transfers.loadTransfersOfQuotes(scopeOf(ctx), quoteIds)).map((transfer) => transferNode({ transfer })),
    sort: (node) => node.transfer.quoteId,
    resolve: (quote) => quote.id,
  }),
}));
