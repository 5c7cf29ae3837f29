import type { WebhookEndpoint } from './entities.js';

/** The webhook object of spec §2.6. */
export const presentWebhook = (endpoint: WebhookEndpoint) => ({
  id: endpoint.id,
  url: endpoint.url,
  status: endpoint.status,
  created_at: endpoint.createdAt.toISOString(),
});

/** The create response: the webhook and its signing secret, which no other response shows. */
export const presentRegisteredWebhook = ({ endpoint, secret }: { endpoint: WebhookEndpoint; secret: string }) => ({
  ...presentWebhook(endpoint),
  secret,
});
