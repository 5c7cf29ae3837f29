import { z } from 'zod';
import { EVENT_TYPES } from '../../domain/events.js';
import { wholeNumberParameter } from '../../platform/reads/pagination.js';
import { looksLikeCursor } from './cursors.js';

/** An event cursor as handed out with every event (opaque, see cursors.ts), or "0" for the start of the stream. */
export const EventCursor = z
  .string()
  .refine(looksLikeCursor, { message: 'is not a cursor this API returned', params: { code: 'invalid_cursor' } })
  .meta({ examples: ['0'], 'x-ramp-checks': 'a cursor this API returned to you (sealed to your partner and environment), or 0 for the start' });

export const EventTypes = z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length);

/** A page of the events API: after a cursor, of some types, at most `limit` (1–100, 50 by default). */
export const EventListRequest = z.strictObject({
  after: EventCursor.optional(),
  types: EventTypes.optional(),
  limit: z.number().int().min(1).max(100).default(50),
});
export type EventListRequest = z.input<typeof EventListRequest>;

/** `types` as a comma-separated list or a repeated parameter. */
const typeList = (value: unknown) =>
  typeof value === 'string' || Array.isArray(value)
    ? [value]
        .flat()
        .flatMap((t) => String(t).split(','))
        .map((t) => t.trim())
        .filter(Boolean)
    : value;

/** `GET /v0/events?after&types&limit`: every parameter checked here, so one answer lists every problem. */
export const EventListQuery = z
  // Other query parameters are ignored, as on every REST list.
  .object({
    after: EventCursor.optional(),
    types: z.preprocess(typeList, EventTypes).optional(),
    limit: wholeNumberParameter(1, 100).optional(),
  })
  .transform((q): EventListRequest => q);

/** The `events` subscription's arguments. */
export const StreamEventsInput = z.strictObject({
  after: EventCursor.optional(),
  types: EventTypes.optional(),
});
