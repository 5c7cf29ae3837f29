import type { PgliteConnection } from '@mikro-orm/pglite';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Database } from './db.js';
import type { Logger } from './logging.js';
import { EVENTS_CHANNEL } from './outbox.js';

/**
 * Wakes whatever waits for new outbox events (subscriptions, the webhook dispatcher) on every
 * instance. PostgreSQL: LISTEN on a dedicated connection, woken by the NOTIFY that recordEvent
 * sends at commit; embedded PGlite: the same LISTEN in-process. The notification carries only the
 * cursor; the outbox is the truth, and a periodic catch-up read of the newest cursor covers a
 * missed notification (a dropped connection, a restart), which then delays an event but never loses it.
 */
export interface Notifier {
  /** Calls `listener` with the newest cursor whenever events were committed, by any instance. */
  onEvent(listener: (cursor: string) => void): () => void;
  close(): Promise<void>;
}

type NotifierOptions = Pick<Config, 'DATABASE_URL' | 'EVENTS_CATCHUP_INTERVAL_MS'>;

export async function startNotifier(db: Database, config: NotifierOptions, logger: Logger): Promise<Notifier> {
  const listeners = new Set<(cursor: string) => void>();
  let newest = 0n;
  let closed = false;

  function announce(cursor: string) {
    if (!/^\d+$/.test(cursor) || BigInt(cursor) <= newest) return;
    newest = BigInt(cursor);
    for (const listener of listeners) {
      try {
        listener(cursor);
      } catch (error) {
        logger.error({ err: error }, 'event listener failed');
      }
    }
  }

  async function catchUp() {
    const [row] = await db.fork().execute<{ cursor: string }[]>('select coalesce(max(cursor), 0)::text as cursor from events');
    announce(row?.cursor ?? '0');
  }

  await catchUp();
  const stopListening = config.DATABASE_URL ? await listenOnPostgres(config.DATABASE_URL, announce, logger, () => closed) : await listenOnPglite(db, announce);

  let polling = false;
  const timer = setInterval(() => {
    if (polling || closed) return;
    polling = true;
    catchUp()
      .catch((error) => logger.warn({ err: error }, 'events catch-up read failed'))
      .finally(() => (polling = false));
  }, config.EVENTS_CATCHUP_INTERVAL_MS);
  timer.unref();

  return {
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      clearInterval(timer);
      listeners.clear();
      await stopListening();
    },
  };
}

/** A dedicated connection (LISTEN cannot share a pooled one), reconnected after a failure. */
async function listenOnPostgres(url: string, announce: (cursor: string) => void, logger: Logger, isClosed: () => boolean) {
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;

  async function connect() {
    const next = new pg.Client({ connectionString: url, application_name: 'ramp-notifier', connectionTimeoutMillis: 5000, keepAlive: true });
    next.on('notification', (message) => message.payload && announce(message.payload));
    next.on('error', (error) => {
      logger.warn({ err: error }, 'event notification connection lost; reconnecting (the catch-up read covers the gap)');
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      scheduleReconnect();
    });
    await next.connect();
    await next.query(`LISTEN ${EVENTS_CHANNEL}`);
    if (isClosed()) return void (await next.end());
    client = next;
  }

  function scheduleReconnect() {
    if (isClosed() || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch((error) => {
        logger.warn({ err: error }, 'event notification connection failed; retrying');
        scheduleReconnect();
      });
    }, 1000);
    retry.unref();
  }

  await connect();
  return async () => {
    clearTimeout(retry);
    const current = client;
    client = null;
    await current?.end().catch(() => undefined);
  };
}

/**
 * PGlite is one in-process session, so its LISTEN hears the NOTIFY of every commit. This runs
 * once at start, before the server takes requests, so it cannot land inside another transaction.
 */
async function listenOnPglite(db: Database, announce: (cursor: string) => void) {
  const connection = db.orm.driver.getConnection() as unknown as PgliteConnection;
  const pglite = await connection.getNativeClient();
  const unlisten = await pglite.listen(EVENTS_CHANNEL, announce);
  return async () => {
    if (!pglite.closed) await unlisten().catch(() => undefined);
  };
}

/** A one-slot wake-up: a notify that comes while nobody waits is kept for the next wait. */
export class Wakeup {
  #pending = false;
  #resolve: (() => void) | null = null;

  notify(): void {
    const resolve = this.#resolve;
    this.#resolve = null;
    if (resolve) resolve();
    else this.#pending = true;
  }

  wait(): Promise<void> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => (this.#resolve = resolve));
  }

  /** Like wait, but gives up after `ms` (for loops that must also look for work on a timer). */
  waitAtMost(ms: number): Promise<void> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        if (this.#resolve === wake) this.#resolve = null;
        resolve();
      }, ms);
      this.#resolve = wake;
    });
  }
}
