import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';

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
