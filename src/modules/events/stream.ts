import { isDatabaseUnavailable } from '../../platform/database-errors.js';
import { type Notifier, Wakeup } from '../../platform/notifier.js';

const OUTAGE_RETRY_MS = 1000;

export interface StreamOptions<R extends { cursor: string }, T> {
  /** Stream the events after this cursor. */
  after: string;
  /** Reads up to `pageSize` events after a cursor, in cursor order (a fresh EntityManager each time). */
  readPage: (after: string) => Promise<R[]>;
  /** What the subscriber receives for an event read (the stream itself goes on by the event's own cursor). */
  present: (row: R) => T;
  pageSize: number;
  notifier: Notifier;
}

/**
 * Replays everything after the cursor, then follows new events: reads the outbox in cursor order
 * after the last item handed out, and sleeps until the notifier says something was committed.
 * Because it always reads from the outbox, a notification that arrives late, twice or never
 * (the catch-up poll then wakes it) changes only when an item comes, never which items come.
 * `return()` (the client unsubscribed or left) ends it at once, even while it sleeps.
 */
export function streamEvents<R extends { cursor: string }, T>(options: StreamOptions<R, T>): AsyncIterableIterator<T> {
  const wakeup = new Wakeup();
  let stopped = false;
  // Listening before the first read, so nothing committed in between is slept through.
  const unsubscribe = options.notifier.onEvent(() => wakeup.notify());
  const stop = () => {
    stopped = true;
    unsubscribe();
    wakeup.notify();
  };

  async function* follow(): AsyncGenerator<T> {
    let after = options.after;
    try {
      while (!stopped) {
        let page: R[];
        try {
          page = await options.readPage(after);
        } catch (error) {
          if (!isDatabaseUnavailable(error)) throw error;
          // A database outage keeps the subscription: read again shortly, from the same cursor.
          await wakeup.waitAtMost(OUTAGE_RETRY_MS);
          continue;
        }
        for (const item of page) {
          if (stopped) return;
          after = item.cursor;
          yield options.present(item);
        }
        if (page.length < options.pageSize && !stopped) await wakeup.wait();
      }
    } finally {
      unsubscribe();
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
