import { z } from 'zod';
import { DELIVERY_STATUSES } from './entities.js';

export const RegisterWebhookInput = z.strictObject({
  url: z.string().trim().min(1, 'is required').max(2048, 'must be at most 2048 characters'),
});

export const DeliveryFilterInput = z.strictObject({
  endpointId: z.string().optional(),
  eventId: z.string().optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
});
export type DeliveryFilter = z.infer<typeof DeliveryFilterInput>;
