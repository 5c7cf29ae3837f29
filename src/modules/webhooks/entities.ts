import type { InferKyselyDB } from '@mikro-orm/sql';
import { defineEntity, p } from '@mikro-orm/core';
import { TENANT_FILTERS, tenantColumns } from '../../platform/security/tenant.js';
import { createdAtColumn, idColumn } from '../../platform/db/columns.js';

/** enabled: receives events. disabled: by the partner, or because the receiver answered 410 Gone. */
export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];
export const DISABLED_REASONS = ['disabled_by_partner', 'endpoint_gone'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** pending: waiting for its next attempt. failed: retries exhausted or endpoint gone. canceled: endpoint deleted or disabled first. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const WebhookEndpointSchema = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  filters: TENANT_FILTERS,
  properties: {
    id: idColumn(),
    ...tenantColumns(),
    url: p.text(),
    status: p.enum(WEBHOOK_STATUSES),
    disabledReason: p.enum(DISABLED_REASONS).nullable(),
    /** The whsec_ signing secret, AES-256-GCM encrypted: needed in clear to sign, so not a hash. */
    secretEncrypted: p.text(),
    /** After a rotation the old secret also signs for a while, so receivers can switch without losing deliveries. */
    previousSecretEncrypted: p.text().nullable(),
    previousSecretExpiresAt: p.datetime().nullable(),
    /** Outbox position at registration: the endpoint receives the events committed after it. */
    startsAfterCursor: p.bigint('string'),
    /** A GraphQL subscription over `events` whose result is each delivery's body; null: the Align-compatible body. */
    subscriptionQuery: p.text().nullable(),
    /** The query's `types` argument: only these event types are delivered (null: every type). */
    subscriptionTypes: p.array().nullable(),
    /**
     * The API key that registered the endpoint: the subscription query runs with its scopes as they are at each
     * delivery (null: registered before keys were recorded, and run with every scope).
     */
    apiKeyId: p.uuid().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: p.datetime(),
    deletedAt: p.datetime().nullable(),
  },
});
export class WebhookEndpoint extends WebhookEndpointSchema.class {}
WebhookEndpointSchema.setClass(WebhookEndpoint);

const WebhookDeliverySchema = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  filters: TENANT_FILTERS,
  properties: {
    id: idColumn(),
    ...tenantColumns(),
    endpointId: p.uuid(),
    eventId: p.uuid(),
    eventCursor: p.bigint('string'),
    eventType: p.text(),
    /** event: made by the dispatcher; redelivery: asked for by the partner. */
    trigger: p.enum(['event', 'redelivery'] as const),
    status: p.enum(DELIVERY_STATUSES),
    attemptCount: p.integer(),
    nextAttemptAt: p.datetime().nullable(),
    leaseId: p.uuid().nullable(),
    leasedUntil: p.datetime().nullable(),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: p.datetime(),
    completedAt: p.datetime().nullable(),
  },
});
export class WebhookDelivery extends WebhookDeliverySchema.class {}
WebhookDeliverySchema.setClass(WebhookDelivery);

const WebhookDeliveryAttemptSchema = defineEntity({
  name: 'WebhookDeliveryAttempt',
  tableName: 'webhook_delivery_attempts',
  properties: {
    id: idColumn(),
    deliveryId: p.uuid(),
    number: p.integer(),
    /** Which Ramp instance made the attempt (host/pid/random), for following a delivery across instances. */
    instance: p.text(),
    startedAt: p.datetime(),
    /** Null while in flight, and for ever when the instance died mid-attempt. */
    finishedAt: p.datetime().nullable(),
    statusCode: p.integer().nullable(),
    latencyMs: p.integer().nullable(),
    error: p.text().nullable(),
    responseExcerpt: p.text().nullable(),
  },
});
export class WebhookDeliveryAttempt extends WebhookDeliveryAttemptSchema.class {}
WebhookDeliveryAttemptSchema.setClass(WebhookDeliveryAttempt);

export const webhookEntities = [WebhookEndpoint, WebhookDelivery, WebhookDeliveryAttempt];

/** The tables above as the module's query file reads them (platform/reads/queries.ts): SQL names, the entities' value types. */
export type WebhookTables = InferKyselyDB<typeof WebhookEndpointSchema | typeof WebhookDeliverySchema>;
