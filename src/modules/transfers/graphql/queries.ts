import type { DefaultConnectionArguments } from '@pothos/plugin-relay';
import type { GraphQLResolveInfo } from 'graphql';
import { undefinedIfNull } from '../../../graphql/arguments.js';
import { builder } from '../../../graphql/builder.js';
import { connectionFieldOptions, resolvePage } from '../../../graphql/connection.js';
import { type GraphQLContext, scopeOf } from '../../../graphql/context.js';
import { nullIfNotFound } from '../../../graphql/errors.js';
import { selectedFields } from '../../../graphql/lookahead.js';
import { optionalDatabaseIdOf } from '../../../graphql/node.js';
import { cursorOf } from '../../../platform/pagination.js';
import { CustomerRef } from '../../customers/graphql.js';
import type { TransferFilter } from '../inputs.js';
import type { ListedTransfer, TransferRecord } from '../reads.js';
import { quoteIdOf, transferIdOf } from './ids.js';
import { FIELDS_READING_QUOTE, QuoteRef, TransferConnection, TransferDirectionEnum, TransferRef, TransferStatusEnum } from './types.js';

/** What a selection of transfers shows beyond the transfer: its quote (or a field read from it), its customer. */
function joinedFor(shown: Set<string>) {
  return { quote: [...FIELDS_READING_QUOTE].some((f) => shown.has(f)), customer: shown.has('customer') };
}

/** Hands the quotes and customers a statement read with its transfers to their dataloaders: no query for them later. */
function primeRelations(ctx: GraphQLContext, rows: ListedTransfer[]): TransferRecord[] {
  const quotes = QuoteRef.getDataloader(ctx);
  const customers = CustomerRef.getDataloader(ctx);
  for (const { quote, customer } of rows) {
    if (quote) quotes.prime(quote.id, quote);
    if (customer) customers.prime(customer.id, customer);
  }
  return rows.map((row) => row.transfer);
}

/**
 * One page of the transfers a filter matches, and their count when a client asks for totalCount.
 * The quotes and customers the page shows are read in the same statement and handed to their
 * dataloaders, so the page is one query however many of its nodes show them.
 */
function transferPage(ctx: GraphQLContext, info: GraphQLResolveInfo, args: DefaultConnectionArguments, filter: TransferFilter) {
  const scope = scopeOf(ctx);
  const joined = joinedFor(selectedFields(info, ['edges', 'node']));
  return resolvePage(args, cursorOf, async (page) => primeRelations(ctx, await ctx.services.transfers.list(scope, filter, page, joined)), {
    count: () => ctx.services.transfers.count(scope, filter),
  });
}

/** The caller's transfer an id names, or null (unknown, another partner's, or a global id of the other direction), read with what the selection shows. */
async function transferNamed(ctx: GraphQLContext, info: GraphQLResolveInfo, idArgument: string | number): Promise<TransferRecord | null> {
  const { id, within } = transferIdOf(idArgument);
  const found = await ctx.services.transfers.find(scopeOf(ctx), id, joinedFor(selectedFields(info, [])));
  if (!found || (within.direction && found.transfer.direction !== within.direction)) return null;
  return primeRelations(ctx, [found])[0]!;
}

builder.queryFields((t) => ({
  transfer: t.field({
    type: TransferRef,
    nullable: true,
    description:
      "One of the caller's transfers by global id (of an OnrampTransfer or an OfframpTransfer) or databaseId; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx, info) => transferNamed(ctx, info, id),
  }),
  transfers: t.connection(
    {
      type: TransferRef,
      description: 'Transfers, oldest first, with cursor pagination (at most 100 a page) and filters.',
      args: {
        customerId: t.arg.id({ description: "The customer's global id or databaseId" }),
        direction: t.arg({ type: TransferDirectionEnum }),
        status: t.arg({ type: TransferStatusEnum }),
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
    type: QuoteRef,
    nullable: true,
    description: "One of the caller's quotes by global id or databaseId; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.transfers.getQuote(scopeOf(ctx), quoteIdOf(id))),
  }),
}));

builder.objectFields(CustomerRef, (t) => ({
  transfers: t.connection(
    {
      type: TransferRef,
      description: "The customer's transfers, oldest first (at most 100 a page).",
      args: {
        direction: t.arg({ type: TransferDirectionEnum }),
        status: t.arg({ type: TransferStatusEnum }),
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
    load: (quoteIds: string[], ctx) => ctx.services.transfers.loadTransfersOfQuotes(scopeOf(ctx), quoteIds),
    sort: (transfer) => (transfer as TransferRecord).quoteId,
    resolve: (quote) => quote.id,
  }),
}));
