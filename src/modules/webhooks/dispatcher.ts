import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../../config.js';
import type { Database } from '../../platform/db/database.js';
import type { Logger } from '../../platform/observability/logging.js';
import { failureLevel } from '../../platform/db/database-errors.js';
import { type Notifier, Wakeup } from '../../platform/messaging/notifier.js';
import { type DeliveryClaim, recordOutcome, sendClaim, settleSucceeded } from './attempt.js';
import { type AttemptOutcome, createWebhookAgents, isSuccess } from './delivery.js';
import type { Metrics } from '../../platform/observability/metrics.js';
import type { RenderQueryBody } from './query-body.js';
import type { Tracing } from '../../platform/observability/tracing.js';

export type DispatcherConfig = Pick<
  Config,
  | 'webhookSecretKey'
  | 'encryptionMasterKey'
  | 'previousEncryptionMasterKey'
  | 'isProduction'
  | 'WEBHOOK_TIMEOUT_MS'
  | 'WEBHOOK_RETRY_TIME_SCALE'
  | 'WEBHOOK_CONCURRENCY'
  | 'WEBHOOK_POLL_INTERVAL_MS'
>;

export interface Dispatcher {
  /** host/pid/random: who made an attempt, as the attempt log records it. */
  readonly instance: string;
  start(): void;
  /** Look for work now (a redelivery was asked for). */
  wake(): void;
  /** Stops claiming; in-flight attempts are interrupted and handed back so another instance retries them at once. */
  stop(): Promise<void>;
}

const EVENT_BATCH = 200;
/** A claimed attempt belongs to its instance this long past the timeout; after that (the instance died) anyone may retry it. */
const LEASE_MARGIN_MS = 5_000;
/** Succeeded attempts settled together in one statement, at most. */
const SETTLE_BATCH = 500;
/** One endpoint holds at most this share of the attempt slots when claims are made, so a slow receiver cannot starve the others. */
const ENDPOINT_SHARE = 0.75;
/** The attempts one endpoint may have in flight: its share of the slots (and as many connections to it). */
const endpointShare = (concurrency: number) => Math.max(1, Math.floor(concurrency * ENDPOINT_SHARE));

/**
 * Turns outbox events into webhook deliveries and runs them, on every instance at once: all the
 * coordination is row locks with SKIP LOCKED and leases in PostgreSQL, so no event is dispatched
 * twice and no delivery attempted by two instances at the same time, whatever the number of instances.
 */
export function createDispatcher(deps: {
  db: Database;
  config: DispatcherConfig;
  notifier: Notifier;
  logger: Logger;
  metrics?: Metrics;
  /** The body of a delivery to an endpoint with a subscription query (query-body.ts, given the schema at wiring). */
  renderQuery: RenderQueryBody;
  /** Each attempt continues the trace of the request that caused its event. */
  tracing: Tracing;
}): Dispatcher {
  const { db, config, logger } = deps;
  const instance = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const agents = createWebhookAgents(endpointShare(config.WEBHOOK_CONCURRENCY));
  const wakeup = new Wakeup();
  const inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  const inFlightByEndpoint = new Map<string, number>();
  /** Attempts sending now: what WEBHOOK_CONCURRENCY bounds. */
  let sending = 0;
  /** Set by notifications of new events, and by each full pass. */
  let eventsWaiting = true;
  /** Set when there may be deliveries to claim: an attempt finished, a redelivery, a fan-out, a full pass. */
  let claimWanted = true;
  let running = false;
  let loop: Promise<void> | null = null;
  let unsubscribe = () => {};

  /**
   * One batch of undispatched events becomes one pending delivery per enabled endpoint of the same
   * partner and environment registered before the event (and, with a subscription query naming
   * `types`, of one of those types), in one statement: claim, fan out, mark.
   */
  async function dispatchEvents(): Promise<{ events: number; deliveries: number }> {
    const [row] = await db.fork().execute<{ events: number; deliveries: number }[]>(
      `with batch as (
         select cursor from events where dispatched_at is null order by cursor limit ? for update skip locked
       ), marked as (
         update events e set dispatched_at = now() from batch where e.cursor = batch.cursor
         returning e.id, e.cursor, e.type, e.partner_id, e.environment
       ), fanned as (
         insert into webhook_deliveries (id, partner_id, environment, endpoint_id, event_id, event_cursor, event_type, trigger, status,
                                         attempt_count, next_attempt_at, created_at, updated_at)
         select gen_random_uuid(), m.partner_id, m.environment, w.id, m.id, m.cursor, m.type, 'event', 'pending', 0, now(), now(), now()
         from marked m
         join webhook_endpoints w on w.partner_id = m.partner_id and w.environment = m.environment
          and w.status = 'enabled' and w.deleted_at is null and w.starts_after_cursor < m.cursor
          and (w.subscription_types is null or m.type = any(w.subscription_types))
         on conflict (event_id, endpoint_id) where trigger = 'event' do nothing
         returning 1
       )
       select (select count(*) from marked)::int as events, (select count(*) from fanned)::int as deliveries`,
      [EVENT_BATCH],
    );
    return { events: row?.events ?? 0, deliveries: row?.deliveries ?? 0 };
  }

  /**
   * A fan-out that read an endpoint just before it was deleted or disabled can commit after the
   * delete's own cancel: such deliveries would wait forever (or go out after a re-enable).
   */
  async function cancelOrphans(): Promise<void> {
    await db.fork().execute(
      `update webhook_deliveries d set status = 'canceled', next_attempt_at = null, lease_id = null, leased_until = null,
         last_error = 'endpoint deleted or disabled', completed_at = now(), updated_at = now()
       from webhook_endpoints w
       where w.id = d.endpoint_id and d.status = 'pending' and (d.leased_until is null or d.leased_until < now())
         and (w.status <> 'enabled' or w.deleted_at is not null)`,
    );
  }

  /**
   * Claims due deliveries of enabled endpoints under a lease, logs each attempt as started, and
   * reads what sending them needs (endpoint address, secrets and query, the event): one statement a batch.
   * Endpoints that hold their share of the slots already are left for later.
   */
  async function claimDue(limit: number): Promise<DeliveryClaim[]> {
    const leaseSeconds = (config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS) / 1000;
    const share = endpointShare(config.WEBHOOK_CONCURRENCY);
    const busy = [...inFlightByEndpoint].filter(([, n]) => n >= share).map(([endpointId]) => endpointId);
    const skipBusy = busy.length ? `and d.endpoint_id not in (${busy.map(() => '?').join(', ')})` : '';
    return db.fork().execute<DeliveryClaim[]>(
      `with due as (
         select d.id from webhook_deliveries d
         join webhook_endpoints w on w.id = d.endpoint_id and w.status = 'enabled' and w.deleted_at is null
         where d.status = 'pending' and d.next_attempt_at <= now() and (d.leased_until is null or d.leased_until < now()) ${skipBusy}
         order by d.next_attempt_at
         limit ? for update of d skip locked
       ), claimed as (
         update webhook_deliveries d
         set attempt_count = d.attempt_count + 1, lease_id = gen_random_uuid(), leased_until = now() + make_interval(secs => ?), updated_at = now()
         from due where d.id = due.id
         returning d.id, d.lease_id, d.attempt_count, d.endpoint_id, d.event_id, d.partner_id, d.environment
       ), attempts as (
         insert into webhook_delivery_attempts (id, delivery_id, number, instance, started_at)
         select gen_random_uuid(), c.id, c.attempt_count, ?, now() from claimed c
         returning id, delivery_id
       )
       select c.id as "deliveryId", c.lease_id as "leaseId", c.attempt_count as "attemptNumber", c.endpoint_id as "endpointId",
              c.event_id as "eventId", c.partner_id as "partnerId", c.environment, a.id as "attemptId",
              w.url, w.secret_encrypted as "secretEncrypted", w.previous_secret_encrypted as "previousSecretEncrypted",
              w.previous_secret_expires_at as "previousSecretExpiresAt", w.subscription_query as "subscriptionQuery",
              w.api_key_id as "apiKeyId", k.prefix as "apiKeyPrefix", k.scopes as "apiKeyScopes",
              e.cursor::text as "eventCursor", e.type as "eventType", e.entity_type as "entityType", e.entity_id as "entityId",
              e.created_at as "eventCreatedAt", e.payload,
              -- Only a subscription query reads the kept subject (the default body does not carry it)
              case when w.subscription_query is not null then e.subject end as subject,
              e.traceparent, e.tracestate
       from claimed c join attempts a on a.delivery_id = c.id
       join webhook_endpoints w on w.id = c.endpoint_id
       -- The key that registered the endpoint, unless revoked: its subscription query runs with the key's scopes now
       left join api_keys k on k.id = w.api_key_id and k.revoked_at is null
       join events e on e.id = c.event_id`,
      [...busy, limit, leaseSeconds, instance],
    );
  }

  /** Succeeded attempts wait here to be settled together (settleSucceeded); the rest settle one by one. */
  const settling: { claim: DeliveryClaim; outcome: AttemptOutcome; done: (error?: unknown) => void }[] = [];
  let settler: Promise<void> | null = null;

  function settleLater(claim: DeliveryClaim, outcome: AttemptOutcome): Promise<void> {
    return new Promise((resolve, reject) => {
      settling.push({ claim, outcome, done: (error) => (error ? reject(error) : resolve()) });
      settler ??= (async () => {
        // At once (a reader may be waiting for this delivery's state); what finishes while a batch is
        // being written joins the next one, so under load a batch holds many attempts.
        await Promise.resolve();
        while (settling.length) {
          const batch = settling.splice(0, SETTLE_BATCH);
          try {
            await settleSucceeded(db, batch);
            for (const item of batch) item.done();
          } catch (error) {
            for (const item of batch) item.done(error);
          }
        }
        settler = null;
      })();
    });
  }

  /** An attempt holds its slot while it sends; recording its outcome (batched) no longer does. */
  function run(claim: DeliveryClaim) {
    const abort = new AbortController();
    sending++;
    inFlightByEndpoint.set(claim.endpointId, (inFlightByEndpoint.get(claim.endpointId) ?? 0) + 1);
    const sent = () => {
      sending--;
      const left = (inFlightByEndpoint.get(claim.endpointId) ?? 1) - 1;
      if (left > 0) inFlightByEndpoint.set(claim.endpointId, left);
      else inFlightByEndpoint.delete(claim.endpointId);
      claimWanted = true;
      wakeup.notify();
    };
    const done = sendClaim({ config, agents, signal: abort.signal, render: deps.renderQuery, tracing: deps.tracing }, claim)
      .then((outcome) => {
        sent();
        deps.metrics?.webhookAttempt(outcome.interrupted ? 'interrupted' : isSuccess(outcome) ? 'succeeded' : 'failed');
        return isSuccess(outcome) ? settleLater(claim, outcome) : recordOutcome(db, config, claim, outcome);
      }, sent)
      .catch((error) =>
        logger[failureLevel(error)]({ err: error, deliveryId: claim.deliveryId }, 'webhook attempt could not be recorded; retried when its lease runs out'),
      )
      .finally(() => {
        inFlight.delete(claim.attemptId);
        wakeup.notify();
      });
    inFlight.set(claim.attemptId, { abort, done });
  }

  /**
   * Each pass does only what its wake-up calls for: an event notification fans out new events (and
   * claims only when that made deliveries), a finished attempt or a redelivery claims, and once per
   * poll interval a full pass also looks for due retries, expired leases and orphans. A partner
   * without webhooks writes its events already dispatched, so their notifications cost one read.
   */
  async function work() {
    let lastFullPass = 0;
    while (running) {
      let more = false;
      try {
        const full = Date.now() - lastFullPass >= config.WEBHOOK_POLL_INTERVAL_MS;
        if (full) {
          lastFullPass = Date.now();
          eventsWaiting = claimWanted = true;
          // Housekeeping: its failure must never hold up deliveries.
          await cancelOrphans().catch((error) => logger[failureLevel(error)]({ err: error }, 'canceling orphan webhook deliveries failed'));
        }
        if (eventsWaiting) {
          eventsWaiting = false;
          const dispatched = await dispatchEvents();
          if (dispatched.events === EVENT_BATCH) eventsWaiting = more = true;
          if (dispatched.deliveries > 0) claimWanted = true;
        }
        const free = config.WEBHOOK_CONCURRENCY - sending;
        // Claims are batched: wait for a quarter of the slots to free up unless little is in flight.
        const worthClaiming = free > 0 && (free >= Math.ceil(config.WEBHOOK_CONCURRENCY / 4) || sending < free || full);
        if (claimWanted && worthClaiming && running) {
          claimWanted = false;
          const claims = await claimDue(free);
          claims.forEach(run);
          if (claims.length === free) claimWanted = more = true;
        }
      } catch (error) {
        if (running) logger[failureLevel(error)]({ err: error }, 'webhook dispatcher pass failed; retrying');
      }
      if (!more && running) await wakeup.waitAtMost(Math.max(0, config.WEBHOOK_POLL_INTERVAL_MS - (Date.now() - lastFullPass)));
    }
  }

  return {
    instance,
    start() {
      if (running) return;
      running = true;
      unsubscribe = deps.notifier.onEvent(() => {
        eventsWaiting = true;
        wakeup.notify();
      });
      loop = work();
    },
    wake: () => {
      claimWanted = true;
      wakeup.notify();
    },
    async stop() {
      running = false;
      unsubscribe();
      wakeup.notify();
      await loop;
      for (const attempt of inFlight.values()) attempt.abort.abort();
      await Promise.all([...inFlight.values()].map((a) => a.done));
      await settler;
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
