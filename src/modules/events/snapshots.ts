import type { FieldMap, InterfaceParam, ObjectRef } from '@pothos/core';
import { builder } from '../../graphql/builder.js';
import { type GraphQLContext, scopeOf } from '../../graphql/context.js';
import { KEPT, type Kept, isKept, snapshotTypeOf, subjectOf } from './subjects.js';

export { type Kept, keptAt, snapshotTypeOf } from './subjects.js';

/**
 * Historical views are not the live object (DESIGN, Style): an object as an event kept it is a
 * snapshot, with a type and a global id of its own (the event's), so a client's normalized cache
 * (Relay, Apollo, urql's graphcache) never stores an old status over the live object. It has the
 * live type's own fields as they were, `occurredAt`, and `live`: the object as it is now.
 */
type Types = typeof builder.$inferSchemaTypes;
type LiveRef = ObjectRef<Types, object> & { getDataloader(ctx: GraphQLContext): { load(id: string): Promise<unknown> } };

/**
 * The snapshot type of a live node type: `<Name>Snapshot`, a Node whose id is the event's, with the
 * live type's own fields (`fields`, the same function the live type is built from) and the
 * interfaces it shares with the live type (a transfer snapshot is a `Transfer`, so the fragments a
 * client already has select it).
 */
export function snapshotRef<Shape extends object>(
  live: { name: string; $inferType: Shape | string },
  options: {
    description: string;
    /** The live type's own fields (given the snapshot's field builder: the kept value has the live shape). */
    fields: (t: PothosSchemaTypes.ObjectFieldBuilder<Types, Kept<Shape>>) => FieldMap;
    interfaces?: InterfaceParam<Types>[];
  },
) {
  const name = `${live.name}Snapshot`;
  const ref = builder.loadableNodeRef<Kept<Shape>>(name, {
    id: { resolve: (s) => s[KEPT].eventId },
    // node(id:) of a snapshot: its event, read in the caller's scope, then its subject as kept.
    load: async (eventIds: string[], ctx) => {
      const events = await ctx.services.events.loadMany(scopeOf(ctx), eventIds);
      const subjects = await Promise.all(events.map((event) => subjectOf(event, ctx)));
      return subjects.flatMap((s) => (s && snapshotTypeOf.get(s) === name ? [s as Kept<Shape>] : []));
    },
    sort: (s) => s[KEPT].eventId,
  });
  ref.implement({
    description: options.description,
    interfaces: options.interfaces ?? [],
    isTypeOf: (value) => typeof value === 'object' && value !== null && isKept(value) && snapshotTypeOf.get(value) === name,
    fields: (t) => ({
      ...options.fields(t as never),
      occurredAt: t.field({ type: 'DateTime', description: 'When the event that kept this view happened', resolve: (s) => s[KEPT].occurredAt }),
      live: t.field({
        type: live as unknown as ObjectRef<Types, Shape>,
        nullable: true,
        description: 'The object as it is now (null once you can no longer read it)',
        resolve: ((s: Kept<Shape>, _: unknown, ctx: GraphQLContext) =>
          (live as unknown as LiveRef)
            .getDataloader(ctx)
            .load(s[KEPT].entityId)
            .catch(() => null)) as never,
      }),
    }),
  });
  return ref;
}
