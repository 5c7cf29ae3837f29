import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isInterfaceType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import type { Actor } from '../../domain/environment.js';
import { ForbiddenError } from '../../domain/errors.js';
import type { KeyScope } from '../../domain/scopes.js';

/** An operation refused for a root field outside the key's scopes: the field (the first such) and the refusal (scopes.ts). */
export interface ScopeRefusal {
  type: 'Query' | 'Mutation' | 'Subscription';
  field: string;
  error: ForbiddenError;
}

/** What every object shows to any key in a mutation's answer: what names it, nothing of its data. */
const IDENTIFYING_FIELDS = new Set(['id', 'databaseId', '__typename']);

/** A failure a mutation answers with (ValidationError, …) and what it nests (FieldError): the answer's own, never data. */
const isFailure = (type: GraphQLNamedType) => type.name === 'FieldError' || (isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Error'));

type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

/**
 * The first field a mutation's answer selects that a key without `read` may not see, as `Type.field`, or null.
 * A mutation's payload shows its own fields (the created key's secret, a link, a failure's code and field errors);
 * an object it reaches (the customer of `updateCustomer`) shows only its ids, unless the key reads that object's type
 * by another scope (a type's `readableBy`: an API key with `admin`, a webhook endpoint with `webhooks`). Otherwise a
 * write-only key could read any customer's email and transfers through the answer of a change that changed nothing.
 */
function unreadableSelection(
  schema: GraphQLSchema,
  selections: SelectionSetNode,
  type: GraphQLNamedType,
  fragments: Fragments,
  readable: (type: GraphQLNamedType) => boolean,
  depth: number,
): string | null {
  for (const selection of selections.selections) {
    if (selection.kind !== Kind.FIELD) {
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
      if (!fragment) continue; // validation refuses an unknown fragment
      const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : type;
      const found = condition && unreadableSelection(schema, fragment.selectionSet, condition, fragments, readable, depth);
      if (found) return found;
      continue;
    }
    const name = selection.name.value;
    if (name === '__typename') continue;
    // Depth 1 is the payload (or the failure) the mutation answers with: its own fields.
    const own = depth === 1 || isFailure(type) || readable(type);
    if (!own && !IDENTIFYING_FIELDS.has(name)) return `${type.name}.${name}`;
    const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
    if (!field || !selection.selectionSet) continue;
    const found = unreadableSelection(schema, selection.selectionSet, getNamedType(field.type), fragments, readable, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Refuses, before it runs, a mutation whose answer selects more than ids of the objects it reaches when the key
 * lacks `read` (403 `insufficient_scope`), naming the first such field: the change is not made, as for a root
 * field outside the key's scopes. `readableTypes` names the object types another scope reads whole.
 */
export function payloadRefusal(
  schema: GraphQLSchema,
  readableTypes: ReadonlyMap<string, KeyScope>,
  document: DocumentNode,
  operationName: string | null | undefined,
  actor: Actor | null | undefined,
): ScopeRefusal | null {
  const scopes = actor?.scopes;
  if (!scopes || scopes.has('read')) return null;
  const operation = getOperationAST(document, operationName);
  const mutation = schema.getMutationType();
  if (operation?.operation !== 'mutation' || !mutation) return null;
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const readable = (type: GraphQLNamedType) => {
    const scope = readableTypes.get(type.name);
    return scope !== undefined && scopes.has(scope);
  };
  for (const [root, selectionSet] of rootSelections(operation.selectionSet, fragments)) {
    const field = mutation.getFields()[root];
    if (!field) continue; // validation refuses it
    const found = unreadableSelection(schema, selectionSet, getNamedType(field.type), fragments, readable, 1);
    if (found) {
      const error = new ForbiddenError(
        'insufficient_scope',
        `This API key lacks the \`read\` scope to see ${found} in ${root}'s answer: without it a mutation answers ids only`,
      );
      return { type: 'Mutation', field: root, error };
    }
  }
  return null;
}

/** Each root field of the operation with the selection under it, through fragments. */
function rootSelections(selections: SelectionSetNode, fragments: Fragments, seen = new Set<string>()): [string, SelectionSetNode][] {
  return selections.selections.flatMap((selection): [string, SelectionSetNode][] => {
    if (selection.kind === Kind.FIELD) return selection.selectionSet ? [[selection.name.value, selection.selectionSet]] : [];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootSelections(selection.selectionSet, fragments, seen);
    const fragment = fragments.get(selection.name.value);
    if (!fragment || seen.has(selection.name.value)) return [];
    seen.add(selection.name.value);
    return rootSelections(fragment.selectionSet, fragments, seen);
  });
}
