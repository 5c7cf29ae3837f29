import type { OutboxEvent } from '../../platform/outbox.js';

/**
 * An event as a webhook delivers it and GET /v0/events lists it (DESIGN §7, a superset of Align's):
 * `event_payload` is the full object as REST shows it at the time of the event.
 */
export function presentEvent(event: OutboxEvent) {
  return {
    event_id: event.id,
    event_type: event.type,
    entity_id: event.entityId,
    entity_type: event.entityType,
    created_at: event.createdAt.toISOString(),
    event_payload: event.payload,
  };
}

/** The events API adds each event's cursor, to resume from. */
export const presentListedEvent = (event: OutboxEvent) => ({ cursor: event.cursor, ...presentEvent(event) });
