import type { EntityManager } from '@mikro-orm/sql';

/**
 * Every PostgreSQL advisory lock Ramp takes, in one place, so two can never share an id by
 * accident. The ids are arbitrary: they only have to be the same in every instance of Ramp.
 */
export const ADVISORY_LOCKS = {
  /** The outbox's commit order (platform/messaging/outbox.ts): every event writer, and whatever changes who receives events. */
  outbox: 7_314_001,
  /** Migrations at start (platform/db/database.ts), session-scoped: one instance migrates at a time. */
  migrations: 7_314_002,
  /** The demo partner's creation on an empty database (partners/service.ts): only the first instance creates it. */
  demoBootstrap: 7_314_003,
} as const;

/**
 * The webhook endpoints of one partner and environment while one is registered, so concurrent
 * registrations cannot overrun the per-partner limit. Keyed by text (one lock per tenant), hashed
 * by PostgreSQL into the same id space as the ids above.
 */
export const webhookEndpointsLock = (partnerId: string, environment: string) => `webhook-endpoints:${partnerId}:${environment}`;

/** Takes an advisory lock (an id above, or a text key) until the caller's transaction ends. */
export async function lockUntilCommit(em: EntityManager, lock: number | string): Promise<void> {
  if (typeof lock === 'number') await em.execute('select pg_advisory_xact_lock(?)', [lock]);
  else await em.execute('select pg_advisory_xact_lock(hashtext(?))', [lock]);
}
