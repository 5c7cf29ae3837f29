import type { ApiKeyStore } from '../../platform/security/auth.js';
import type { Database } from '../../platform/db/database.js';
import type { Logger } from '../../platform/observability/logging.js';

/** How often an instance asks whether the keys of its open connections still stand. */
export const KEY_WATCH_INTERVAL_MS = 1000;

/**
 * A graphql-ws connection authenticates once, at its start, and may stay open for days; revoking
 * its key must still end it, on whichever instance holds it. So each instance asks the database,
 * once a second and only while it holds connections, which of their keys are still unrevoked: one
 * indexed read for all of them, not one per connection. The database is the truth, so a revocation
 * made anywhere (the keys CLI, another instance) is seen within a second, with no message to lose.
 */
export interface KeyWatch {
  /** Calls `revoked` once, when the key is found revoked; the returned function stops watching. */
  watch(apiKeyId: string, revoked: () => void): () => void;
  stop(): void;
}

export interface KeyWatchDeps {
  db: Database;
  keys: Pick<ApiKeyStore, 'activeAmong'>;
  logger: Logger;
  intervalMs?: number;
}

export function startKeyWatch({ db, keys, logger, intervalMs = KEY_WATCH_INTERVAL_MS }: KeyWatchDeps): KeyWatch {
  const watchers = new Map<string, Set<() => void>>();
  let checking = false;

  async function check() {
    if (checking || watchers.size === 0) return;
    checking = true;
    try {
      const ids = [...watchers.keys()];
      const active = await keys.activeAmong(db.fork(), ids);
      for (const id of ids.filter((id) => !active.has(id))) {
        const revoked = watchers.get(id) ?? new Set();
        watchers.delete(id);
        for (const callback of revoked) {
          try {
            callback();
          } catch (error) {
            logger.error({ err: error }, 'closing a connection of a revoked API key failed');
          }
        }
      }
    } catch (error) {
      // An outage: the connections stay (they cannot read anything either) and the next tick asks again.
      logger.warn({ err: error }, 'could not check the API keys of open connections');
    } finally {
      checking = false;
    }
  }

  const timer = setInterval(() => void check(), intervalMs);
  timer.unref();

  return {
    watch(apiKeyId, revoked) {
      const callbacks = watchers.get(apiKeyId) ?? new Set();
      callbacks.add(revoked);
      watchers.set(apiKeyId, callbacks);
      return () => {
        callbacks.delete(revoked);
        if (callbacks.size === 0 && watchers.get(apiKeyId) === callbacks) watchers.delete(apiKeyId);
      };
    },
    stop() {
      clearInterval(timer);
      watchers.clear();
    },
  };
}
