import type { OutboxEvent } from '../../platform/messaging/outbox.js';
import type { PartnerEvent } from './service.js';

/**
 * An event as a webhook delivers it and GET /v0/events lists it (a superset of Align's):
 * `event_payload` is the full object as REST shows it at the time of the event. No cursor: a webhook
 * body carries none, so it shows nothing of the outbox's position either.
 */
export function presentEvent(event: Pick<OutboxEvent, 'id' | 'type' | 'entityId' | 'entityType' | 'createdAt' | 'payload'>) {
  return {
    event_id: event.id,
    event_type: event.type,
    entity_id: event.entityId,
    entity_type: event.entityType,
    created_at: event.createdAt.toISOString(),
    event_payload: event.payload,
  };
}

/** The events API adds each event's cursor (sealed to the partner and environment), to resume from. */
export const presentListedEvent = (event: PartnerEvent) => ({ cursor: event.cursor, ...presentEvent(event) });
