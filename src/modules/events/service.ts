import { NotFoundError, ValidationError, fieldError } from '../../domain/errors.js';
import type { EventType } from '../../domain/events.js';
import { parseInput } from '../../domain/validation.js';
import type { Notifier } from '../../platform/notifier.js';
import { OutboxEvent } from '../../platform/outbox.js';
import type { KeysetPage } from '../../platform/pagination.js';
import { type Scope, isUuid, tenantOf } from '../../platform/scope.js';
import { EventCursor, EventListRequest, StreamEventsInput } from './inputs.js';
import { streamEvents } from './stream.js';

/** The events that announce a transfer's creation and each of its status changes. */
export const TRANSFER_EVENT_TYPES: EventType[] = [
  'onramp_transfer.created',
  'onramp_transfer.status.updated',
  'offramp_transfer.created',
  'offramp_transfer.status.updated',
];

const STREAM_PAGE = 100;

interface EventFilter {
  after: string;
  before?: string;
  types?: readonly string[];
  entityId?: string;
}

const checkCursor = (value: string | null | undefined, pointer: string) => {
  if (value == null) return undefined;
  if (!EventCursor.safeParse(value).success) throw new ValidationError([fieldError(pointer, 'invalid_cursor', 'is not a cursor this API returned')]);
  return value;
};

export interface EventServiceOptions {
  notifier: Notifier;
}

/** A page of the events API: `nextCursor` resumes after its last event (or where it was asked to start). */
export interface EventPage {
  items: OutboxEvent[];
  hasMore: boolean;
  nextCursor: string;
}

/** The partner's view of the outbox: the events API and the subscriptions, always inside its tenant. */
export interface EventService {
  /** GET /v0/events: a page of events after a cursor, oldest first, to reconcile after downtime. */
  list(scope: Scope, request: EventListRequest): Promise<EventPage>;
  /** One page of a GraphQL connection over the outbox (cursor order, or reversed for `last`). */
  page(scope: Scope, types: readonly string[] | undefined, page: KeysetPage): Promise<OutboxEvent[]>;
  /** Subscription `events`: replays what came after `after` (or starts at the newest event), then streams live. */
  stream(scope: Scope, input: { after?: string | null; types?: readonly string[] | null }): Promise<AsyncIterableIterator<OutboxEvent>>;
  /** Subscription `transferUpdated`: the events of one of the caller's transfers; 404 for anyone else's. */
  transferUpdates(scope: Scope, transferId: string, after?: string | null): Promise<AsyncIterableIterator<OutboxEvent>>;
}

export function eventService(options: EventServiceOptions): EventService {
  /** A fresh EntityManager per read: a long-lived subscription must not grow one identity map for ever. */
  async function read({ em, actor }: Scope, filter: EventFilter, limit: number, descending = false): Promise<OutboxEvent[]> {
    const cursor = { $gt: filter.after, ...(filter.before && { $lt: filter.before }) };
    return em.fork().find(
      OutboxEvent,
      {
        ...tenantOf(actor),
        cursor,
        ...(filter.types?.length && { type: { $in: [...filter.types] } }),
        ...(filter.entityId && { entityId: filter.entityId }),
      },
      { orderBy: { cursor: descending ? 'desc' : 'asc' }, limit },
    );
  }

  /** The newest committed cursor: a stream that starts here sees only what comes next. */
  async function head({ em }: Scope): Promise<string> {
    const [row] = await em.fork().execute<{ cursor: string }[]>('select coalesce(max(cursor), 0)::text as cursor from events');
    return row?.cursor ?? '0';
  }

  /**
   * A cursor past the newest event was never handed out (another deployment's, or from before a
   * reset): following it would silently skip every event until the stream caught up with it.
   */
  async function issued(scope: Scope, cursor: string | undefined, pointer: string): Promise<string | undefined> {
    if (cursor !== undefined && BigInt(cursor) > BigInt(await head(scope))) {
      throw new ValidationError([fieldError(pointer, 'invalid_cursor', 'is past the newest event: not a cursor this deployment returned')]);
    }
    return cursor;
  }

  function follow(scope: Scope, filter: Omit<EventFilter, 'after'>, after: string) {
    return streamEvents({ after, pageSize: STREAM_PAGE, notifier: options.notifier, readPage: (from) => read(scope, { ...filter, after: from }, STREAM_PAGE) });
  }

  return {
    async list(scope: Scope, request: EventListRequest): Promise<EventPage> {
      const query = parseInput(EventListRequest, request);
      const after = (await issued(scope, query.after, '/after')) ?? '0';
      const found = await read(scope, { after, types: query.types }, query.limit + 1);
      const items = found.slice(0, query.limit);
      return { items, hasMore: found.length > query.limit, nextCursor: items.at(-1)?.cursor ?? query.after ?? '0' };
    },

    async page(scope: Scope, types: readonly string[] | undefined, page: KeysetPage): Promise<OutboxEvent[]> {
      const checkedTypes = types ? parseInput(StreamEventsInput, { types }).types : undefined;
      const filter = { after: checkCursor(page.after, '/after') ?? '0', before: checkCursor(page.before, '/before'), types: checkedTypes };
      return read(scope, filter, page.limit, page.inverted);
    },

    async stream(scope: Scope, input: { after?: string | null; types?: readonly string[] | null }) {
      const query = parseInput(StreamEventsInput, { after: input.after ?? undefined, types: input.types ?? undefined });
      return follow(scope, { types: query.types }, (await issued(scope, query.after, '/after')) ?? (await head(scope)));
    },

    async transferUpdates(scope: Scope, transferId: string, after?: string | null) {
      const from = await issued(scope, checkCursor(after, '/after'), '/after');
      const known = isUuid(transferId)
        ? await scope.em.fork().count(OutboxEvent, { ...tenantOf(scope.actor), entityId: transferId, type: { $in: TRANSFER_EVENT_TYPES } })
        : 0;
      if (!known) throw new NotFoundError('Transfer');
      return follow(scope, { types: TRANSFER_EVENT_TYPES, entityId: transferId }, from ?? (await head(scope)));
    },
  };
}
