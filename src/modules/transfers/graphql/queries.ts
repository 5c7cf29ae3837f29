import { type DefaultConnectionArguments, resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { builder } from '../../../graphql/builder.js';
import { scopeOf } from '../../../graphql/context.js';
import { nullIfNotFound } from '../../../graphql/errors.js';
import { cursorOf } from '../../../platform/pagination.js';
import { CustomerRef } from '../../customers/graphql.js';
import type { Transfer } from '../entities.js';
import type { TransferFilter } from '../inputs.js';
import { QuoteRef, TransferDirectionEnum, TransferRef, TransferStatusEnum } from './types.js';
import { pageSizeRule } from '../../../graphql/connection.js';

const orUndefined = <T>(value: T | null | undefined) => value ?? undefined;

function page(ctx: Parameters<typeof scopeOf>[0], args: DefaultConnectionArguments, filter: TransferFilter) {
  return resolveCursorConnection({ args, toCursor: cursorOf, defaultSize: 20, maxSize: 100 }, (p: ResolveCursorConnectionArgs): Promise<Transfer[]> =>
    ctx.services.transfers.list(scopeOf(ctx), filter, p),
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
  transfers: t.connection({
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
    resolve: (_, args, ctx) =>
      page(ctx, args, {
        customerId: args.customerId == null ? undefined : String(args.customerId),
        direction: orUndefined(args.direction),
        status: orUndefined(args.status),
        createdAfter: orUndefined(args.createdAfter),
        createdBefore: orUndefined(args.createdBefore),
      }),
  }),
  quote: t.field({
    type: QuoteRef,
    nullable: true,
    description: "One of the caller's quotes; null when unknown (or another partner's).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.transfers.getQuote(scopeOf(ctx), String(id))),
  }),
}));

builder.objectFields(CustomerRef, (t) => ({
  transfers: t.connection({
    type: TransferRef,
    description: "The customer's transfers, oldest first (at most 100 a page).",
    args: {
      direction: t.arg({ type: TransferDirectionEnum }),
      status: t.arg({ type: TransferStatusEnum }),
    },
    validate: pageSizeRule(),
    resolve: (customer, args, ctx) =>
      page(ctx, args, { customerId: customer.id, direction: orUndefined(args.direction), status: orUndefined(args.status) }),
  }),
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
