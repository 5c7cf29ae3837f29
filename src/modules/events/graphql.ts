import { resolveNodes } from '@pothos/plugin-relay';
import { EVENT_TYPES, type EventType } from '../../domain/events.js';
import { builder } from '../../graphql/builder.js';
import { connectionFieldOptions, resolvePage } from '../../graphql/connection.js';
import { scopeOf } from '../../graphql/context.js';
import { domainEnum } from '../../graphql/enums.js';
import { edgesCountedByPage } from '../../graphql/limits.js';
import type { Scope } from '../../platform/scope.js';
import type { PartnerEvent } from './service.js';

export const EventTypeEnum = domainEnum('EventType', EVENT_TYPES, {
  description: 'What an event announces (REST and webhooks spell it in lower case with dots: CUSTOMER_KYCS_UPDATED is customer.kycs.updated)',
});

/** The kinds of object events are about: each event type starts with one. */
const EVENT_ENTITY_TYPES = ['customer', 'virtual_account', 'onramp_transfer', 'offramp_transfer', 'external_account'] as const;
type EventEntityType = (typeof EVENT_ENTITY_TYPES)[number];
// A new event type about a new kind of object fails to compile here until its entity type is listed.
const everyEventTypeHasItsEntity: EventType extends `${EventEntityType}.${string}` ? true : never = true;
void everyEventTypeHasItsEntity;
/** The GraphQL type of each kind of object, to load it as a Node. */
const NODE_TYPE_OF: Record<EventEntityType, string> = {
  customer: 'Customer',
  virtual_account: 'VirtualAccount',
  onramp_transfer: 'OnrampTransfer',
  offramp_transfer: 'OfframpTransfer',
  external_account: 'BankAccount',
};
const EventEntityTypeEnum = domainEnum('EventEntityType', EVENT_ENTITY_TYPES, {
  description: "The kind of object an event is about (external_account is a customer's bank account)",
});

/** Events by id, scoped to the caller's partner and environment (the events service's batch load). */
type EventLoader = { loadMany?: (scope: Scope, ids: readonly string[]) => Promise<PartnerEvent[]> };

export const EventRef = builder.loadableNodeRef<PartnerEvent>('Event', {
  id: { resolve: (e) => e.id },
  // Until the events service has loadMany, node(id:) reads an event as null (unknown).
  load: async (ids: string[], ctx) => (await (ctx.services.events as EventLoader).loadMany?.(scopeOf(ctx), ids)) ?? [],
  sort: (e) => e.id,
});

EventRef.implement({
  description: 'One event of the outbox, as webhooks deliver it.',
  fields: (t) => ({
    databaseId: t.expose('id', { type: 'UUID', description: 'The id REST and webhooks show for this event (id); also the `webhook-id` of its deliveries' }),
    cursor: t.exposeString('cursor', {
      description: 'Opaque position in your stream, valid for your partner and environment only: pass it as `after` to resume after this event.',
    }),
    type: t.field({ type: EventTypeEnum, resolve: (e) => e.type as EventType }),
    entityType: t.field({ type: EventEntityTypeEnum, resolve: (e) => e.entityType as EventEntityType }),
    entityId: t.expose('entityId', { type: 'UUID', description: 'The databaseId of the object the event is about' }),
    entity: t.field({
      type: builder.nodeInterfaceRef(),
      nullable: true,
      description: 'The object the event is about, as it is now (the payload is as it was then); null when it is no longer there',
      // Through the same per-request loaders as node(id:), scoped to the caller.
      resolve: async (e, _, ctx, info) => {
        const typename = NODE_TYPE_OF[e.entityType as EventEntityType];
        const [entity] = typename ? await resolveNodes(builder, ctx, info, [{ id: e.entityId, typename }]) : [];
        return entity ?? null;
      },
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    payload: t.field({ type: 'JSON', description: 'The full object as REST shows it at the time of the event.', resolve: (e) => e.payload }),
  }),
});

/**
 * Events in commit order. No totalCount: the outbox only grows, so counting a partner's events is a
 * scan of all of them on every request; the stream is read by cursor, not by size.
 */
export const EventConnection = builder.connectionObject({ type: EventRef, name: 'EventConnection', ...edgesCountedByPage }, { name: 'EventEdge' });

const EVENT_PAGE_SIZE = 50;

builder.queryFields((t) => ({
  events: t.connection(
    {
      type: EventRef,
      description: "The caller's events in commit order, to reconcile after downtime (at most 100 a page).",
      args: { types: t.arg({ type: [EventTypeEnum], description: 'Only these event types' }) },
      ...connectionFieldOptions(EVENT_PAGE_SIZE),
      resolve: (_, args, ctx) =>
        resolvePage(
          args,
          (e: PartnerEvent) => e.cursor,
          (page) => ctx.services.events.page(scopeOf(ctx), args.types ?? undefined, page),
          {
            defaultSize: EVENT_PAGE_SIZE,
          },
        ),
    },
    EventConnection,
  ),
}));

builder.subscriptionType({ authScopes: { partner: true } });

builder.subscriptionFields((t) => ({
  events: t.field({
    type: EventRef,
    description:
      "The caller's events: first every event after `after` (a cursor from an earlier event), then live ones as they commit. " +
      'Without `after` it starts with the next event; `after: "0"` replays every event. Reconnect with the last cursor you received to miss nothing.',
    args: { after: t.arg.string(), types: t.arg({ type: [EventTypeEnum], description: 'Only these event types' }) },
    subscribe: (_, args, ctx) => ctx.services.events.stream(scopeOf(ctx), args, ctx.connection),
    resolve: (event: PartnerEvent) => event,
  }),
  transferUpdated: t.field({
    type: EventRef,
    description: "The events of one of the caller's transfers (created, each status change) from now on, or after `after`.",
    args: { id: t.arg.id({ required: true }), after: t.arg.string() },
    subscribe: (_, args, ctx) => ctx.services.events.transferUpdates(scopeOf(ctx), String(args.id), args.after, ctx.connection),
    resolve: (event: PartnerEvent) => event,
  }),
}));
