import { NotFoundError, ValidationError, fieldError } from '../../domain/errors.js';
import type { TraceHeaders } from '../../platform/observability/tracing.js';
import { type ErasedValues, blankCopies } from '../../platform/security/redaction.js';
import type { EventType } from '../../domain/events.js';
import { parseInput } from '../../domain/validation.js';
import { OutboxEvent, outboxHead } from '../../platform/messaging/outbox.js';
import type { CursorPage } from '../../platform/reads/pagination.js';
import { type Scope, tenantOf } from '../../platform/use-cases/scope.js';
import { isUuid } from '../../domain/identifiers/uuid.js';
import { type EventFilter, type EventRow, eventsOf } from './queries.js';
import { STREAM_START, eventCursors } from './cursors.js';
import { EventListRequest, StreamEventsInput } from './inputs.js';
import type { EventFanout } from './fanout.js';
import { streamEvents } from './stream.js';

/** The events that announce a transfer's creation, each of its status changes and its deposit's confirmations. */
export const TRANSFER_EVENT_TYPES: EventType[] = [
  'onramp_transfer.created',
  'onramp_transfer.status.updated',
  'offramp_transfer.created',
  'offramp_transfer.status.updated',
  'offramp_transfer.deposit.updated',
];

const STREAM_PAGE = 100;

const invalidCursor = (pointer: string, message: string) => new ValidationError([fieldError(pointer, 'invalid_cursor', message)]);

export interface EventServiceOptions {
  /** The instance's one reader of new events, shared by every subscription (fanout.ts). */
  fanout: EventFanout;
  /** Seals the cursors handed out to their partner and environment (cursors.ts). */
  cursorKey: Buffer;
  /** Live events a subscription may fall behind by before its connection is closed. */
  bufferSize: number;
}

/** The graphql-ws connection a subscription runs on, closed when the subscriber falls too far behind. */
export interface SubscriberConnection {
  close(code: number, reason: string): void;
}

/** An event as its partner sees it: the outbox row, with a cursor that only this partner and environment can use. */
export interface PartnerEvent {
  cursor: string;
  id: string;
  type: string;
  entityType: string;
  entityId: string;
  createdAt: Date;
  payload: Record<string, unknown>;
  /** The subject entity's columns at the event (GraphQL's typed subject); null for older events. */
  subject: Record<string, unknown> | null;
  /** The trace of the request that caused it: a subscription push continues it (never shown to the partner). */
  trace?: TraceHeaders | null;
}

/** A page of the events API: `nextCursor` resumes after its last event (or where it was asked to start). */
export interface EventPage {
  items: PartnerEvent[];
  hasMore: boolean;
  nextCursor: string;
}

/** The partner's view of the outbox: the events API and the subscriptions, always inside its tenant. */
export interface EventService {
  /** GET /v0/events: a page of events after a cursor, oldest first, to reconcile after downtime. */
  list(scope: Scope, request: EventListRequest): Promise<EventPage>;
  /** Batch load for GraphQL's Event nodes: only the caller's events come back. */
  loadMany(scope: Scope, ids: readonly string[]): Promise<PartnerEvent[]>;
  /** One page of a GraphQL connection over the outbox (cursor order, or reversed for `last`). */
  page(scope: Scope, types: readonly string[] | undefined, page: CursorPage): Promise<PartnerEvent[]>;
  /** Subscription `events`: replays what came after `after` (or starts at the newest event), then streams live. */
  stream(
    scope: Scope,
    input: { after?: string | null; types?: readonly string[] | null },
    connection?: SubscriberConnection,
  ): Promise<AsyncIterableIterator<PartnerEvent>>;
  /** Subscription `transferUpdated`: the events of one of the caller's transfers; 404 for anyone else's. */
  transferUpdates(scope: Scope, transferId: string, after?: string | null, connection?: SubscriberConnection): Promise<AsyncIterableIterator<PartnerEvent>>;
  /**
   * Erasure, in the caller's transaction: the customer's events (those naming it as their customer) are rewritten,
   * their payloads and kept subjects without its personal data; no other event is read.
   */
  blankErased(scope: Scope, customerId: string, erased: ErasedValues): Promise<number>;
}

export function createEventService(options: EventServiceOptions): EventService {
  const cursors = eventCursors(options.cursorKey);

  /**
   * Sealed once per event: the event itself names the tenant its cursor belongs to, so every
   * subscriber that receives one fanned-out row shares one presented event.
   */
  const presented = new WeakMap<EventRow, PartnerEvent>();
  const present = (event: EventRow): PartnerEvent => {
    let shown = presented.get(event);
    if (!shown) {
      shown = {
        cursor: cursors.seal(event, event.cursor),
        id: event.id,
        type: event.type,
        entityType: event.entityType,
        entityId: event.entityId,
        createdAt: event.createdAt,
        payload: event.payload,
        subject: event.subject ?? null,
        trace: event.traceparent ? { traceparent: event.traceparent, ...(event.tracestate && { tracestate: event.tracestate }) } : null,
      };
      presented.set(event, shown);
    }
    return shown;
  };

  /** The outbox position of a caller's cursor, opened once per request or subscription, never per event. */
  function positionOf({ actor }: Scope, cursor: string | null | undefined, pointer: string): string | undefined {
    if (cursor == null) return undefined;
    const position = cursor === STREAM_START ? '0' : cursors.open(actor, cursor);
    // Another partner's or environment's cursor is as unknown here as a forged one.
    if (position === null) throw invalidCursor(pointer, 'is not a cursor this API returned');
    return position;
  }

  /** The newest committed position: a stream that starts here sees only what comes next. */
  async function head({ em }: Scope): Promise<string> {
    return outboxHead(em.fork());
  }

  /**
   * A cursor past the newest event was never handed out here (another deployment's with the same key,
   * or from before a reset or a restore): following it would silently skip every event until the
   * stream caught up with it.
   */
  async function issued(scope: Scope, cursor: string | null | undefined, pointer: string): Promise<string | undefined> {
    const position = positionOf(scope, cursor, pointer);
    if (position !== undefined && BigInt(position) > BigInt(await head(scope))) {
      throw invalidCursor(pointer, 'is past the newest event: not a cursor this deployment returned');
    }
    return position;
  }

  function follow(scope: Scope, filter: Omit<EventFilter, 'after'>, after: string, connection?: SubscriberConnection) {
    const readPage = (from: string) => eventsOf(scope, { ...filter, after: from }, STREAM_PAGE);
    const interest = { ...tenantOf(scope.actor), types: filter.types, entityId: filter.entityId };
    const disconnect = connection && ((code: number, reason: string) => connection.close(code, reason));
    return streamEvents({ fanout: options.fanout, interest, after, readPage, present, pageSize: STREAM_PAGE, bufferSize: options.bufferSize, disconnect });
  }

  return {
    blankErased: ({ em, actor }, customerId, erased) =>
      blankCopies(
        em,
        {
          table: 'events',
          key: ['id'],
          columns: [
            { name: 'payload', type: 'jsonb' },
            { name: 'subject', type: 'jsonb' },
          ],
          where: 'customer_id = ? and partner_id = ? and environment = ?',
          params: [customerId, actor.partnerId, actor.environment],
        },
        erased,
      ),
    async list(scope: Scope, request: EventListRequest): Promise<EventPage> {
      const query = parseInput(EventListRequest, request);
      const after = (await issued(scope, query.after, '/after')) ?? '0';
      const found = await eventsOf(scope, { after, types: query.types }, query.limit + 1);
      const items = found.slice(0, query.limit).map(present);
      return { items, hasMore: found.length > query.limit, nextCursor: items.at(-1)?.cursor ?? query.after ?? STREAM_START };
    },

    async loadMany({ em, actor }, ids) {
      const known = ids.filter(isUuid);
      if (!known.length) return [];
      return (await em.fork().find(OutboxEvent, { ...tenantOf(actor), id: { $in: known } })).map(present);
    },

    async page(scope: Scope, types: readonly string[] | undefined, page: CursorPage): Promise<PartnerEvent[]> {
      const checkedTypes = types ? parseInput(StreamEventsInput, { types }).types : undefined;
      const filter = { after: positionOf(scope, page.after, '/after') ?? '0', before: positionOf(scope, page.before, '/before'), types: checkedTypes };
      return (await eventsOf(scope, filter, page.limit, page.inverted)).map(present);
    },

    async stream(scope: Scope, input: { after?: string | null; types?: readonly string[] | null }, connection?: SubscriberConnection) {
      const query = parseInput(StreamEventsInput, { after: input.after ?? undefined, types: input.types ?? undefined });
      return follow(scope, { types: query.types }, (await issued(scope, query.after, '/after')) ?? (await head(scope)), connection);
    },

    async transferUpdates(scope: Scope, transferId: string, after?: string | null, connection?: SubscriberConnection) {
      const from = await issued(scope, after, '/after');
      const known = isUuid(transferId)
        ? await scope.em.fork().count(OutboxEvent, { ...tenantOf(scope.actor), entityId: transferId, type: { $in: TRANSFER_EVENT_TYPES } })
        : 0;
      if (!known) throw new NotFoundError('Transfer');
      return follow(scope, { types: TRANSFER_EVENT_TYPES, entityId: transferId }, from ?? (await head(scope)), connection);
    },
  };
}
