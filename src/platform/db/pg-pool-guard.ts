import type pg from 'pg';
import { POOL_SATURATED } from './database-errors.js';
import type { PoolWaits } from '../runtime/saturation.js';

/**
 * Gives a pooled PostgreSQL connection back to the pool the moment it dies while checked out.
 *
 * Kysely (under MikroORM) releases a transaction's connection only after its `commit` or
 * `rollback` statement succeeded, and neither can succeed on a connection the server closed
 * (a restart, `pg_terminate_backend`). Such a connection was never released: pg-pool kept
 * counting it as in use, and once `max` of them had leaked every request waited for a free
 * connection forever. Released with its error, pg-pool discards it and opens a
 * new one for the next caller; the holder's own later release becomes a no-op.
 */
export function releaseConnectionsThatDie(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (callback?: unknown) => Promise<pg.PoolClient> | undefined;
  pool.connect = ((callback?: unknown) => {
    if (typeof callback === 'function') return connect(callback); // callback style: not used by Kysely
    return (connect() as Promise<pg.PoolClient>).then((client) => guard(client));
  }) as typeof pool.connect;
}

function guard(client: pg.PoolClient): pg.PoolClient {
  const release = client.release;
  let released = false;
  const releaseOnce = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    client.off('error', onError);
    client.off('end', onEnd);
    release(error);
  };
  const onError = (error: Error) => releaseOnce(error);
  const onEnd = () => releaseOnce(new Error('Connection ended while checked out of the pool'));
  client.on('error', onError);
  client.on('end', onEnd);
  client.release = releaseOnce;
  return client;
}

/** pg-pool's words when a caller waited `connectionTimeoutMillis` for a busy pool's connection. */
const ACQUIRE_TIMEOUT = 'timeout exceeded when trying to connect';

/**
 * Tells a saturated pool from an unreachable database. pg-pool gives the same error when every
 * connection is busy (a burst) and when every connection hangs on a database that has gone: waiting
 * for a connection timed out. The difference is whether connections still come back healthy: when
 * one was returned without error within the last `windowMs` (the acquire timeout: while the caller
 * waited), the database answers and the pool is merely full, so the wait is reported as saturation
 * (503 `overloaded`), never as an outage.
 */
export function tellSaturationFromOutage(pool: pg.Pool, windowMs: number): void {
  let lastHealthyRelease = Number.NEGATIVE_INFINITY;
  pool.on('release', (error?: Error) => {
    if (!error) lastHealthyRelease = Date.now();
  });
  const connect = pool.connect.bind(pool) as (callback?: unknown) => Promise<pg.PoolClient> | undefined;
  pool.connect = ((callback?: unknown) => {
    if (typeof callback === 'function') return connect(callback);
    return (connect() as Promise<pg.PoolClient>).catch((error: unknown) => {
      const saturated = error instanceof Error && error.message === ACQUIRE_TIMEOUT && Date.now() - lastHealthyRelease <= windowMs;
      throw saturated ? new Error(`${POOL_SATURATED}: every connection stayed busy for ${windowMs} ms`, { cause: error }) : error;
    });
  }) as typeof pool.connect;
}

/** Records how long each caller waited for a connection (admission control's database saturation signal). */
export function measureConnectionWaits(pool: pg.Pool, waits: PoolWaits): void {
  const connect = pool.connect.bind(pool) as (callback?: unknown) => Promise<pg.PoolClient> | undefined;
  pool.connect = ((callback?: unknown) => {
    if (typeof callback === 'function') return connect(callback);
    const asked = performance.now();
    return (connect() as Promise<pg.PoolClient>).finally(() => waits.record(performance.now() - asked));
  }) as typeof pool.connect;
}
