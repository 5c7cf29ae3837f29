import { z } from 'zod';
import { named, timestampAnswer, uuidAnswer } from '../../rest/openapi/schemas.js';
import { WEBHOOK_STATUSES } from './entities.js';
import { type NewWebhook, subscriptionQuery, webhookUrl } from './inputs.js';

const queryDescription =
  'Extension: a GraphQL subscription over `events` (one operation, no variables, `types` as a literal); each delivery\'s body is its result for the event, `{"data": {"events": {…}}}`. Absent: the Align-compatible body.';

/** The REST webhook body with the domain's field rule, and its mapping to the use case's input. */
export const NewWebhookBody = z.strictObject({
  url: webhookUrl,
  subscription_query: subscriptionQuery.nullish().meta({ description: queryDescription }),
});

export const newWebhookOf = (body: z.infer<typeof NewWebhookBody>): NewWebhook => ({ url: body.url, subscriptionQuery: body.subscription_query });

// ——— Answers (the OpenAPI document's response schemas; presenters.ts builds them) ———

/** The partner API's webhook object. */
export const WebhookAnswer = named(
  'Webhook',
  z.strictObject({
    id: uuidAnswer(),
    url: z.string(),
    status: z.enum(WEBHOOK_STATUSES),
    created_at: timestampAnswer(),
    subscription_query: z.string().meta({ description: 'Extension: present only on a webhook registered with a subscription query' }).optional(),
  }),
);

/** The 201: the webhook and its signing secret, which no other answer shows. */
export const RegisteredWebhookAnswer = named(
  'RegisteredWebhook',
  z.strictObject({
    ...WebhookAnswer.shape,
    secret: z.string().meta({ description: 'Standard Webhooks signing secret (`whsec_…`); shown once' }),
  }),
);
