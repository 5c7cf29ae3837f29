import { z } from 'zod';
import { HTTP_URL_PATTERN } from '../../domain/validation.js';
import { DELIVERY_STATUSES } from './entities.js';

export const webhookUrl = z.string().trim().min(1, 'is required').max(2048, 'must be at most 2048 characters').meta({
  format: 'uri',
  pattern: HTTP_URL_PATTERN,
  'x-ramp-checks': 'a host that resolves (DNS, when registered) to public addresses',
  description:
    'An absolute http(s) URL without credentials or #fragment whose host resolves to public addresses (400 `url_not_public` otherwise), https with a production key; a sandbox key on a development deployment may also name this machine (`http://127.0.0.1:…`)',
});

/** A GraphQL subscription over `events` whose result is each delivery's body (subscription-query.ts checks it against the schema). */
export const subscriptionQuery = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(10_000, 'must be at most 10000 characters long')
  .meta({
    examples: ['subscription { events(types: CUSTOMER_CREATED) { type subject { ... on CustomerSnapshot { databaseId email } } } }'],
    'x-ramp-checks': 'a GraphQL subscription over events, valid against the schema',
  });

/** An endpoint to register: its URL, checked against the rules of the caller's environment, and optionally the query that makes its bodies. */
export const NewWebhook = z.strictObject({ url: webhookUrl, subscriptionQuery: subscriptionQuery.nullish() });
export type NewWebhook = z.input<typeof NewWebhook>;

/** Which deliveries to list: of one endpoint, of one event, in one status (any combination). */
export const DeliveryFilter = z.strictObject({
  endpointId: z.string().optional(),
  eventId: z.string().optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
});
export type DeliveryFilter = z.input<typeof DeliveryFilter>;
