import { decodeGlobalID } from '@pothos/plugin-relay';
import { type GraphQLResolveInfo, isObjectType } from 'graphql';
import { isUuid } from '../../domain/identifiers/uuid.js';
import { builder } from '../builder.js';
import { nodesPrice } from '../guards/prices.js';

/**
 * The database id an id argument names for objects of `typename`: a global id of that type, or the
 * object's UUID as REST shows it (`databaseId`), so partners can join both faces. Anything else
 * (another type's global id, garbage) becomes an id no row has: the lookup then answers not found
 * (null for a query, NotFoundError for a mutation), exactly like an unknown or foreign id.
 */
export function databaseIdOf(id: string | number, ...typenames: string[]): string {
  const value = String(id);
  if (isUuid(value)) return value.toLowerCase();
  try {
    const decoded = decodeGlobalID(value);
    if (typenames.includes(decoded.typename) && isUuid(decoded.id)) return decoded.id.toLowerCase();
  } catch {
    // not a global id: fall through
  }
  return '';
}

/** The same for an optional argument: absent stays absent. */
export const optionalDatabaseIdOf = (id: string | number | null | undefined, ...typenames: string[]) =>
  id == null ? undefined : databaseIdOf(id, ...typenames);

/** Most ids one nodes(ids:) call loads. */
export const MAX_NODES = 100;

/**
 * A global id as the relay plugin loads it, or null when it names no object of ours: not a global
 * id, a type without a global id, or an id that is not a UUID.
 */
function nodeIdOf(id: string | number, info: GraphQLResolveInfo): { type: string; id: string } | null {
  try {
    const decoded = decodeGlobalID(String(id));
    const type = info.schema.getType(decoded.typename);
    const isNode = isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node');
    return isNode && isUuid(decoded.id) ? { type: decoded.typename, id: decoded.id.toLowerCase() } : null;
  } catch {
    return null;
  }
}

// Each type loads through its dataloader, scoped to the caller: another partner's or environment's id reads as null.
builder.queryFields((t) => ({
  node: t.node({
    keyScope: 'read',
    description: "Any object by its global id; null when unknown (or another partner's or environment's)",
    args: { id: t.arg.id({ required: true, description: 'Its global id, or its databaseId (the id REST shows)' }) },
    id: (_, { id }, _ctx, info) => nodeIdOf(id, info),
  }),
  nodes: t.nodeList({
    keyScope: 'read',
    description: `Objects by global id, in the order asked; null for each unknown id (at most ${MAX_NODES})`,
    args: { ids: t.arg.idList({ required: true, description: `Global ids, at most ${MAX_NODES}` }) },
    validate: [(args) => args.ids.length <= MAX_NODES, { message: `must hold at most ${MAX_NODES} ids`, path: ['ids'] }],
    complexity: nodesPrice,
    ids: (_, { ids }, _ctx, info) => ids.map((id) => nodeIdOf(id, info)),
  }),
}));
