import { isDatabaseUnavailable } from '../../platform/db/database-errors.js';
import { Wakeup } from '../../platform/messaging/notifier.js';
import type { EventFanout, Interest, RoutedRow } from './fanout.js';

const OUTAGE_RETRY_MS = 1000;

/** How long a subscriber may take no event while more than its buffer waits for it before it counts as a slow consumer. */
export const SLOW_CONSUMER_STALL_MS = 5000;

/**
 * The graphql-ws close of a slow consumer: a private-use code
 * (4000–4999) that graphql-ws clients retry, so a client that resumes after its last cursor
 * (docs/api/webhooks.md, "Subscriptions (graphql-ws)") gets everything it had not processed yet.
 */
export const SLOW_CONSUMER = { code: 4008, reason: 'Slow consumer: too many undelivered events; reconnect and resume after your last cursor' };

export class SlowConsumerError extends Error {
  constructor() {
    super(SLOW_CONSUMER.reason);
  }
}

export interface StreamOptions<R extends RoutedRow, T> {
  fanout: EventFanout<R>;
  /** The tenant (and types, entity) of this subscriber. */
  interest: Interest;
  /** Stream the events after this outbox position. */
  after: string;
  /** The subscriber's own catch-up read: up to `pageSize` of its events after a position, in cursor order. */
  readPage: (after: string) => Promise<R[]>;
  /** What the subscriber receives for an event (the stream itself goes on by the event's own cursor). */
  present: (row: R) => T;
  pageSize: number;
  /** Live events it may fall behind by before it goes back to reading the outbox itself. */
  bufferSize: number;
  /** Taking no event for this long while its buffer overflows disconnects it (SLOW_CONSUMER_STALL_MS). */
  stallMs?: number;
  /** Ends the subscriber's connection (graphql-ws: close the socket with SLOW_CONSUMER). */
  disconnect?: (code: number, reason: string) => void;
}

/**
 * Replays everything after the cursor by its own paged reads, then follows the instance's shared
 * fan-out. It joins the fan-out before its first read, so every event after the fan-out's position
 * at that moment arrives in its buffer, and the reads cover everything up to it: the two overlap,
 * and cursor order decides (an event at or before the last one handed out is skipped), so nothing
 * is missed or repeated. A buffer that overflows is dropped and the subscriber replays from its last
 * event by its own reads again (a burst larger than the buffer costs a few reads, not memory). One
 * whose buffer overflows when it has taken no event for `stallMs` while events waited for it is a
 * slow consumer: disconnected, its buffer released.
 * `return()` (the client unsubscribed or left) ends it at once, even while it waits.
 */
export function streamEvents<R extends RoutedRow, T>(options: StreamOptions<R, T>): AsyncIterableIterator<T> {
  const wakeup = new Wakeup();
  let buffer: R[] = [];
  let live = false;
  let stopped = false;
  let overflowed = false;
  // Counts the buffers dropped: a replay read only ends the replay if none was dropped during it.
  let dropped = 0;
  const stallMs = options.stallMs ?? SLOW_CONSUMER_STALL_MS;
  // Since when events have waited for the client without it taking one (reset by each event it takes).
  let waitingSince = Date.now();
  const handOut = (row: R) => {
    waitingSince = Date.now();
    return options.present(row);
  };
  let leave = () => {};

  const stop = () => {
    stopped = true;
    buffer = [];
    leave();
    wakeup.notify();
  };

  function receive(row: R) {
    if (stopped) return;
    if (live && buffer.length === 0) waitingSince = Date.now();
    buffer.push(row);
    if (buffer.length > options.bufferSize) {
      if (Date.now() - waitingSince >= stallMs) {
        overflowed = true;
        stop();
        options.disconnect?.(SLOW_CONSUMER.code, SLOW_CONSUMER.reason);
        return;
      }
      buffer = [];
      dropped++;
      live = false;
    }
    wakeup.notify();
  }

  async function* replay(from: string): AsyncGenerator<R> {
    let after = from;
    for (;;) {
      const droppedBefore = dropped;
      let page: R[];
      try {
        page = await options.readPage(after);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        // A database outage keeps the subscription: read again shortly, from the same cursor.
        await wakeup.waitAtMost(OUTAGE_RETRY_MS);
        if (stopped) return;
        continue;
      }
      for (const row of page) {
        after = row.cursor;
        yield row;
      }
      if (page.length < options.pageSize && dropped === droppedBefore) return;
    }
  }

  async function* follow(): AsyncGenerator<T> {
    const membership = await options.fanout.join({ interest: options.interest, receive });
    leave = membership.leave;
    if (stopped) return leave();
    let after = BigInt(options.after);
    live = after >= BigInt(membership.from);
    try {
      while (!stopped) {
        if (!live) {
          for await (const row of replay(after.toString())) {
            if (stopped) return;
            after = BigInt(row.cursor);
            yield handOut(row);
          }
          live = !stopped;
          continue;
        }
        const row = buffer.shift();
        if (!row) {
          await wakeup.wait();
          continue;
        }
        if (BigInt(row.cursor) <= after) continue;
        after = BigInt(row.cursor);
        yield handOut(row);
      }
      if (overflowed) throw new SlowConsumerError();
    } finally {
      leave();
    }
  }

  const items = follow();
  return {
    next: () => items.next(),
    return(value?: unknown) {
      stop();
      return items.return(value as never);
    },
    throw(error?: unknown) {
      stop();
      return items.throw(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
