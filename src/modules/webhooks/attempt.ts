import type { Config } from '../../config.js';
import type { Environment } from '../../domain/environment.js';
import type { Database } from '../../platform/db.js';
import { OutboxEvent } from '../../platform/outbox.js';
import { presentEvent } from '../events/presenters.js';
import { type AttemptOutcome, type WebhookAgents, isSuccess, postWebhook } from './delivery.js';
import { policyFor } from './destination.js';
import { WebhookEndpoint } from './entities.js';
import { delayBeforeNextAttempt } from './retry-schedule.js';
import { decryptSecret, signDelivery } from './secrets.js';
import { ACROSS_TENANTS } from '../../platform/tenant.js';

/** A delivery this instance has leased for one attempt. */
export interface DeliveryClaim {
  deliveryId: string;
  leaseId: string;
  attemptId: string;
  attemptNumber: number;
  endpointId: string;
  eventId: string;
  environment: Environment;
}

type AttemptConfig = Pick<Config, 'webhookSecretKey' | 'isProduction' | 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_RETRY_TIME_SCALE'>;

const failedBeforeSending = (error: string): AttemptOutcome => ({ statusCode: null, latencyMs: 0, error, responseExcerpt: null });

/** The signing secrets in force: the current one, and the one a rotation replaced while its overlap lasts. */
function secretsOf(endpoint: WebhookEndpoint, key: Buffer): string[] {
  const secrets = [decryptSecret(key, endpoint.id, endpoint.secretEncrypted)];
  if (endpoint.previousSecretEncrypted && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > new Date()) {
    // A rotation after WEBHOOK_SECRET_KEY changed leaves an old secret that no longer decrypts: sign without it.
    try {
      secrets.push(decryptSecret(key, endpoint.id, endpoint.previousSecretEncrypted));
    } catch {
      // the current secret alone signs
    }
  }
  return secrets;
}

/**
 * Signs and POSTs the event of a claimed delivery. `webhook-id` is the event id, the same on every
 * attempt and redelivery, so receivers can drop duplicates; the timestamp and signatures are fresh each time.
 */
export async function sendClaim(
  deps: { db: Database; config: AttemptConfig; agents: WebhookAgents; signal: AbortSignal },
  claim: DeliveryClaim,
): Promise<AttemptOutcome> {
  const em = deps.db.fork();
  // The dispatcher sends every tenant's deliveries: the claim names the endpoint it may read.
  const endpoint = await em.findOne(WebhookEndpoint, { id: claim.endpointId }, ACROSS_TENANTS);
  const event = await em.findOne(OutboxEvent, { id: claim.eventId });
  if (!endpoint || !event) return failedBeforeSending('endpoint or event not found');
  let secrets: string[];
  try {
    secrets = secretsOf(endpoint, deps.config.webhookSecretKey);
  } catch {
    return failedBeforeSending('the signing secret cannot be decrypted (was WEBHOOK_SECRET_KEY changed?)');
  }
  const body = JSON.stringify(presentEvent(event));
  return postWebhook({
    url: endpoint.url,
    headers: { ...signDelivery(secrets, event.id, new Date(), body), 'user-agent': 'Ramp-Webhooks/1.0' },
    body,
    policy: policyFor(endpoint.environment, deps.config.isProduction),
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
