import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';

/**
 * What a field's resolver reads of its parent record, kept on the field itself (its extensions) so a
 * list selects only the columns its selection reads, as PostGraphile does: a page of 100 transfers
 * that shows five fields parses five columns a row, not sixty. An exposed field reads its own
 * property (Pothos marks it `pothosExposedField`); a computed one says what it reads with `reads()`,
 * including a related record's properties (a transfer's `amount` reads its quote's). A field that
 * says nothing makes the read select whole rows: forgetting costs speed, never a wrong answer.
 */
interface Reads {
  own: readonly string[];
  related: Readonly<Record<string, readonly string[]>>;
}

/** The `extensions` of a field that reads `own` properties of its parent, and `related` ones of a joined record. */
export const reads = (own: readonly string[], related: Record<string, readonly string[]> = {}) => ({ reads: { own, related } satisfies Reads });

/** What a selection reads: of the record itself (`own`) and of each related record a field reads through. */
export interface Selected {
  own: readonly string[];
  related: Map<string, Set<string>>;
}

/**
 * What the `selected` fields of these types (an interface and its object types: a fragment may
 * select a field of either) read; `always` are read whatever the selection (the primary key, what
 * resolveType and cursors need). `id` (the global id) and `__typename` read nothing more. Null when
 * a selected field does not say what it reads: whole rows, of every related record too.
 */
export function selectedColumns(
  info: GraphQLResolveInfo,
  typeNames: readonly string[],
  selected: Iterable<string>,
  always: readonly string[],
): Selected | null {
  const own = new Set(always);
  const related = new Map<string, Set<string>>();
  const types = typeNames.map((name) => info.schema.getType(name)).filter((type) => type && 'getFields' in type);
  for (const name of selected) {
    if (name === 'id' || name.startsWith('__')) continue;
    for (const type of types) {
      const field = (type as { getFields(): Record<string, { extensions?: Record<string, unknown> }> }).getFields()[name];
      if (!field) continue;
      const exposed = field.extensions?.pothosExposedField;
      const declared = field.extensions?.reads as Reads | undefined;
      if (typeof exposed === 'string') own.add(exposed);
      else if (declared) {
        for (const property of declared.own) own.add(property);
        for (const [relation, properties] of Object.entries(declared.related)) {
          const set = related.get(relation) ?? new Set<string>();
          for (const property of properties) set.add(property);
          related.set(relation, set);
        }
      } else return null;
    }
  }
  return { own: [...own], related };
}

/** The fields of these selection sets, through inline fragments and named ones. */
function fieldsIn(sets: readonly SelectionSetNode[], info: GraphQLResolveInfo): FieldNode[] {
  const fields: FieldNode[] = [];
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) fields.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else {
        const fragment = info.fragments[selection.name.value];
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  for (const set of sets) visit(set);
  return fields;
}

/**
 * The names of the fields a client selects under `path` of the field being resolved (`['edges',
 * 'node']` of a connection), whatever the type condition or alias: a resolver reads in one
 * statement what its children will ask for. `@skip`/`@include` are not evaluated, so a
 * conditionally selected field counts as selected (a join read for nothing, never a query missed).
 */
export function selectedFields(info: GraphQLResolveInfo, path: readonly string[]): Set<string> {
  let sets = info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  for (const name of path) {
    sets = fieldsIn(sets, info).flatMap((field) => (field.name.value === name && field.selectionSet ? [field.selectionSet] : []));
  }
  return new Set(fieldsIn(sets, info).map((field) => field.name.value));
}
