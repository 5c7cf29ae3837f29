import { isDatabaseUnavailable } from '../../platform/database-errors.js';
import { Wakeup } from '../../platform/notifier.js';
import type { EventFanout, Interest, RoutedRow } from './fanout.js';

const OUTAGE_RETRY_MS = 1000;

/**
 * The graphql-ws close of a subscriber that fell `bufferSize` events behind: a private-use code
 * (4000–4999) that graphql-ws clients retry, so a client that resumes after its last cursor
 * (README "Webhooks and subscriptions") gets everything it had not processed yet.
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
  /** Live events it may fall behind by before it is disconnected. */
  bufferSize: number;
  /** Ends the subscriber's connection (graphql-ws: close the socket with SLOW_CONSUMER). */
  disconnect?: (code: number, reason: string) => void;
}

/**
 * Replays everything after the cursor by its own paged reads, then follows the instance's shared
 * fan-out. It joins the fan-out before its first read, so every event after the fan-out's position
 * at that moment arrives in its buffer, and the reads cover everything up to it: the two overlap,
 * and cursor order decides (an event at or before the last one handed out is skipped), so nothing
 * is missed or repeated. A buffer that overflows while it still replays is dropped and the replay
 * reads on; once live, an overflow disconnects the subscriber instead of holding more.
 * `return()` (the client unsubscribed or left) ends it at once, even while it waits.
 */
export function streamEvents<R extends RoutedRow, T>(options: StreamOptions<R, T>): AsyncIterableIterator<T> {
  const wakeup = new Wakeup();
  let buffer: R[] = [];
  let live = false;
  let stopped = false;
  let overflowed = false;
  // Counts the buffers dropped while replaying: a replay read only ends the replay if none was dropped during it.
  let dropped = 0;
  let leave = () => {};

  const stop = () => {
    stopped = true;
    buffer = [];
    leave();
    wakeup.notify();
  };

  function receive(row: R) {
    if (stopped) return;
    buffer.push(row);
    if (buffer.length > options.bufferSize) {
      if (!live) {
        buffer = [];
        dropped++;
      } else {
        overflowed = true;
        stop();
        options.disconnect?.(SLOW_CONSUMER.code, SLOW_CONSUMER.reason);
        return;
      }
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
    try {
      if (after < BigInt(membership.from)) {
        for await (const row of replay(options.after)) {
          if (stopped) return;
          after = BigInt(row.cursor);
          yield options.present(row);
        }
      }
      live = true;
      while (!stopped) {
        const row = buffer.shift();
        if (!row) {
          await wakeup.wait();
          continue;
        }
        if (BigInt(row.cursor) <= after) continue;
        after = BigInt(row.cursor);
        yield options.present(row);
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
