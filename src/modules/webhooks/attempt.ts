import type { Config } from '../../config.js';
import type { Environment } from '../../domain/environment.js';
import type { Database } from '../../platform/db/database.js';
import { presentEvent } from '../events/presenters.js';
import { type AttemptOutcome, type WebhookAgents, isSuccess, postWebhook } from './delivery.js';
import { policyFor } from './destination.js';
import type { RegisteringKey, RenderQueryBody } from './query-body.js';
import type { KeyScope } from '../../domain/scopes.js';
import { delayBeforeNextAttempt } from './retry-schedule.js';
import { type SigningSecrets, signDelivery, signingSecretsOf } from './secrets.js';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_SERVER_ADDRESS } from '@opentelemetry/semantic-conventions';
import { SpanStatusCode } from '@opentelemetry/api';
import { SpanKind, type TraceHeaders, type Tracing, activeTraceHeaders } from '../../platform/observability/tracing.js';

/**
 * A delivery this instance has leased for one attempt, with what sending it needs (its endpoint's
 * address and secrets, its event), read by the claim itself: an attempt reads nothing more.
 */
export interface DeliveryClaim {
  deliveryId: string;
  leaseId: string;
  attemptId: string;
  attemptNumber: number;
  endpointId: string;
  eventId: string;
  partnerId: string;
  environment: Environment;
  /** The event's outbox position (sealed into a cursor only when a subscription query selects it). */
  eventCursor: string;
  url: string;
  /** The endpoint's subscription query; null: the Align-compatible body. */
  subscriptionQuery: string | null;
  /** The key that registered the endpoint, whose scopes the subscription query runs with (null: every scope). */
  apiKeyId: string | null;
  /** That key's prefix and scopes now; null when it is revoked. */
  apiKeyPrefix: string | null;
  apiKeyScopes: string[] | string | null;
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
  previousSecretExpiresAt: Date | string | null;
  eventType: string;
  entityType: string;
  entityId: string;
  eventCreatedAt: Date | string;
  payload: Record<string, unknown> | string;
  /** The subject as the event kept it; read only for endpoints with a subscription query. */
  subject: Record<string, unknown> | string | null;
  /** The W3C trace context of the request that caused the event: the delivery continues it. */
  traceparent: string | null;
  tracestate: string | null;
}

type AttemptConfig = Pick<
  Config,
  'webhookSecretKey' | 'encryptionMasterKey' | 'previousEncryptionMasterKey' | 'isProduction' | 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_RETRY_TIME_SCALE'
>;

const failedBeforeSending = (error: string): AttemptOutcome => ({ statusCode: null, latencyMs: 0, error, responseExcerpt: null });
// Raw rows: the drivers give timestamps as Date and jsonb parsed, but do not promise it.
const dateOf = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const jsonOf = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * Opened signing secrets by endpoint and sealed value, per set of keys: an endpoint's batch of deliveries opens
 * once, and a secret that no longer opens under changed keys still fails.
 */
const openedUnder = new WeakMap<SigningSecrets, Map<string, string>>();
const OPENED_MAX = 1000;

function openCached(secrets: SigningSecrets, endpointId: string, stored: string): string {
  let opened = openedUnder.get(secrets);
  if (!opened) {
    opened = new Map();
    openedUnder.set(secrets, opened);
  }
  const cacheKey = `${endpointId}:${stored}`;
  let secret = opened.get(cacheKey);
  if (secret === undefined) {
    secret = secrets.open(endpointId, stored);
    // Bounded: the oldest entry goes first (a rotated secret's sealed value is never asked for again).
    if (opened.size >= OPENED_MAX) opened.delete(opened.keys().next().value!);
    opened.set(cacheKey, secret);
  }
  return secret;
}

/** The signing secrets in force: the current one, and the one a rotation replaced while its overlap lasts. */
function secretsOf(claim: DeliveryClaim, keys: SigningSecrets): string[] {
  const secrets = [openCached(keys, claim.endpointId, claim.secretEncrypted)];
  if (claim.previousSecretEncrypted && claim.previousSecretExpiresAt && dateOf(claim.previousSecretExpiresAt) > new Date()) {
    // A replaced secret whose key is no longer configured no longer opens: sign without it.
    try {
      secrets.push(openCached(keys, claim.endpointId, claim.previousSecretEncrypted));
    } catch {
      // the current secret alone signs
    }
  }
  return secrets;
}

/** The key whose scopes an endpoint's query runs with, as the claim read it (a text[] may arrive as its literal). */
function registeringKeyOf({ apiKeyId, apiKeyPrefix, apiKeyScopes }: DeliveryClaim): RegisteringKey {
  if (apiKeyId === null) return null;
  if (apiKeyPrefix === null || apiKeyScopes === null) return 'revoked';
  const scopes =
    typeof apiKeyScopes === 'string'
      ? apiKeyScopes
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter(Boolean)
      : apiKeyScopes;
  return { id: apiKeyId, prefix: apiKeyPrefix, scopes: new Set(scopes as KeyScope[]) };
}

/**
 * Whether the key that registered an endpoint reads what an event carries, as it is now: not when it lacks `read` or
 * was revoked. An endpoint registered before keys were recorded does (nothing tells whose it was).
 */
const reads = (key: RegisteringKey) => key === null || (key !== 'revoked' && key.scopes.has('read'));

/**
 * The Align-compatible event; a thin one (its ids and type, no `event_payload`) when the registering key cannot read
 * it, as Stripe's thin events: a webhooks-only key would otherwise receive customers' data it may not read. The
 * receiver fetches the object with a key that reads.
 */
function plainEventOf(event: Parameters<typeof presentEvent>[0], key: RegisteringKey) {
  const whole = presentEvent(event);
  if (reads(key)) return whole;
  const { event_payload: _withheld, ...thin } = whole;
  return thin;
}

/** The body of a delivery: its endpoint's subscription query's result for the event, or the Align-compatible event. */
async function bodyOf(render: RenderQueryBody, claim: DeliveryClaim): Promise<{ body: string } | { error: string }> {
  const event = {
    id: claim.eventId,
    type: claim.eventType,
    entityType: claim.entityType,
    entityId: claim.entityId,
    createdAt: dateOf(claim.eventCreatedAt),
    payload: jsonOf(claim.payload),
  };
  if (claim.subscriptionQuery === null) return { body: JSON.stringify(plainEventOf(event, registeringKeyOf(claim))) };
  const { partnerId, environment, eventCursor: position } = claim;
  return render(claim.subscriptionQuery, registeringKeyOf(claim), {
    ...event,
    subject: claim.subject === null ? null : jsonOf(claim.subject),
    partnerId,
    environment,
    position,
  });
}

type SendDeps = { config: AttemptConfig; agents: WebhookAgents; signal: AbortSignal; render: RenderQueryBody; tracing: Tracing };

/**
 * One attempt in the trace of the request that caused its event: a span of its own (child of the event's
 * stored context) when spans are made, and `traceparent`/`tracestate` headers either way, so the receiver
 * continues the same trace. An event recorded outside any trace starts a new one only when spans are made.
 */
export function sendClaim(deps: SendDeps, claim: DeliveryClaim): Promise<AttemptOutcome> {
  const stored = claim.traceparent ? { traceparent: claim.traceparent, ...(claim.tracestate && { tracestate: claim.tracestate }) } : null;
  // No spans: the caller's context goes out as it came in.
  if (!deps.tracing.enabled) return sendSigned(deps, claim, stored);
  const attributes = {
    [ATTR_HTTP_REQUEST_METHOD]: 'POST',
    [ATTR_SERVER_ADDRESS]: URL.parse(claim.url)?.hostname ?? '',
    'ramp.webhook.delivery_id': claim.deliveryId,
    'ramp.webhook.attempt': claim.attemptNumber,
    'ramp.event.id': claim.eventId,
    'ramp.event.type': claim.eventType,
  };
  return deps.tracing.inSpan('webhook.deliver', { kind: SpanKind.CLIENT, attributes }, deps.tracing.continuing(stored), async (span) => {
    const outcome = await sendSigned(deps, claim, activeTraceHeaders());
    if (outcome.statusCode !== null) span?.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.statusCode);
    if (!isSuccess(outcome)) span?.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? `the receiver answered ${outcome.statusCode}` });
    return outcome;
  });
}

/**
 * Signs and POSTs the event of a claimed delivery. `webhook-id` is the event id, the same on every
 * attempt and redelivery, so receivers can drop duplicates; the timestamp and signatures are fresh each time.
 */
async function sendSigned(deps: SendDeps, claim: DeliveryClaim, trace: TraceHeaders | null): Promise<AttemptOutcome> {
  let secrets: string[];
  try {
    secrets = secretsOf(claim, signingSecretsOf(deps.config));
  } catch {
    return failedBeforeSending('the signing secret cannot be decrypted (was WEBHOOK_SECRET_KEY changed?)');
  }
  const rendered = await bodyOf(deps.render, claim);
  if ('error' in rendered) return failedBeforeSending(rendered.error);
  const { body } = rendered;
  return postWebhook({
    url: claim.url,
    headers: { ...signDelivery(secrets, claim.eventId, new Date(), body), 'user-agent': 'Ramp-Webhooks/1.0', ...trace },
    body,
    policy: policyFor(claim.environment, deps.config.isProduction),
    timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
    signal: deps.signal,
    agents: deps.agents,
  });
}

/**
 * Logs the attempt and moves the delivery on: 2xx succeeded; 410 Gone fails it and disables the
 * endpoint; anything else waits for the next step of the retry schedule, or fails when none is
 * left. Only the holder of the lease moves the delivery, and only while it is pending (a delete or
 * disable may have canceled it meanwhile); a stale holder still logs its attempt.
 */
export async function recordOutcome(db: Database, config: AttemptConfig, claim: DeliveryClaim, outcome: AttemptOutcome): Promise<void> {
  await db.fork().transactional(async (em) => {
    await em.execute(
      `update webhook_delivery_attempts set finished_at = now(), status_code = ?, latency_ms = ?, error = ?, response_excerpt = ? where id = ?`,
      [outcome.statusCode, outcome.latencyMs, outcome.error, outcome.responseExcerpt, claim.attemptId],
    );
    const lastError = outcome.error ?? (isSuccess(outcome) ? null : `the receiver answered ${outcome.statusCode}`);
    const settle = (status: 'succeeded' | 'failed', error: string | null) =>
      em.execute(
        `update webhook_deliveries set status = ?, next_attempt_at = null, lease_id = null, leased_until = null, last_status_code = ?,
           last_error = ?, completed_at = now(), updated_at = now()
         where id = ? and lease_id = ? and status = 'pending'`,
        [status, outcome.statusCode, error, claim.deliveryId, claim.leaseId],
      );

    if (isSuccess(outcome)) return void (await settle('succeeded', null));
    if (outcome.statusCode === 410) {
      await settle('failed', 'the receiver answered 410 Gone: the webhook was disabled');
      await em.execute(
        `update webhook_endpoints set status = 'disabled', disabled_reason = 'endpoint_gone', updated_at = now() where id = ? and status = 'enabled'`,
        [claim.endpointId],
      );
      await em.execute(
        `update webhook_deliveries set status = 'canceled', next_attempt_at = null, last_error = 'endpoint disabled: it answered 410 Gone',
           completed_at = now(), updated_at = now()
         where endpoint_id = ? and status = 'pending' and id <> ?`,
        [claim.endpointId, claim.deliveryId],
      );
      return;
    }
    const delay = delayBeforeNextAttempt(claim.attemptNumber, config.WEBHOOK_RETRY_TIME_SCALE);
    if (delay === null) return void (await settle('failed', lastError));
    await em.execute(
      `update webhook_deliveries set next_attempt_at = now() + make_interval(secs => ?), lease_id = null, leased_until = null,
         last_status_code = ?, last_error = ?, updated_at = now()
       where id = ? and lease_id = ? and status = 'pending'`,
      [outcome.interrupted ? 0 : delay / 1000, outcome.statusCode, lastError, claim.deliveryId, claim.leaseId],
    );
  });
}

/**
 * Settles many succeeded attempts in one statement: each attempt logged as finished, each delivery
 * succeeded, as recordOutcome would, and under the same rule (only the holder of the lease, only
 * while pending). One statement is one transaction: the log and the delivery move together.
 */
export async function settleSucceeded(db: Database, settled: readonly { claim: DeliveryClaim; outcome: AttemptOutcome }[]): Promise<void> {
  if (!settled.length) return;
  const rows = settled.map(() => '(?::uuid, ?::uuid, ?::uuid, ?::int, ?::int, ?::text)').join(', ');
  const params = settled.flatMap(({ claim, outcome }) => [
    claim.attemptId,
    claim.deliveryId,
    claim.leaseId,
    outcome.statusCode,
    outcome.latencyMs,
    outcome.responseExcerpt,
  ]);
  await db.fork().execute(
    `with settled (attempt_id, delivery_id, lease_id, status_code, latency_ms, excerpt) as (values ${rows}),
     logged as (
       update webhook_delivery_attempts a set finished_at = now(), status_code = s.status_code, latency_ms = s.latency_ms, error = null,
         response_excerpt = s.excerpt
       from settled s where a.id = s.attempt_id
       returning a.id
     )
     update webhook_deliveries d set status = 'succeeded', next_attempt_at = null, lease_id = null, leased_until = null,
       last_status_code = s.status_code, last_error = null, completed_at = now(), updated_at = now()
     from settled s where d.id = s.delivery_id and d.lease_id = s.lease_id and d.status = 'pending'`,
    params,
  );
}
