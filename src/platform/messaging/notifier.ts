import type { PgliteConnection } from '@mikro-orm/pglite';
import pg from 'pg';
import type { Config } from '../../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../observability/logging.js';
import { EVENTS_CHANNEL, outboxHead } from './outbox.js';
import { KEY_REVOKED_CHANNEL } from '../security/auth.js';

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

/** API keys revoked by any instance or the keys CLI, for the verified keys an instance keeps (platform/security/auth.ts). */
export interface KeyRevocations {
  /**
   * `revoked` gets the id of each revoked key; `missed` is called when revocations may have gone
   * unheard (the notification connection dropped, and again once it is back): forget every key then.
   */
  onKeyRevoked(revoked: (apiKeyId: string) => void, missed: () => void): () => void;
}

type NotifierOptions = Pick<Config, 'DATABASE_URL' | 'EVENTS_CATCHUP_INTERVAL_MS'>;

export async function startNotifier(db: Database, config: NotifierOptions, logger: Logger): Promise<Notifier & KeyRevocations> {
  const listeners = new Set<(cursor: string) => void>();
  const revocationListeners = new Set<{ revoked: (apiKeyId: string) => void; missed: () => void }>();
  const tell = (call: (listener: { revoked: (apiKeyId: string) => void; missed: () => void }) => void) => {
    for (const listener of revocationListeners) {
      try {
        call(listener);
      } catch (error) {
        logger.error({ err: error }, 'key revocation listener failed');
      }
    }
  };
  const channels: Channels = {
    [EVENTS_CHANNEL]: announce,
    [KEY_REVOKED_CHANNEL]: (apiKeyId) => tell((listener) => listener.revoked(apiKeyId)),
  };
  const missed = () => tell((listener) => listener.missed());
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
    announce(await outboxHead(db.fork()));
  }

  await catchUp();
  const stopListening = config.DATABASE_URL
    ? await listenOnPostgres(config.DATABASE_URL, channels, missed, logger, () => closed)
    : await listenOnPglite(db, channels);

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
    onKeyRevoked(revoked, missed) {
      const listener = { revoked, missed };
      revocationListeners.add(listener);
      return () => revocationListeners.delete(listener);
    },
    async close() {
      closed = true;
      clearInterval(timer);
      listeners.clear();
      revocationListeners.clear();
      await stopListening();
    },
  };
}

/** What each channel's notification payload goes to. */
type Channels = Record<string, (payload: string) => void>;

/**
 * A dedicated connection (LISTEN cannot share a pooled one), reconnected after a failure. `missed`
 * is called when it drops and when it is back: notifications sent in between are lost.
 */
async function listenOnPostgres(url: string, channels: Channels, missed: () => void, logger: Logger, isClosed: () => boolean) {
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  let retried = false;

  async function connect() {
    const next = new pg.Client({ connectionString: url, application_name: 'ramp-notifier', connectionTimeoutMillis: 5000, keepAlive: true });
    next.on('notification', (message) => message.payload && channels[message.channel]?.(message.payload));
    next.on('error', (error) => {
      logger.warn({ err: error }, 'event notification connection lost; reconnecting (the catch-up read covers the gap)');
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      missed();
      scheduleReconnect();
    });
    await next.connect();
    for (const channel of Object.keys(channels)) await next.query(`LISTEN ${channel}`);
    if (isClosed()) return void (await next.end());
    const reconnected = retried;
    client = next;
    if (reconnected) missed();
  }

  function scheduleReconnect() {
    if (isClosed() || retry) return;
    retried = true;
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
async function listenOnPglite(db: Database, channels: Channels) {
  const connection = db.orm.driver.getConnection() as unknown as PgliteConnection;
  const pglite = await connection.getNativeClient();
  const unlistens: (() => Promise<void>)[] = [];
  for (const [channel, handler] of Object.entries(channels)) unlistens.push(await pglite.listen(channel, handler));
  return async () => {
    if (!pglite.closed) for (const unlisten of unlistens) await unlisten().catch(() => undefined);
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
