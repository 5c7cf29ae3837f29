import { z } from 'zod';
import { EVENT_TYPES } from '../../domain/events.js';
import { named, timestampAnswer, uuidAnswer } from '../../rest/openapi/schemas.js';

/** An event as GET /v0/events lists it: a webhook's body with its cursor. */
export const ListedEventAnswer = named(
  'Event',
  z.strictObject({
    cursor: z.string().meta({ description: 'Resume after this event with `?after=`' }),
    event_id: uuidAnswer(),
    event_type: z.enum(EVENT_TYPES),
    entity_id: z.string(),
    entity_type: z.string(),
    created_at: timestampAnswer(),
    event_payload: z.looseObject({}).meta({ description: 'The object as REST shows it at the time of the event' }),
  }),
);

export const EventPageAnswer = z.strictObject({
  items: z.array(ListedEventAnswer),
  has_more: z.boolean(),
  next_cursor: z.string().meta({ description: 'Where the next page starts (`?after=`), also when this one is empty' }),
});
