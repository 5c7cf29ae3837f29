import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../../domain/errors.js';
import { undefinedIfNull } from '../../graphql/types/arguments.js';
import { builder, globalIdOf } from '../../graphql/builder.js';
import { connectionFieldOptions, nodeConnection, ownPosition, resolveKeysetPage } from '../../graphql/types/connection.js';
import { scopeOf } from '../../graphql/context.js';
import { domainEnum } from '../../graphql/types/enums.js';
import { nullIfNotFound, withInputPaths } from '../../graphql/types/errors.js';
import { idempotentMutation } from '../../graphql/types/idempotency.js';
import { databaseIdOf, optionalDatabaseIdOf } from '../../graphql/types/node.js';
import { idempotencyKeyField, payloadOf } from '../../graphql/types/payload.js';
import { EventTypeEnum } from '../events/graphql.js';
import { DELIVERY_STATUSES, DISABLED_REASONS, WEBHOOK_STATUSES, type WebhookDelivery, type WebhookDeliveryAttempt, type WebhookEndpoint } from './entities.js';
import type { EndpointWithSecret } from './service.js';

const WebhookStatusEnum = domainEnum('WebhookStatus', WEBHOOK_STATUSES, {
  description: 'Whether a webhook receives events',
  describe: { enabled: 'Receives every event committed from now on', disabled: 'Receives nothing (disabledReason says why); enableWebhook turns it on again' },
});
const DisabledReasonEnum = domainEnum('WebhookDisabledReason', DISABLED_REASONS, {
  description: 'Why a webhook stopped receiving events',
  describe: { disabled_by_partner: 'You disabled it (disableWebhook)', endpoint_gone: 'The receiver answered 410 Gone' },
});
const DeliveryStatusEnum = domainEnum('WebhookDeliveryStatus', DELIVERY_STATUSES, {
  description: 'Where a delivery of one event to one webhook is',
  describe: {
    pending: 'Waiting for its next attempt (nextAttemptAt)',
    succeeded: 'The receiver answered 2xx',
    failed: 'Every retry failed, or the receiver answered 410 Gone',
    canceled: 'The webhook was deleted or disabled first',
  },
});

export const WebhookEndpointRef = builder.loadableNodeRef<WebhookEndpoint>('WebhookEndpoint', {
  id: { resolve: (w) => w.id },
  // Only the caller's endpoints in the caller's environment, never a deleted one.
  load: (ids: string[], ctx) => ctx.services.webhooks.loadMany(scopeOf(ctx), ids),
  sort: (w) => w.id,
});

WebhookEndpointRef.implement({
  description: 'A URL that receives your events as signed POSTs (Standard Webhooks headers), at least once, with retries',
  // The endpoint registerWebhook made or a webhook mutation changed: its own settings, no customer's data.
  readableBy: 'webhooks',
  fields: (t) => ({
    databaseId: t.expose('id', { type: 'UUID', description: 'The id REST shows for this webhook (id)' }),
    url: t.exposeString('url', { description: 'Where events are POSTed' }),
    status: t.field({ type: WebhookStatusEnum, description: 'Enabled or disabled', resolve: (w) => w.status }),
    disabledReason: t.field({
      type: DisabledReasonEnum,
      nullable: true,
      description: 'Why it is disabled; null while enabled',
      resolve: (w) => w.disabledReason ?? null,
    }),
    subscriptionQuery: t.exposeString('subscriptionQuery', {
      nullable: true,
      description: "The subscription over `events` whose result is each delivery's body; null: the Align-compatible body",
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was registered' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed (enabled, disabled, secret rotated)' }),
  }),
});

export const WebhookEndpointConnection = nodeConnection(WebhookEndpointRef, 'WebhookEndpoint');

const AttemptRef = builder.objectRef<WebhookDeliveryAttempt>('WebhookDeliveryAttempt').implement({
  description: 'One HTTP request of a delivery to the webhook',
  fields: (t) => ({
    number: t.exposeInt('number', { description: 'Which attempt: 1 to 8' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', description: 'When the request was sent' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true, description: 'Null while in flight, or when the instance stopped mid-attempt' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The receiver's HTTP status; null when none came back" }),
    latencyMs: t.exposeInt('latencyMs', { nullable: true, description: 'Milliseconds until the answer (or the failure); null while in flight' }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why the attempt failed without an HTTP answer, e.g. a timeout (10 s) or a connection error; null when an answer came',
    }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true, description: "The first 1 KiB of the receiver's answer" }),
  }),
});

export const WebhookDeliveryRef = builder.loadableNodeRef<WebhookDelivery>('WebhookDelivery', {
  id: { resolve: (d) => d.id },
  load: (ids: string[], ctx) => ctx.services.webhooks.loadDeliveries(scopeOf(ctx), ids),
  sort: (d) => d.id,
});

WebhookDeliveryRef.implement({
  description: 'One event sent to one webhook: its status and every attempt',
  fields: (t) => ({
    databaseId: t.expose('id', { type: 'UUID', description: 'The id of this delivery' }),
    endpoint: t.field({
      type: WebhookEndpointRef,
      nullable: true,
      description: 'The webhook it went to; null once that webhook is deleted (its deliveries stay listed)',
      resolve: (d, _, ctx) =>
        WebhookEndpointRef.getDataloader(ctx)
          .load(d.endpointId)
          .catch(() => null),
    }),
    endpointId: t.expose('endpointId', { type: 'UUID', description: "The webhook's databaseId (kept after the webhook is deleted)" }),
    eventId: t.expose('eventId', { type: 'UUID', description: "The event's databaseId; also the webhook-id header of every attempt" }),
    eventType: t.field({ type: EventTypeEnum, description: 'The type of the event sent', resolve: (d) => d.eventType as (typeof EventTypeEnum)['$inferType'] }),
    redelivery: t.boolean({ description: 'Asked for with redeliverEvent', resolve: (d) => d.trigger === 'redelivery' }),
    status: t.field({ type: DeliveryStatusEnum, description: 'Pending, succeeded, failed or canceled', resolve: (d) => d.status }),
    attemptCount: t.exposeInt('attemptCount', { description: 'Attempts made so far (at most 8)' }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'When the next attempt is due; null once the delivery is over' }),
    lastStatusCode: t.exposeInt('lastStatusCode', {
      nullable: true,
      description: "The last attempt's HTTP status; null when none came back or before the first",
    }),
    lastError: t.exposeString('lastError', { nullable: true, description: "The last attempt's error without an HTTP answer; else null" }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the delivery was scheduled' }),
    completedAt: t.expose('completedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it succeeded, failed or was canceled; null while pending',
    }),
    attempts: t.loadableGroup({
      type: AttemptRef,
      description: 'Every attempt, oldest first',
      load: (ids: string[], ctx) => ctx.services.webhooks.attemptsOf(scopeOf(ctx), ids),
      group: (attempt) => attempt.deliveryId,
      resolve: (delivery) => delivery.id,
    }),
  }),
});

export const WebhookDeliveryConnection = nodeConnection(WebhookDeliveryRef, 'WebhookDelivery');

const webhookIdOf = (id: string | number) => databaseIdOf(id, 'WebhookEndpoint');

builder.queryFields((t) => ({
  webhookEndpoints: t.connection(
    {
      keyScope: 'read',
      type: WebhookEndpointRef,
      description: `The caller's webhooks in this environment, oldest first (never their secrets).`,
      ...connectionFieldOptions(),
      resolve: (_, args, ctx, info) =>
        resolveKeysetPage(ctx, info, args, ownPosition, (page) => ctx.services.webhooks.listPage(scopeOf(ctx), page), {
          count: () => ctx.services.webhooks.countEndpoints(scopeOf(ctx)),
        }),
    },
    WebhookEndpointConnection,
  ),
  webhookEndpoint: t.field({
    keyScope: 'read',
    type: WebhookEndpointRef,
    nullable: true,
    description: "One of the caller's webhooks by global id or databaseId; null when unknown, deleted or another partner's.",
    args: { id: t.arg.id({ required: true, description: 'Its global id, or its databaseId (the id REST shows)' }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.webhooks.get(scopeOf(ctx), webhookIdOf(id))),
  }),
  webhookDeliveries: t.connection(
    {
      keyScope: 'read',
      type: WebhookDeliveryRef,
      description: 'Webhook deliveries with every attempt, oldest first (use `last` for the newest), at most 100 a page.',
      args: {
        endpointId: t.arg.id({ description: "Only this webhook's (global id or databaseId; an unknown one is an error)" }),
        eventId: t.arg.id({ description: "Only this event's (global id or databaseId)" }),
        status: t.arg({ type: DeliveryStatusEnum, description: 'Only deliveries in this status' }),
      },
      ...connectionFieldOptions(),
      resolve: (_, args, ctx, info) => {
        const filter = {
          endpointId: optionalDatabaseIdOf(args.endpointId, 'WebhookEndpoint'),
          eventId: optionalDatabaseIdOf(args.eventId, 'Event'),
          status: undefinedIfNull(args.status),
        };
        return resolveKeysetPage(ctx, info, args, ownPosition, (page) => ctx.services.webhooks.deliveries(scopeOf(ctx), filter, page), {
          count: () => ctx.services.webhooks.countDeliveries(scopeOf(ctx), filter),
        });
      },
    },
    WebhookDeliveryConnection,
  ),
}));

/**
 * The signing secret shown next to the endpoint in the one response that creates or rotates it:
 * kept beside the endpoint object for that response only, never stored in clear.
 */
const shownSecrets = new WeakMap<WebhookEndpoint, string>();
const showingSecret = ({ endpoint, secret }: EndpointWithSecret) => {
  shownSecrets.set(endpoint, secret);
  return endpoint;
};
/** The `secret` field of the payloads that show it (registerWebhook, rotateWebhookSecret). */
const secretField = {
  description: 'The whsec_ signing secret. Shown only in this response: store it now.',
  resolve: (endpoint: WebhookEndpoint | string) => {
    const secret = typeof endpoint === 'string' ? undefined : shownSecrets.get(endpoint);
    if (secret === undefined) throw new Error('The payload lost its signing secret');
    return secret;
  },
};

const RegisterWebhookInputRef = builder.inputType('RegisterWebhookInput', {
  description: 'A webhook to register (REST: POST /v0/webhooks)',
  fields: (t) => ({
    url: t.string({ required: true, description: 'Where events are POSTed; production keys need a public https URL' }),
    subscriptionQuery: t.string({
      description:
        'A subscription over `events` (one operation, no variables, `types` as a literal, which also filters what the webhook receives): ' +
        'each delivery\'s body is then its result for the event, `{"data": {"events": {…}}}`, run as your partner and environment. ' +
        'Checked now against the schema and the query limits (ValidationError at /subscriptionQuery). Without it, the Align-compatible body.',
    }),
    idempotencyKey: idempotencyKeyField(t),
  }),
});
const webhookIdInput = (name: string) =>
  builder.inputType(name, {
    description: 'The webhook the mutation acts on',
    fields: (t) => ({ id: t.id({ required: true, description: 'The webhook (global id or databaseId)' }) }),
  });
const DeleteWebhookInputRef = webhookIdInput('DeleteWebhookInput');
const EnableWebhookInputRef = webhookIdInput('EnableWebhookInput');
const DisableWebhookInputRef = webhookIdInput('DisableWebhookInput');
const RotateWebhookSecretInputRef = webhookIdInput('RotateWebhookSecretInput');
const RedeliverEventInputRef = builder.inputType('RedeliverEventInput', {
  description: 'Which event to send again, and to which webhook',
  fields: (t) => ({
    eventId: t.id({ required: true, description: 'The event (global id or databaseId)' }),
    endpointId: t.id({ required: true, description: 'The webhook to send it to (global id or databaseId)' }),
  }),
});

builder.mutationFields((t) => ({
  registerWebhook: t.field({
    keyScope: 'webhooks',
    type: WebhookEndpointRef,
    description:
      'POST /v0/webhooks: production keys need a public https URL. ConflictError webhook_url_taken or webhook_endpoint_limit. The payload carries the signing secret, once.',
    errors: {
      ...payloadOf('RegisterWebhook', 'webhookEndpoint', [ValidationError, ConflictError, UnprocessableError]),
      result: {
        name: 'RegisterWebhookPayload',
        description: 'What registerWebhook returns when it succeeds: the webhook and its signing secret, shown once',
        fields: (t) => ({ secret: t.string(secretField) }),
      },
    },
    args: {
      input: t.arg({ type: RegisterWebhookInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: async (_, { input }, ctx) => {
      // The input is the use case's (NewWebhook); its errors' paths name its fields (/url, /subscriptionQuery). DNS is checked before any
      // transaction, so it cannot be creatingMutation's run (which runs inside one).
      const webhook = { url: input.url, subscriptionQuery: input.subscriptionQuery };
      const registration = await withInputPaths(ctx.services.webhooks.prepareRegistration(scopeOf(ctx), webhook));
      return idempotentMutation(
        ctx,
        'registerWebhook',
        input,
        (scope) => ctx.services.webhooks.register(scope, registration),
        showingSecret,
        (id) => ctx.services.webhooks.withSecret(scopeOf(ctx), id).then(showingSecret),
      );
    },
  }),
  deleteWebhook: t.field({
    keyScope: 'webhooks',
    type: 'ID',
    description: 'The webhook receives nothing more; pending deliveries are canceled. Returns its global id (drop it from your store).',
    errors: payloadOf('DeleteWebhook', 'deletedWebhookId', [NotFoundError], 'The global id the deleted webhook had (drop it from your store)'),
    args: {
      input: t.arg({ type: DeleteWebhookInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: async (_, { input }, ctx) => {
      const id = webhookIdOf(input.id);
      await ctx.services.webhooks.delete(scopeOf(ctx), id);
      return globalIdOf('WebhookEndpoint', id);
    },
  }),
  enableWebhook: t.field({
    keyScope: 'webhooks',
    type: WebhookEndpointRef,
    description: 'Receives the events committed from now on; what happened while disabled is in the events query.',
    errors: payloadOf('EnableWebhook', 'webhookEndpoint', [NotFoundError]),
    args: {
      input: t.arg({ type: EnableWebhookInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: (_, { input }, ctx) => ctx.services.webhooks.enable(scopeOf(ctx), webhookIdOf(input.id)),
  }),
  disableWebhook: t.field({
    keyScope: 'webhooks',
    type: WebhookEndpointRef,
    description: 'Stops deliveries and cancels pending ones; events go on being recorded (see the events query).',
    errors: payloadOf('DisableWebhook', 'webhookEndpoint', [NotFoundError]),
    args: {
      input: t.arg({ type: DisableWebhookInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: (_, { input }, ctx) => ctx.services.webhooks.disable(scopeOf(ctx), webhookIdOf(input.id)),
  }),
  rotateWebhookSecret: t.field({
    keyScope: 'webhooks',
    type: WebhookEndpointRef,
    description: 'A new signing secret (in the payload, once); for 24 hours deliveries carry a signature with the old one too.',
    errors: {
      ...payloadOf('RotateWebhookSecret', 'webhookEndpoint', [NotFoundError]),
      result: {
        name: 'RotateWebhookSecretPayload',
        description: 'What rotateWebhookSecret returns when it succeeds: the webhook and its signing secret, shown once',
        fields: (t) => ({ secret: t.string(secretField) }),
      },
    },
    args: {
      input: t.arg({ type: RotateWebhookSecretInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: (_, { input }, ctx) => ctx.services.webhooks.rotateSecret(scopeOf(ctx), webhookIdOf(input.id)).then(showingSecret),
  }),
  redeliverEvent: t.field({
    keyScope: 'webhooks',
    type: WebhookDeliveryRef,
    description:
      'Sends an event to a webhook again (same webhook-id), as a new delivery with a new retry schedule. ConflictError webhook_disabled when the webhook is disabled.',
    errors: payloadOf('RedeliverEvent', 'delivery', [NotFoundError, ConflictError]),
    args: {
      input: t.arg({ type: RedeliverEventInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: (_, { input }, ctx) => ctx.services.webhooks.redeliver(scopeOf(ctx), databaseIdOf(input.eventId, 'Event'), webhookIdOf(input.endpointId)),
  }),
}));
