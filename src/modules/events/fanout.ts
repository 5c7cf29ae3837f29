import { isDatabaseUnavailable } from '../../platform/db/database-errors.js';
import type { Database } from '../../platform/db/database.js';
import type { Logger } from '../../platform/observability/logging.js';
import { type Notifier, Wakeup } from '../../platform/messaging/notifier.js';
import { OutboxEvent, outboxHead } from '../../platform/messaging/outbox.js';

const OUTAGE_RETRY_MS = 1000;

/** What one subscriber wants: always one tenant's events, maybe only some types or one entity. */
export interface Interest {
  partnerId: string;
  environment: string;
  types?: readonly string[];
  entityId?: string;
}

/** The fields of an outbox row the fan-out routes by. */
export interface RoutedRow {
  cursor: string;
  partnerId: string;
  environment: string;
  type: string;
  entityId: string;
}

export interface FanoutMember<R extends RoutedRow> {
  interest: Interest;
  /** Each new row it is interested in, in cursor order; must not block or throw. */
  receive(row: R): void;
}

export interface Membership {
  /** The fan-out's position when the member joined: it receives every matching row after it. */
  from: string;
  leave(): void;
}

/**
 * This instance's one reader of the outbox for every subscription. On each wake-up it reads the
 * rows committed since its position, once, and hands each to the subscribers of that row's
 * partner and environment whose types and entity match. So the SQL per committed event is the
 * same with 10 or 10,000 subscribers; a subscriber costs an index entry and its buffer.
 */
export interface EventFanout<R extends RoutedRow = OutboxEvent> {
  join(member: FanoutMember<R>): Promise<Membership>;
  /** Subscribers following now (or joining). */
  readonly size: number;
  close(): void;
}

export interface OutboxReader<R extends RoutedRow> {
  /** Up to `limit` rows of every tenant after a position, in cursor order. */
  readAfter(after: string, limit: number): Promise<R[]>;
  /** The newest committed position. */
  head(): Promise<string>;
}

export interface FanoutOptions<R extends RoutedRow> {
  notifier: Notifier;
  outbox: OutboxReader<R>;
  pageSize: number;
  logger?: Pick<Logger, 'error'>;
}

const tenantKey = (partnerId: string, environment: string) => `${partnerId}/${environment}`;

const matches = (interest: Interest, row: RoutedRow) =>
  (!interest.types?.length || interest.types.includes(row.type)) && (!interest.entityId || interest.entityId === row.entityId);

export function createEventFanout<R extends RoutedRow>(options: FanoutOptions<R>): EventFanout<R> {
  const byTenant = new Map<string, Set<FanoutMember<R>>>();
  const wakeup = new Wakeup();
  let members = 0;
  let closed = false;
  // Null while nobody follows: then nothing is read, and the next member starts it at the head.
  let position: string | null = null;
  let starting: Promise<void> | null = null;
  const unlisten = options.notifier.onEvent(() => wakeup.notify());

  function dispatch(row: R) {
    const tenant = byTenant.get(tenantKey(row.partnerId, row.environment));
    if (!tenant) return;
    for (const member of tenant) {
      if (!matches(member.interest, row)) continue;
      try {
        member.receive(row);
      } catch (error) {
        options.logger?.error({ err: error }, 'event subscriber failed to take an event');
      }
    }
  }

  async function readNew() {
    while (!closed && position !== null) {
      if (members === 0) {
        position = null;
        return;
      }
      let rows: R[];
      try {
        rows = await options.outbox.readAfter(position, options.pageSize);
      } catch (error) {
        // An outage delays every subscriber alike and loses nothing: read again from the same position.
        if (!isDatabaseUnavailable(error)) options.logger?.error({ err: error }, 'reading new events for subscribers failed');
        await wakeup.waitAtMost(OUTAGE_RETRY_MS);
        continue;
      }
      for (const row of rows) {
        position = row.cursor;
        dispatch(row);
      }
      if (rows.length < options.pageSize) return;
    }
  }

  void (async () => {
    while (!closed) {
      await wakeup.wait();
      await readNew();
    }
  })();

  /** Starts following at the newest committed event, and reads once (a NOTIFY may have come just before). */
  function start(): Promise<void> {
    starting ??= options.outbox.head().then(
      (head) => {
        starting = null;
        position ??= head;
        wakeup.notify();
      },
      (error) => {
        starting = null;
        throw error;
      },
    );
    return starting;
  }

  return {
    async join(member) {
      // Counted from now, so the reader does not stop (and forget its position) while this one starts it.
      members++;
      try {
        while (position === null) await start();
      } catch (error) {
        members--;
        throw error;
      }
      // Synchronous from here: no row can be dispatched between reading the position and joining.
      const from: string = position;
      const key = tenantKey(member.interest.partnerId, member.interest.environment);
      const tenant = byTenant.get(key) ?? new Set();
      byTenant.set(key, tenant.add(member));
      let left = false;
      return {
        from,
        leave() {
          if (left) return;
          left = true;
          members--;
          tenant.delete(member);
          if (tenant.size === 0 && byTenant.get(key) === tenant) byTenant.delete(key);
        },
      };
    },
    get size() {
      return members;
    },
    close() {
      closed = true;
      unlisten();
      byTenant.clear();
      members = 0;
      wakeup.notify();
    },
  };
}

/** The outbox of a Ramp database, read across tenants on purpose (the fan-out routes each row to its own). */
export function outboxReader(db: Database): OutboxReader<OutboxEvent> {
  return {
    // No identity map: the rows are handed to many subscribers and must not keep a fork alive.
    readAfter: (after, limit) => db.fork().find(OutboxEvent, { cursor: { $gt: after } }, { orderBy: { cursor: 'asc' }, limit, disableIdentityMap: true }),
    head: () => outboxHead(db.fork()),
  };
}
