import { resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { undefinedIfNull } from '../../graphql/arguments.js';
import { builder } from '../../graphql/builder.js';
import { scopeOf } from '../../graphql/context.js';
import { MUTATION_ERRORS, nullIfNotFound, withInputPaths } from '../../graphql/errors.js';
import { idempotentMutation } from '../../graphql/idempotency.js';
import { cursorOf } from '../../platform/pagination.js';
import { DELIVERY_STATUSES, DISABLED_REASONS, WEBHOOK_STATUSES, type WebhookDelivery, type WebhookDeliveryAttempt, type WebhookEndpoint } from './entities.js';
import type { EndpointWithSecret } from './service.js';
import { pageSizeRule } from '../../graphql/connection.js';
import { connectionComplexity, edgesCountedByPage } from '../../graphql/limits.js';

const WebhookStatusEnum = builder.enumType('WebhookStatus', { values: WEBHOOK_STATUSES });
const DisabledReasonEnum = builder.enumType('WebhookDisabledReason', { values: DISABLED_REASONS });
const DeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', { values: DELIVERY_STATUSES });

const WebhookEndpointRef = builder.objectRef<WebhookEndpoint>('WebhookEndpoint').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    status: t.field({ type: WebhookStatusEnum, resolve: (w) => w.status }),
    disabledReason: t.field({ type: DisabledReasonEnum, nullable: true, resolve: (w) => w.disabledReason ?? null }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const WebhookEndpointWithSecretRef = builder.objectRef<EndpointWithSecret>('WebhookEndpointWithSecret').implement({
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpointRef, resolve: (r) => r.endpoint }),
    secret: t.exposeString('secret', { description: 'The whsec_ signing secret. Shown only in this response: store it now.' }),
  }),
});

const AttemptRef = builder.objectRef<WebhookDeliveryAttempt>('WebhookDeliveryAttempt').implement({
  fields: (t) => ({
    number: t.exposeInt('number'),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true, description: 'Null while in flight, or when the instance stopped mid-attempt' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The receiver's HTTP status; null when none came back" }),
    latencyMs: t.exposeInt('latencyMs', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
    responseExcerpt: t.exposeString('responseExcerpt', { nullable: true, description: "The first 1 KiB of the receiver's answer" }),
  }),
});

const DeliveryRef = builder.objectRef<WebhookDelivery>('WebhookDelivery').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    endpointId: t.exposeID('endpointId'),
    eventId: t.exposeID('eventId', { description: 'Also the webhook-id header of every attempt' }),
    eventType: t.exposeString('eventType'),
    redelivery: t.boolean({ description: 'Asked for with redeliverEvent', resolve: (d) => d.trigger === 'redelivery' }),
    status: t.field({ type: DeliveryStatusEnum, resolve: (d) => d.status }),
    attemptCount: t.exposeInt('attemptCount'),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    lastStatusCode: t.exposeInt('lastStatusCode', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    attempts: t.loadableGroup({
      type: AttemptRef,
      description: 'Every attempt, oldest first',
      load: (ids: string[], ctx) => ctx.services.webhooks.attemptsOf(scopeOf(ctx), ids),
      group: (attempt) => attempt.deliveryId,
      resolve: (delivery) => delivery.id,
    }),
  }),
});

builder.queryFields((t) => ({
  webhookEndpoints: t.field({
    type: [WebhookEndpointRef],
    description: "The caller's webhooks in this environment, oldest first (never their secrets).",
    resolve: (_, __, ctx) => ctx.services.webhooks.list(scopeOf(ctx)),
  }),
  webhookEndpoint: t.field({
    type: WebhookEndpointRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => nullIfNotFound(ctx.services.webhooks.get(scopeOf(ctx), String(id))),
  }),
  webhookDeliveries: t.connection(
    {
      type: DeliveryRef,
      description: 'Webhook deliveries with every attempt, oldest first (use `last` for the newest), at most 100 a page.',
      args: {
        endpointId: t.arg.id(),
        eventId: t.arg.id(),
        status: t.arg({ type: DeliveryStatusEnum }),
      },
      validate: pageSizeRule(),
      complexity: connectionComplexity(20),
      resolve: (_, args, ctx) =>
        resolveCursorConnection({ args, toCursor: cursorOf, defaultSize: 20, maxSize: 100 }, (page: ResolveCursorConnectionArgs) =>
          ctx.services.webhooks.deliveries(
            scopeOf(ctx),
            {
              endpointId: undefinedIfNull(args.endpointId?.toString()),
              eventId: undefinedIfNull(args.eventId?.toString()),
              status: undefinedIfNull(args.status),
            },
            page,
          ),
        ),
    },
    edgesCountedByPage,
  ),
}));

const withId = (r: EndpointWithSecret) => ({ ...r, id: r.endpoint.id });

builder.mutationFields((t) => ({
  registerWebhook: t.field({
    type: WebhookEndpointWithSecretRef,
    description: 'POST /v0/webhooks: production keys need a public https URL.',
    errors: { types: MUTATION_ERRORS },
    args: { url: t.arg.string({ required: true }), idempotencyKey: t.arg.string() },
    resolve: async (_, args, ctx) => {
      // The arguments are the use case's input (NewWebhook); its errors' paths name them (/url).
      const registration = await withInputPaths(ctx.services.webhooks.prepareRegistration(scopeOf(ctx), { url: args.url }));
      return idempotentMutation(
        ctx,
        'registerWebhook',
        args,
        (em) => ctx.services.webhooks.register({ ...scopeOf(ctx), em }, registration).then(withId),
        (id) => ctx.services.webhooks.withSecret(scopeOf(ctx), id).then(withId),
      );
    },
  }),
  deleteWebhook: t.field({
    type: 'ID',
    description: 'The webhook receives nothing more; pending deliveries are canceled. Returns its id.',
    errors: { types: MUTATION_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, ctx) => {
      await ctx.services.webhooks.delete(scopeOf(ctx), String(id));
      return String(id);
    },
  }),
  enableWebhook: t.field({
    type: WebhookEndpointRef,
    errors: { types: MUTATION_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => ctx.services.webhooks.enable(scopeOf(ctx), String(id)),
  }),
  disableWebhook: t.field({
    type: WebhookEndpointRef,
    description: 'Stops deliveries and cancels pending ones; events go on being recorded (see the events query).',
    errors: { types: MUTATION_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => ctx.services.webhooks.disable(scopeOf(ctx), String(id)),
  }),
  rotateWebhookSecret: t.field({
    type: WebhookEndpointWithSecretRef,
    description: 'A new signing secret; for 24 hours deliveries carry a signature with the old one too.',
    errors: { types: MUTATION_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => ctx.services.webhooks.rotateSecret(scopeOf(ctx), String(id)),
  }),
  redeliverEvent: t.field({
    type: DeliveryRef,
    description: 'Sends an event to a webhook again (same webhook-id), with a new retry schedule.',
    errors: { types: MUTATION_ERRORS },
    args: { eventId: t.arg.id({ required: true }), endpointId: t.arg.id({ required: true }) },
    resolve: (_, { eventId, endpointId }, ctx) => ctx.services.webhooks.redeliver(scopeOf(ctx), String(eventId), String(endpointId)),
  }),
}));
