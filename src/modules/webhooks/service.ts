import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { useCase } from '../../platform/use-cases/use-case.js';
import { type ErasedValues, blankCopies } from '../../platform/security/redaction.js';
import type { EntityManager } from '@mikro-orm/sql';
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.js';
import type { EventType } from '../../domain/events.js';
import { ConflictError, type FieldError, ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.js';
import { requireScope } from '../../domain/scopes.js';
import { parseInput } from '../../domain/validation.js';
import { OutboxEvent, lockOutbox, outboxHead } from '../../platform/messaging/outbox.js';
import { lockUntilCommit, webhookEndpointsLock } from '../../platform/db/locks.js';
import type { KeysetPage } from '../../platform/reads/pagination.js';
import { type Scope, tenantOf } from '../../platform/use-cases/scope.js';
import { isUuid } from '../../domain/identifiers/uuid.js';
import { checkWebhookUrl, policyFor } from './destination.js';
import { WebhookDelivery, WebhookDeliveryAttempt, WebhookEndpoint } from './entities.js';
import { DeliveryFilter, NewWebhook } from './inputs.js';
import { type WebhookDeliveryRow, type WebhookEndpointRow, deliveryPage, endpointPage } from './queries.js';
import { newSigningSecret, signingSecretsOf } from './secrets.js';
import type { CheckSubscriptionQuery } from './subscription-query.js';
import { activeKey } from '../partners/service.js';

/**
 * Webhook endpoints and their deliveries. Inputs are the domain's
 * (inputs.ts), validated here whichever face sent them; a ValidationError's pointers name the
 * input's fields (`/url`).
 */
export interface WebhookService {
  /** One of the caller's endpoints (not deleted); 404 when unknown or not the caller's. */
  get(scope: Scope, id: string): Promise<WebhookEndpoint>;
  list(scope: Scope): Promise<WebhookEndpoint[]>;
  /** One page of the caller's endpoints (not deleted), oldest first; `countEndpoints` counts them all. */
  listPage(scope: Scope, page: KeysetPage): Promise<WebhookEndpointRow[]>;
  countEndpoints(scope: Scope): Promise<number>;
  /**
   * Checks a registration for the key's environment (resolving the host for production keys).
   * Callers run it before opening any transaction, so no database connection waits on DNS.
   */
  prepareRegistration(scope: Scope, webhook: NewWebhook): Promise<CheckedRegistration>;
  /** Stores the endpoint with a new signing secret. */
  register(scope: Scope, registration: CheckedRegistration): Promise<EndpointWithSecret>;
  /** The endpoint with its current secret, for replaying an idempotent registration. */
  withSecret(scope: Scope, id: string): Promise<EndpointWithSecret>;
  /** The endpoint stops receiving at once; its pending deliveries are canceled, its history kept. */
  delete(scope: Scope, id: string): Promise<void>;
  disable(scope: Scope, id: string): Promise<WebhookEndpoint>;
  /** Receives the events committed from now on; what happened while disabled is in the events API. */
  enable(scope: Scope, id: string): Promise<WebhookEndpoint>;
  /** A new secret; the old one keeps signing (as a second signature) for 24 hours so receivers can switch. */
  rotateSecret(scope: Scope, id: string): Promise<EndpointWithSecret>;
  deliveries(scope: Scope, filter: DeliveryFilter, page: KeysetPage): Promise<WebhookDeliveryRow[]>;
  /** How many deliveries the filter matches (the same conditions as `deliveries`). */
  countDeliveries(scope: Scope, filter: DeliveryFilter): Promise<number>;
  /** Batch loads for GraphQL dataloaders: only the caller's endpoints (not deleted) and deliveries come back. */
  loadMany(scope: Scope, ids: readonly string[]): Promise<WebhookEndpoint[]>;
  loadDeliveries(scope: Scope, ids: readonly string[]): Promise<WebhookDelivery[]>;
  /** Every attempt of the given deliveries, oldest first (callers pass ids of the partner's own deliveries). */
  attemptsOf(scope: Scope, deliveryIds: readonly string[]): Promise<WebhookDeliveryAttempt[]>;
  /** Sends an event to an endpoint again, as a new delivery with a full retry schedule and the same webhook-id. */
  redeliver(scope: Scope, eventId: string, endpointId: string): Promise<WebhookDelivery>;
  getDelivery(scope: Scope, id: string): Promise<WebhookDelivery>;
  /**
   * Erasure, in the caller's transaction: the delivery logs of the customer's events (found through the event, which
   * names its customer) are rewritten: a receiver's answer without the customer's personal data (whole, when it is
   * not JSON), an error without its erased values. Bodies are not stored: a delivery sends its event as it is now.
   */
  blankErased(scope: Scope, customerId: string, erased: ErasedValues): Promise<number>;
}

/** Endpoints one partner may have per environment: enough for every real use, a bound on fan-out. */
export const MAX_ENDPOINTS = 20;
/** How long the secret replaced by a rotation keeps signing deliveries next to the new one. */
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface WebhookServiceOptions {
  config: Pick<Config, 'webhookSecretKey' | 'encryptionMasterKey' | 'previousEncryptionMasterKey' | 'isProduction'>;
  /** Tells this instance's dispatcher that a delivery is due now (a redelivery). */
  wakeDispatcher: () => void;
  /** Checks a subscription query against the API's schema (given at wiring: this module does not build the schema). */
  checkQuery: CheckSubscriptionQuery;
}

/** A registration whose URL passed the rules of the caller's environment, and whose subscription query (if any) the schema's. */
export interface CheckedRegistration {
  url: string;
  subscriptionQuery: string | null;
  /** The query's `types`: the only event types the endpoint receives (null: all). */
  subscriptionTypes: EventType[] | null;
  checked: true;
}

/**
 * A redelivery of an endpoint with a subscription query is refused (403 `insufficient_scope`) when the key that
 * registered it was revoked or lost `read` since: its query would run with what the key may no longer see.
 */
async function requireQueryRunnable(em: EntityManager, endpoint: WebhookEndpoint): Promise<void> {
  if (!endpoint.subscriptionQuery || !endpoint.apiKeyId) return;
  const key = await activeKey(em, endpoint.apiKeyId);
  if (!key?.scopes.has('read')) {
    throw new ForbiddenError(
      'insufficient_scope',
      'The API key that registered this webhook was revoked or no longer has the `read` scope its subscription query needs: register the webhook again',
    );
  }
}

/** Field errors of a check, collected so that one answer lists the problems of every field. */
async function fieldErrorsOf(check: () => Promise<void>): Promise<FieldError[]> {
  try {
    await check();
    return [];
  } catch (error) {
    if (error instanceof ValidationError) return error.fieldErrors;
    throw error;
  }
}

/** An endpoint with its signing secret in clear: only for the response that creates or rotates it. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

const cancelPending = (em: EntityManager, endpointId: string, reason: string) =>
  em.execute(
    `update webhook_deliveries set status = 'canceled', next_attempt_at = null, last_error = ?, completed_at = now(), updated_at = now()
     where endpoint_id = ? and status = 'pending'`,
    [reason, endpointId],
  );

export function createWebhookService(options: WebhookServiceOptions): WebhookService {
  const secrets = signingSecretsOf(options.config);

  async function get({ em }: Scope, id: string): Promise<WebhookEndpoint> {
    const endpoint = isUuid(id) ? await em.findOne(WebhookEndpoint, { id, deletedAt: null }) : null;
    if (!endpoint) throw new NotFoundError('Webhook');
    return endpoint;
  }

  /** Runs a change to one endpoint in a transaction, the row locked against a concurrent change. */
  function change<T>(scope: Scope, id: string, apply: (endpoint: WebhookEndpoint, em: EntityManager) => Promise<T>): Promise<T> {
    return useCase(scope, async (em) => {
      if (isUuid(id)) await em.execute('select id from webhook_endpoints where id = ? for update', [id]);
      const endpoint = await get({ ...scope, em }, id);
      const result = await apply(endpoint, em);
      endpoint.updatedAt = new Date();
      await em.flush();
      return result;
    });
  }

  /** The conditions of a delivery filter (a page and its count share them); null when nothing can match. */
  async function deliveriesMatching({ em }: Scope, filter: DeliveryFilter) {
    const f = parseInput(DeliveryFilter, filter);
    // Present but not a UUID (an id argument that names nothing) is an unknown id, never "no filter".
    if (f.endpointId !== undefined) {
      const owned = isUuid(f.endpointId) && (await em.count(WebhookEndpoint, { id: f.endpointId }));
      if (!owned) throw new NotFoundError('Webhook');
    }
    if (f.eventId !== undefined && !isUuid(f.eventId)) return null;
    return {
      ...(f.endpointId && { endpointId: f.endpointId }),
      ...(f.eventId && { eventId: f.eventId }),
      ...(f.status && { status: f.status }),
    };
  }

  return {
    get,

    async blankErased({ em, actor }, customerId, erased) {
      const customersDeliveries = `select d.id from webhook_deliveries d join events e on e.id = d.event_id
        where e.customer_id = ? and d.partner_id = ? and d.environment = ?`;
      const params = [customerId, actor.partnerId, actor.environment];
      const deliveries = await blankCopies(
        em,
        { table: 'webhook_deliveries', key: ['id'], columns: [{ name: 'last_error', type: 'text' }], where: `id in (${customersDeliveries})`, params },
        erased,
      );
      const attempts = await blankCopies(
        em,
        {
          table: 'webhook_delivery_attempts',
          key: ['id'],
          columns: [
            { name: 'response_excerpt', type: 'answer' },
            { name: 'error', type: 'text' },
          ],
          where: `delivery_id in (${customersDeliveries})`,
          params,
        },
        erased,
      );
      return deliveries + attempts;
    },

    async list({ em }: Scope): Promise<WebhookEndpoint[]> {
      return em.find(WebhookEndpoint, { deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    },

    listPage: endpointPage,

    countEndpoints: ({ em }) => em.count(WebhookEndpoint, { deletedAt: null }),

    /**
     * Checks a registration for the key's environment (resolving the host for production keys).
     * Callers run it before opening any transaction, so no database connection waits on DNS.
     */
    async prepareRegistration(scope: Scope, webhook: NewWebhook): Promise<CheckedRegistration> {
      const data = parseInput(NewWebhook, webhook);
      const query = data.subscriptionQuery ?? null;
      // The query runs with this key's scopes at each delivery: it is a read, as a subscription over graphql-ws is.
      if (query) requireScope(scope.actor, 'read');
      let subscriptionTypes: EventType[] | null = null;
      const queryErrors = await fieldErrorsOf(async () => {
        if (query) subscriptionTypes = options.checkQuery(query, '/subscriptionQuery').types;
      });
      let url: URL | undefined;
      const urlErrors = await fieldErrorsOf(async () => {
        url = await checkWebhookUrl(data.url, policyFor(scope.actor.environment, options.config.isProduction));
      });
      if (!url || queryErrors.length) throw new ValidationError([...urlErrors, ...queryErrors]);
      return { url: url.href, subscriptionQuery: query, subscriptionTypes, checked: true };
    },

    /** POST /v0/webhooks: stores the endpoint with a new signing secret. */
    async register(scope: Scope, registration: CheckedRegistration): Promise<EndpointWithSecret> {
      return useCase(scope, async (em) => {
        // Concurrent registrations of one partner queue here, so the limit below cannot be overrun.
        await lockUntilCommit(em, webhookEndpointsLock(scope.actor.partnerId, scope.actor.environment));
        if ((await em.count(WebhookEndpoint, { deletedAt: null })) >= MAX_ENDPOINTS) {
          throw new ConflictError('webhook_endpoint_limit', `At most ${MAX_ENDPOINTS} webhooks per partner and environment; delete one first`);
        }
        // Ordered with event writers: an event either committed before (and is not this endpoint's) or sees the endpoint.
        await lockOutbox(em);
        const head = await outboxHead(em);
        const id = randomUUID();
        const secret = newSigningSecret();
        const now = new Date();
        const endpoint = em.create(WebhookEndpoint, {
          id,
          url: registration.url,
          status: 'enabled',
          disabledReason: null,
          secretEncrypted: secrets.seal(id, secret),
          previousSecretEncrypted: null,
          previousSecretExpiresAt: null,
          startsAfterCursor: head,
          subscriptionQuery: registration.subscriptionQuery,
          subscriptionTypes: registration.subscriptionTypes,
          apiKeyId: isUuid(scope.actor.apiKeyId) ? scope.actor.apiKeyId : null,
          createdAt: now,
          updatedAt: now,
          deletedAt: null,
        });
        try {
          await em.flush();
        } catch (error) {
          if (error instanceof UniqueConstraintViolationException) {
            throw new ConflictError('webhook_url_taken', 'A webhook with this URL is already registered');
          }
          throw error;
        }
        return { endpoint, secret };
      });
    },

    /** The endpoint with its current secret, for replaying an idempotent registration. */
    async withSecret(scope: Scope, id: string): Promise<EndpointWithSecret> {
      const endpoint = await get(scope, id);
      return { endpoint, secret: secrets.open(endpoint.id, endpoint.secretEncrypted) };
    },

    /** DELETE: the endpoint stops receiving at once; its pending deliveries are canceled, its history kept. */
    async delete(scope: Scope, id: string): Promise<void> {
      await change(scope, id, async (endpoint, em) => {
        endpoint.deletedAt = new Date();
        await cancelPending(em, endpoint.id, 'endpoint deleted');
      });
    },

    async disable(scope: Scope, id: string): Promise<WebhookEndpoint> {
      return change(scope, id, async (endpoint, em) => {
        endpoint.status = 'disabled';
        endpoint.disabledReason = 'disabled_by_partner';
        await cancelPending(em, endpoint.id, 'endpoint disabled');
        return endpoint;
      });
    },

    /** Receives the events committed from now on; what happened while disabled is in the events API. */
    async enable(scope: Scope, id: string): Promise<WebhookEndpoint> {
      return change(scope, id, async (endpoint, em) => {
        // Ordered with event writers, so an event committed after the enable sees it (platform/messaging/outbox.ts).
        await lockOutbox(em);
        endpoint.status = 'enabled';
        endpoint.disabledReason = null;
        return endpoint;
      });
    },

    /** A new secret; the old one keeps signing (as a second signature) for 24 hours so receivers can switch. */
    async rotateSecret(scope: Scope, id: string): Promise<EndpointWithSecret> {
      return change(scope, id, async (endpoint) => {
        const secret = newSigningSecret();
        endpoint.previousSecretEncrypted = endpoint.secretEncrypted;
        endpoint.previousSecretExpiresAt = new Date(Date.now() + ROTATION_OVERLAP_MS);
        endpoint.secretEncrypted = secrets.seal(endpoint.id, secret);
        return { endpoint, secret };
      });
    },

    async deliveries(scope, filter, page) {
      const matching = await deliveriesMatching(scope, filter);
      return matching ? deliveryPage(scope, matching, page) : [];
    },

    async countDeliveries(scope: Scope, filter: DeliveryFilter): Promise<number> {
      const matching = await deliveriesMatching(scope, filter);
      return matching ? scope.em.count(WebhookDelivery, matching) : 0;
    },

    loadMany: ({ em }, ids) => em.find(WebhookEndpoint, { id: { $in: ids.filter(isUuid) }, deletedAt: null }),
    loadDeliveries: ({ em }, ids) => em.find(WebhookDelivery, { id: { $in: ids.filter(isUuid) } }),

    /** Every attempt of the given deliveries, oldest first (callers pass ids of the partner's own deliveries). */
    async attemptsOf({ em }: Scope, deliveryIds: readonly string[]): Promise<WebhookDeliveryAttempt[]> {
      return em.find(WebhookDeliveryAttempt, { deliveryId: { $in: [...deliveryIds] } }, { orderBy: { deliveryId: 'asc', number: 'asc' } });
    },

    /** Sends an event to an endpoint again, as a new delivery with a full retry schedule and the same webhook-id. */
    async redeliver(scope: Scope, eventId: string, endpointId: string): Promise<WebhookDelivery> {
      const delivery = await useCase(scope, async (em) => {
        const event = isUuid(eventId) ? await em.findOne(OutboxEvent, { id: eventId, ...tenantOf(scope.actor) }) : null;
        if (!event) throw new NotFoundError('Event');
        const endpoint = await get({ ...scope, em }, endpointId);
        if (endpoint.status !== 'enabled') throw new ConflictError('webhook_disabled', 'The webhook is disabled; enable it first');
        await requireQueryRunnable(em, endpoint);
        const now = new Date();
        const created = em.create(WebhookDelivery, {
          id: randomUUID(),
          endpointId: endpoint.id,
          eventId: event.id,
          eventCursor: event.cursor,
          eventType: event.type,
          trigger: 'redelivery',
          status: 'pending',
          attemptCount: 0,
          nextAttemptAt: now,
          leaseId: null,
          leasedUntil: null,
          lastStatusCode: null,
          lastError: null,
          createdAt: now,
          updatedAt: now,
          completedAt: null,
        });
        await em.flush();
        return created;
      });
      options.wakeDispatcher();
      return delivery;
    },

    async getDelivery({ em }: Scope, id: string): Promise<WebhookDelivery> {
      const delivery = isUuid(id) ? await em.findOne(WebhookDelivery, { id }) : null;
      if (!delivery) throw new NotFoundError('Webhook delivery');
      return delivery;
    },
  };
}
