import { z } from 'zod';
import { type NewWebhook, webhookUrl } from './inputs.js';

/** The spec's webhook body (§4.6) with the domain's field rule, and its mapping to the use case's input. */
export const NewWebhookBody = z.strictObject({ url: webhookUrl });

export const newWebhookOf = (body: z.infer<typeof NewWebhookBody>): NewWebhook => ({ url: body.url });
