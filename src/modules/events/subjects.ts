import type { EntityClass, EntityProperty } from '@mikro-orm/core';
import type { ObjectRef } from '@pothos/core';
import type { EntityManager } from '@mikro-orm/sql';
import { builder } from '../../graphql/builder.js';
import { type GraphQLContext, scopeOf } from '../../graphql/context.js';
import type { EventSubject } from '../../feature.js';
import type { PartnerEvent } from './service.js';

export const KEPT = Symbol('kept at an event');
export interface KeptAt {
  eventId: string;
  entityId: string;
  occurredAt: Date;
}
export type Kept<T extends object> = T & { [KEPT]: KeptAt };

/** `value` as an event kept it: a copy (the value may be a dataloader's live object), marked with the event. */
export function keptAt<T extends object>(value: T, at: KeptAt): Kept<T> {
  return Object.assign(Object.create(Object.getPrototypeOf(value)) as T, value, { [KEPT]: at });
}

export const isKept = (value: object): value is Kept<object> => KEPT in value;

/** Which snapshot type each kept value is (set where it is made, read by unions and interfaces). */
export const snapshotTypeOf = new WeakMap<object, string>();

/** What a subject's GraphQL type is to this module: a Pothos loadable node ref, a member of the union. */
type SubjectRef = ObjectRef<typeof builder.$inferSchemaTypes, object> & { getDataloader(ctx: GraphQLContext): { load(id: string): Promise<unknown> } };

/**
 * Each kind of object an event is about, by the event's entityType: its GraphQL type, dataloader and
 * entity. Each feature registers its own (`Feature.subjects`, gathered by the events feature before the
 * schema is built), so this module names no other module's types or entities.
 */
const SUBJECT_TYPES = new Map<string, { ref: SubjectRef; snapshot: SnapshotRef; entity: EntityClass<object>; present?: (kept: object) => object }>();
type SnapshotRef = ObjectRef<typeof builder.$inferSchemaTypes, object>;

export function registerEventSubjects(subjects: Readonly<Record<string, EventSubject>>): void {
  for (const [entityType, { ref, snapshot, entity, present }] of Object.entries(subjects)) {
    SUBJECT_TYPES.set(entityType, { ref: ref as SubjectRef, snapshot: snapshot as SnapshotRef, entity, present });
  }
}

export const EventSubjectUnion = builder.unionType('EventSubject', {
  description:
    "The object an event is about, as it was when the event happened: a snapshot with an id of its own (the event's), so a normalized cache never rolls the live object back. `live` on it is the object as it is now.",
  // A thunk: the features register their subjects before the schema is built, after this file loads.
  types: () => [...SUBJECT_TYPES.values()].map((s) => s.snapshot),
  resolveType: (subject) => snapshotTypeOf.get(subject) ?? null,
});

/**
 * The event's subject as the event kept it (its columns at that moment, credentials and personal
 * data left out, numbers masked), read from the event alone: a fanned-out event costs no query per
 * subscriber. An event older than kept subjects shows the object as it is now (null once the caller
 * can no longer read it). Relations (a transfer's quote or customer) load as they are now.
 */
export async function subjectOf(event: PartnerEvent, ctx: GraphQLContext): Promise<Kept<object> | null> {
  const kind = SUBJECT_TYPES.get(event.entityType);
  if (!kind) return null;
  // A kept snapshot is shown as its type resolves from (a transfer's node wraps its row: `present`).
  const subject = event.subject
    ? (kind.present ?? ((kept: object) => kept))(restored(scopeOf(ctx).em, kind.entity, event.subject))
    : await liveSubject(event, ctx);
  if (!subject) return null;
  const kept = keptAt(subject, { eventId: event.id, entityId: event.entityId, occurredAt: event.createdAt });
  snapshotTypeOf.set(kept, kind.snapshot.name);
  return kept;
}

/** The object an event is about as it is now (what `transferUpdated` means: the live object changed), or null. */
export async function liveSubject(event: PartnerEvent, ctx: GraphQLContext): Promise<object | null> {
  const kind = SUBJECT_TYPES.get(event.entityType);
  if (!kind) return null;
  return (
    ((await kind.ref
      .getDataloader(ctx)
      .load(event.entityId)
      .catch(() => null)) as object | null) ?? null
  );
}

/** The kept JSON back in the entity's own types, as its metadata declares them: dates, money as Decimal. */
function restored(em: EntityManager, entity: EntityClass<object>, snapshot: Record<string, unknown>): Record<string, unknown> {
  const meta = em.getMetadata().find(entity);
  const platform = em.getPlatform();
  return Object.fromEntries(
    Object.entries(snapshot).map(([key, value]) => {
      const prop = meta?.properties[key as never] as EntityProperty | undefined;
      if (value == null || !prop) return [key, value];
      if (prop.customType) return [key, prop.customType.convertToJSValue(value, platform)];
      return [key, prop.runtimeType === 'Date' ? new Date(value as string) : value];
    }),
  );
}
