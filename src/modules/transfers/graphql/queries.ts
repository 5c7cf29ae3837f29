import { type DefaultConnectionArguments, resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { undefinedIfNull } from '../../../graphql/arguments.js';
import { builder } from '../../../graphql/builder.js';
import { scopeOf } from '../../../graphql/context.js';
import { nullIfNotFound } from '../../../graphql/errors.js';
import { cursorOf } from '../../../platform/pagination.js';
import { CustomerRef } from '../../customers/graphql.js';
import type { Transfer } from '../entities.js';
import type { TransferFilter } from '../inputs.js';
import { QuoteRef, TransferDirectionEnum, TransferRef, TransferStatusEnum } from './types.js';
import { pageSizeRule } from '../../../graphql/connection.js';
import { connectionComplexity, edgesCountedByPage } from '../../../graphql/limits.js';

function page(ctx: Parameters<typeof scopeOf>[0], args: DefaultConnectionArguments, filter: TransferFilter) {
  return resolveCursorConnection(
    { args, toCursor: cursorOf, defaultSize: 20, maxSize: 100 },
    (p: ResolveCursorConnectionArgs): Promise<Transfer[]> => ctx.services.transfers.list(scopeOf(ctx), filter, p),
  );
}

builder.queryFields((t) => ({
  transfer: t.field({
    type: TransferRef,
    nullable: true,
    description: "One of the caller's transfers; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.transfers.get(scopeOf(ctx), String(id))),
  }),
  transfers: t.connection(
    {
      type: TransferRef,
      description: 'Transfers, oldest first, with cursor pagination (at most 100 a page) and filters.',
      args: {
        customerId: t.arg.id(),
        direction: t.arg({ type: TransferDirectionEnum }),
        status: t.arg({ type: TransferStatusEnum }),
        createdAfter: t.arg({ type: 'DateTime', description: 'Inclusive' }),
        createdBefore: t.arg({ type: 'DateTime', description: 'Exclusive' }),
      },
      validate: pageSizeRule(),
      complexity: connectionComplexity(20),
      resolve: (_, args, ctx) =>
        page(ctx, args, {
          customerId: args.customerId == null ? undefined : String(args.customerId),
          direction: undefinedIfNull(args.direction),
          status: undefinedIfNull(args.status),
          createdAfter: undefinedIfNull(args.createdAfter),
          createdBefore: undefinedIfNull(args.createdBefore),
        }),
    },
    edgesCountedByPage,
  ),
  quote: t.field({
    type: QuoteRef,
    nullable: true,
    description: "One of the caller's quotes; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.transfers.getQuote(scopeOf(ctx), String(id))),
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
      validate: pageSizeRule(),
      complexity: connectionComplexity(20),
      resolve: (customer, args, ctx) =>
        page(ctx, args, { customerId: customer.id, direction: undefinedIfNull(args.direction), status: undefinedIfNull(args.status) }),
    },
    edgesCountedByPage,
  ),
}));

builder.objectFields(QuoteRef, (t) => ({
  transfer: t.loadable({
    type: TransferRef,
    nullable: true,
    description: 'The transfer made from this quote; null while unused',
    load: (quoteIds: string[], ctx) => ctx.services.transfers.loadTransfersOfQuotes(scopeOf(ctx), quoteIds),
    sort: (transfer) => (transfer as Transfer).quoteId,
    resolve: (quote) => quote.id,
  }),
}));
