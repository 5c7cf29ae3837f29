import { z } from 'zod';
import { EVENT_TYPES } from '../../domain/events.js';

/** An outbox cursor as handed out with every event: the decimal digits of its position. */
export const EventCursor = z.string().refine((v) => /^\d{1,18}$/.test(v), { message: 'is not a cursor this API returned', params: { code: 'invalid_cursor' } });

export const EventTypes = z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length);

export const ListEventsInput = z.strictObject({
  after: EventCursor.optional(),
  types: EventTypes.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const StreamEventsInput = z.strictObject({
  after: EventCursor.optional(),
  types: EventTypes.optional(),
});
