import type { FeatureScopes } from '../../platform/route-scopes.js';

/**
 * What each REST route (by operationId) and GraphQL root field of this module needs of the API key
 * (domain/scopes.ts). Webhooks: reading them is `read` like every read; registering, changing and redelivering are
 * webhook administration, `webhooks`. A route or field left out stops Ramp's start.
 */
export const NEEDED_SCOPES = {
  rest: {
    registerWebhook: 'webhooks',
    listWebhooks: 'read',
    deleteWebhook: 'webhooks',
  },
  graphql: {
    'Query.webhookEndpoints': 'read',
    'Query.webhookEndpoint': 'read',
    'Query.webhookDeliveries': 'read',
    'Mutation.registerWebhook': 'webhooks',
    'Mutation.deleteWebhook': 'webhooks',
    'Mutation.enableWebhook': 'webhooks',
    'Mutation.disableWebhook': 'webhooks',
    'Mutation.rotateWebhookSecret': 'webhooks',
    'Mutation.redeliverEvent': 'webhooks',
  },
  // The endpoint registerWebhook made or a webhook mutation changed: its own settings, no customer's data.
  readableTypes: { WebhookEndpoint: 'webhooks' },
} as const satisfies FeatureScopes;
