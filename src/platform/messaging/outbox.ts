import { defineEntity, p, wrap } from '@mikro-orm/core';
import type { InferKyselyDB } from '@mikro-orm/sql';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../../domain/environment.js';
import { ENVIRONMENTS } from '../../domain/environment.js';
import type { EventType } from '../../domain/events.js';
import type { EntityManager } from '@mikro-orm/sql';
import { noteAuditedChange } from '../security/audit.js';
import { ADVISORY_LOCKS, lockUntilCommit } from '../db/locks.js';
import { activeTraceHeaders, inChildSpan } from '../observability/tracing.js';

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
    /** The subject entity's own columns at the event (secrets left out); null for events older than the column. */
    subject: p.json<Record<string, unknown>>().nullable(),
    /** The customer whose data the payload and subject copy, if any: erasure rewrites exactly that customer's events. */
    customerId: p.uuid().nullable(),
    /** The W3C trace context of the request that recorded it: its deliveries and pushes continue that trace. */
    traceparent: p.text().nullable(),
    tracestate: p.text().nullable(),
    createdAt: p.datetime(),
  },
});
export class OutboxEvent extends OutboxEventSchema.class {}
OutboxEventSchema.setClass(OutboxEvent);
export const outboxEntities = [OutboxEvent];
/** The outbox as typed reads see it (platform/reads/queries.ts): SQL names, the entity's value types. */
export type OutboxTables = InferKyselyDB<typeof OutboxEventSchema>;

export interface NewEvent {
  type: EventType;
  entityType: string;
  entityId: string;
  /**
   * The customer the event is about or belongs to (null for a partner's own objects): what erasure finds the
   * customer's copies by. Required, so no event that copies personal data can forget to name its customer.
   */
  customerId: string | null;
  /** The full object as REST shows it. */
  payload: object;
  /**
   * The entity the event is about, as it is now, kept for GraphQL's typed subject: `keep` says what of its
   * columns may be copied into the outbox (credentials and personal data stay in their table, numbers masked).
   */
  subject?: { entity: object; keep?: (columns: Record<string, unknown>) => Record<string, unknown> };
}

/** An entity's own columns as JSON, without the ones that must not be copied out of their table. */
function snapshotOf(subject: NonNullable<NewEvent['subject']>): string {
  const columns = wrap(subject.entity).toPOJO() as Record<string, unknown>;
  return JSON.stringify(subject.keep ? subject.keep(columns) : columns);
}

/** The newest committed cursor ('0' before the first event): a reader that starts there sees only what comes next. */
export async function outboxHead(em: EntityManager): Promise<string> {
  const [row] = await em.execute<{ cursor: string }[]>('select coalesce(max(cursor), 0)::text as cursor from events');
  return row?.cursor ?? '0';
}

/** The NOTIFY channel instances wake each other on; it carries only the cursor. */
export const EVENTS_CHANNEL = 'ramp_events';
/**
 * Takes the outbox's commit-order lock until the transaction ends. Whatever changes which events a
 * webhook receives (registering or enabling one) takes it too, so it is ordered with every event:
 * an event either commits before the change, or is written after it and sees it.
 */
export async function lockOutbox(em: EntityManager): Promise<void> {
  if (!em.isInTransaction()) throw new Error('lockOutbox must run inside a transaction');
  await lockUntilCommit(em, ADVISORY_LOCKS.outbox);
}

/**
 * Records an event in the caller's transaction, so it commits (or not) with the state change
 * it announces. The transaction-scoped advisory lock makes cursors commit in order: a reader
 * that has seen cursor N can never later find a smaller one appear.
 *
 * An event of a partner with no enabled webhook is written already dispatched, in the same
 * statement: the webhook dispatcher has nothing to fan out for it and never reads it.
 */
export async function recordEvent(em: EntityManager, actor: Actor, event: NewEvent): Promise<string> {
  if (!em.isInTransaction()) throw new Error('recordEvent must run inside the transaction of its state change');
  return inChildSpan('outbox.record', { attributes: { 'ramp.event.type': event.type, 'ramp.event.entity_type': event.entityType } }, async (span) => {
    const cursor = await insertEvent(em, actor, event);
    span?.setAttribute('ramp.event.cursor', cursor);
    return cursor;
  });
}

async function insertEvent(em: EntityManager, actor: Actor, event: NewEvent): Promise<string> {
  // The trace this write runs in (its own span's, with spans on): what deliveries and pushes continue.
  const trace = activeTraceHeaders();
  // The audit row of the call this transaction runs for commits with it and names this event's subject (platform/security/audit.ts).
  noteAuditedChange(em, { type: event.entityType, id: event.entityId });
  // Its own statement, not a CTE of the insert: a statement reads the snapshot it took before waiting for the lock.
  await lockUntilCommit(em, ADVISORY_LOCKS.outbox);
  // Read under the lock: a webhook registered or enabled before this point is seen (see lockOutbox).
  // The NOTIFY rides in the insert's statement (one round trip, not two); it is delivered at commit.
  const [row] = await em.execute<{ cursor: string }[]>(
    `with recorded as (
       insert into events (id, type, entity_type, entity_id, customer_id, partner_id, environment, payload, subject, traceparent, tracestate, created_at, dispatched_at)
       values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, now(),
         case when exists (select 1 from webhook_endpoints w where w.partner_id = ? and w.environment = ? and w.status = 'enabled' and w.deleted_at is null)
           then null else now() end)
       returning cursor::text as cursor
     )
     select cursor, pg_notify(?, cursor) from recorded`,
    [
      randomUUID(),
      event.type,
      event.entityType,
      event.entityId,
      event.customerId,
      actor.partnerId,
      actor.environment,
      JSON.stringify(event.payload),
      event.subject ? snapshotOf(event.subject) : null,
      trace?.traceparent ?? null,
      trace?.tracestate ?? null,
      actor.partnerId,
      actor.environment,
      EVENTS_CHANNEL,
    ],
  );
  return row!.cursor;
}
