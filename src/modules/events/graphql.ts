import { EVENT_TYPES, type EventType } from '../../domain/events.js';
import { builder } from '../../graphql/builder.js';
import { connectionFieldOptions, resolvePage } from '../../graphql/types/connection.js';
import { scopeOf } from '../../graphql/context.js';
import { domainEnum } from '../../graphql/types/enums.js';
import { edgesCountedByPage } from '../../graphql/guards/limits.js';
import type { PartnerEvent } from './service.js';
import { EventSubjectUnion, subjectOf } from './subjects.js';

export const EventTypeEnum = domainEnum('EventType', EVENT_TYPES, {
  description: 'What an event announces (REST and webhooks spell it in lower case with dots: CUSTOMER_KYCS_UPDATED is customer.kycs.updated)',
  describe: {
    'customer.created': 'A customer was created',
    'customer.kycs.updated': "A customer's KYC status changed",
    'customer.redacted': "A customer's personal data was erased (redactCustomer, POST /v0/customers/{id}/redact): ids, amounts and the ledger stay",
    'virtual_account.created': 'A virtual account was created',
    'virtual_account.status.updated': "A virtual account's status changed (e.g. activated)",
    'onramp_transfer.created': 'An on-ramp transfer was created',
    'onramp_transfer.status.updated': "An on-ramp transfer's status changed",
    'offramp_transfer.created': 'An off-ramp transfer was created',
    'offramp_transfer.status.updated': "An off-ramp transfer's status changed",
    'offramp_transfer.deposit.updated': "An off-ramp's deposit on a live chain was seen, gained confirmations, or left the chain (a reorganisation)",
    'external_account.created': "A customer's bank account (external account) was added",
  },
});

/** The kinds of object events are about: each event type starts with one. */
const EVENT_ENTITY_TYPES = ['customer', 'virtual_account', 'onramp_transfer', 'offramp_transfer', 'external_account'] as const;
type EventEntityType = (typeof EVENT_ENTITY_TYPES)[number];
// A new event type about a new kind of object fails to compile here until its entity type is listed.
const everyEventTypeHasItsEntity: EventType extends `${EventEntityType}.${string}` ? true : never = true;
void everyEventTypeHasItsEntity;
const EventEntityTypeEnum = domainEnum('EventEntityType', EVENT_ENTITY_TYPES, {
  description: "The kind of object an event is about (external_account is a customer's bank account)",
  describe: {
    customer: 'A Customer',
    virtual_account: 'A VirtualAccount',
    onramp_transfer: 'An OnrampTransfer',
    offramp_transfer: 'An OfframpTransfer',
    external_account: "A BankAccount (REST: a customer's external account)",
  },
});

export const EventRef = builder.loadableNodeRef<PartnerEvent>('Event', {
  id: { resolve: (e) => e.id },
  // Scoped to the caller's partner and environment, like every node.
  load: (ids: string[], ctx) => ctx.services.events.loadMany(scopeOf(ctx), ids),
  sort: (e) => e.id,
});

EventRef.implement({
  description: 'One event of the outbox, as webhooks deliver it.',
  fields: (t) => ({
    databaseId: t.expose('id', { type: 'UUID', description: 'The id REST and webhooks show for this event (id); also the `webhook-id` of its deliveries' }),
    cursor: t.exposeString('cursor', {
      description: 'Opaque position in your stream, valid for your partner and environment only: pass it as `after` to resume after this event.',
    }),
    type: t.field({ type: EventTypeEnum, description: 'What the event announces (REST and webhooks: event_type)', resolve: (e) => e.type as EventType }),
    entityType: t.field({
      type: EventEntityTypeEnum,
      description: 'The kind of object the event is about (REST and webhooks: entity_type)',
      resolve: (e) => e.entityType as EventEntityType,
    }),
    entityId: t.expose('entityId', { type: 'UUID', description: 'The databaseId of the object the event is about' }),
    subject: t.field({
      type: EventSubjectUnion,
      nullable: true,
      description: 'The object the event is about, as it was at the event (the same types and fragments as queries); null when it is no longer readable',
      resolve: (e, _, ctx) => subjectOf(e, ctx),
    }),
    occurredAt: t.expose('createdAt', { type: 'DateTime', description: 'When the change the event announces was committed' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the event was committed', deprecationReason: 'Use occurredAt (the same instant)' }),
    // Kept for clients of the earlier schema only: webhooks send this body from the event row, not through GraphQL.
    payload: t.field({
      type: 'JSON',
      description: 'The object as REST and webhooks show it at the event (snake_case; the body of the Align-compatible webhook).',
      deprecationReason: 'Use `subject`: the same object, typed, as it was at the event',
      resolve: (e) => e.payload,
    }),
  }),
});

/**
 * Events in commit order. No totalCount: the outbox only grows, so counting a partner's events is a
 * scan of all of them on every request; the stream is read by cursor, not by size.
 */
export const EventConnection = builder.connectionObject(
  { type: EventRef, name: 'EventConnection', description: 'A page of events in commit order, with cursors to page on', ...edgesCountedByPage },
  { name: 'EventEdge', description: 'One event in a page of EventConnection, with its cursor (the same as Event.cursor)' },
);

const EVENT_PAGE_SIZE = 50;

builder.queryFields((t) => ({
  events: t.connection(
    {
      keyScope: 'read',
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

builder.subscriptionType({
  description: 'Live streams over graphql-ws (the API key in connectionParams.authorization); each resumes from a cursor without losing events',
  authScopes: { partner: true },
});

builder.subscriptionFields((t) => ({
  events: t.field({
    keyScope: 'read',
    type: EventRef,
    description:
      "The caller's events: first every event after `after` (a cursor from an earlier event), then live ones as they commit. " +
      'Without `after` it starts with the next event; `after: "0"` replays every event. Reconnect with the last cursor you received to miss nothing.',
    args: {
      after: t.arg.string({
        description: 'Replay every event after this cursor (Event.cursor) first; "0" replays from the start, none starts with the next event',
      }),
      types: t.arg({ type: [EventTypeEnum], description: 'Only these event types' }),
    },
    subscribe: (_, args, ctx) => ctx.services.events.stream(scopeOf(ctx), args, ctx.connection),
    // Each event runs with a context of its own (graphql/shared-subscriptions.ts), so relations are read afresh.
    resolve: (event: PartnerEvent) => event,
  }),
}));
