import { resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { builder } from '../../graphql/builder.js';
import { scopeOf } from '../../graphql/context.js';
import type { PartnerEvent } from './service.js';
import { pageSizeRule } from '../../graphql/connection.js';
import { connectionComplexity, edgesCountedByPage } from '../../graphql/limits.js';

export const EventRef = builder.objectRef<PartnerEvent>('Event').implement({
  description: 'One event of the outbox, as webhooks deliver it.',
  fields: (t) => ({
    cursor: t.exposeString('cursor', {
      description: 'Opaque position in your stream, valid for your partner and environment only: pass it as `after` to resume after this event.',
    }),
    id: t.exposeID('id', { description: 'Also the `webhook-id` of its webhook deliveries.' }),
    type: t.exposeString('type', { description: 'customer.created, onramp_transfer.status.updated, … (see the README)' }),
    entityType: t.exposeString('entityType'),
    entityId: t.exposeID('entityId'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    payload: t.field({ type: 'JSON', description: 'The full object as REST shows it at the time of the event.', resolve: (e) => e.payload }),
  }),
});

builder.queryFields((t) => ({
  events: t.connection(
    {
      type: EventRef,
      description: "The caller's events in commit order, to reconcile after downtime (at most 100 a page).",
      args: { types: t.arg.stringList({ description: 'Only these event types' }) },
      validate: pageSizeRule(),
      complexity: connectionComplexity(50),
      resolve: (_, args, ctx) =>
        resolveCursorConnection({ args, toCursor: (e: PartnerEvent) => e.cursor, defaultSize: 50, maxSize: 100 }, (page: ResolveCursorConnectionArgs) =>
          ctx.services.events.page(scopeOf(ctx), args.types ?? undefined, page),
        ),
    },
    edgesCountedByPage,
  ),
}));

builder.subscriptionType({ authScopes: { partner: true } });

builder.subscriptionFields((t) => ({
  events: t.field({
    type: EventRef,
    description:
      "The caller's events: first every event after `after` (a cursor from an earlier event), then live ones as they commit. " +
      'Without `after` it starts with the next event; `after: "0"` replays every event. Reconnect with the last cursor you received to miss nothing.',
    args: { after: t.arg.string(), types: t.arg.stringList({ description: 'Only these event types' }) },
    subscribe: (_, args, ctx) => ctx.services.events.stream(scopeOf(ctx), args),
    resolve: (event: PartnerEvent) => event,
  }),
  transferUpdated: t.field({
    type: EventRef,
    description: "The events of one of the caller's transfers (created, each status change) from now on, or after `after`.",
    args: { id: t.arg.id({ required: true }), after: t.arg.string() },
    subscribe: (_, args, ctx) => ctx.services.events.transferUpdates(scopeOf(ctx), String(args.id), args.after),
    resolve: (event: PartnerEvent) => event,
  }),
}));
