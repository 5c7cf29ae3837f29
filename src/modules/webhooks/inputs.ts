import { z } from 'zod';
import { DELIVERY_STATUSES } from './entities.js';

export const webhookUrl = z.string().trim().min(1, 'is required').max(2048, 'must be at most 2048 characters');

/** An endpoint to register: its URL, checked against the rules of the caller's environment. */
export const NewWebhook = z.strictObject({ url: webhookUrl });
export type NewWebhook = z.input<typeof NewWebhook>;

/** Which deliveries to list: of one endpoint, of one event, in one status (any combination). */
export const DeliveryFilter = z.strictObject({
  endpointId: z.string().optional(),
  eventId: z.string().optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
});
export type DeliveryFilter = z.input<typeof DeliveryFilter>;
