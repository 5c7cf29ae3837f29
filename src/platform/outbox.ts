import { defineEntity, p } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../domain/environment.js';
import { ENVIRONMENTS } from '../domain/environment.js';
import type { EventType } from '../domain/events.js';
import type { EntityManager } from '@mikro-orm/sql';

const OutboxEventSchema = defineEntity({
  name: 'OutboxEvent',
  tableName: 'events',
  properties: {
    /** Commit-ordered position in the stream; what subscribers resume from. */
    cursor: p.bigint('string').primary().autoincrement(),
    id: p.uuid().unique(),
    type: p.text(),
    entityType: p.text(),
    entityId: p.uuid(),
    partnerId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    payload: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
  },
});
export class OutboxEvent extends OutboxEventSchema.class {}
OutboxEventSchema.setClass(OutboxEvent);
export const outboxEntities = [OutboxEvent];

export interface NewEvent {
  type: EventType;
  entityType: string;
  entityId: string;
  /** The full object as REST shows it. */
  payload: object;
}

/** The NOTIFY channel instances wake each other on; it carries only the cursor. */
export const EVENTS_CHANNEL = 'ramp_events';
// Any constant works: it only has to be the same for every writer of the outbox.
const OUTBOX_LOCK = 7_314_001;

/**
 * Records an event in the caller's transaction, so it commits (or not) with the state change
 * it announces. The transaction-scoped advisory lock makes cursors commit in order: a reader
 * that has seen cursor N can never later find a smaller one appear.
 */
export async function recordEvent(em: EntityManager, actor: Actor, event: NewEvent): Promise<string> {
  if (!em.isInTransaction()) throw new Error('recordEvent must run inside the transaction of its state change');
  await em.execute('select pg_advisory_xact_lock(?)', [OUTBOX_LOCK]);
  const [row] = await em.execute<{ cursor: string }[]>(
    `insert into events (id, type, entity_type, entity_id, partner_id, environment, payload, created_at)
     values (?, ?, ?, ?, ?, ?, ?::jsonb, now()) returning cursor::text as cursor`,
    [randomUUID(), event.type, event.entityType, event.entityId, actor.partnerId, actor.environment, JSON.stringify(event.payload)],
  );
  await em.execute('select pg_notify(?, ?)', [EVENTS_CHANNEL, row!.cursor]);
  return row!.cursor;
}
