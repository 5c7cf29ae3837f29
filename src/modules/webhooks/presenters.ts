import type { WebhookEndpoint } from './entities.js';

/** The partner API's webhook object; `subscription_query` (an extension) only on a webhook that has one. */
export const presentWebhook = (endpoint: WebhookEndpoint) => ({
  id: endpoint.id,
  url: endpoint.url,
  status: endpoint.status,
  created_at: endpoint.createdAt.toISOString(),
  ...(endpoint.subscriptionQuery !== null && { subscription_query: endpoint.subscriptionQuery }),
});

/** The create response: the webhook and its signing secret, which no other response shows. */
export const presentRegisteredWebhook = ({ endpoint, secret }: { endpoint: WebhookEndpoint; secret: string }) => ({
  ...presentWebhook(endpoint),
  secret,
});
