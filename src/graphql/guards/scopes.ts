import type { Plugin } from '@envelop/core';
import type { FieldNullability, InputFieldMap, SchemaTypes, TypeParam } from '@pothos/core';
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  Kind,
  type OperationTypeNode,
  type SelectionSetNode,
  getOperationAST,
} from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import type { Actor } from '../../domain/environment.js';
import { ForbiddenError } from '../../domain/errors.js';
import { type KeyScope, requireScope } from '../../domain/scopes.js';
import type { GraphQLContext } from '../context.js';
import { screamingSnake } from '../types/enums.js';
import { payloadRefusal, type ScopeRefusal } from './payload-scopes.js';

declare global {
  export namespace PothosSchemaTypes {
    interface FieldOptions<
      Types extends SchemaTypes = SchemaTypes,
      ParentShape = unknown,
      Type extends TypeParam<Types> = TypeParam<Types>,
      Nullable extends FieldNullability<Type> = FieldNullability<Type>,
      Args extends InputFieldMap = InputFieldMap,
      ResolveShape = unknown,
      ResolveReturnShape = unknown,
    > {
      /**
       * What a root field needs of the API key, declared beside the field (`keyScope: 'write'`): checked on the whole
       * operation before any of it runs. Every root field declares one, or Ramp does not start.
       */
      keyScope?: KeyScope;
    }
    interface BaseTypeOptions<Types extends SchemaTypes = SchemaTypes> {
      /**
       * The scope that reads this object type whole in a mutation's answer to a key without `read` (`ApiKey` with
       * `admin`): managing it is seeing it (payload-scopes.ts). Every other object shows its ids only there.
       */
      readableBy?: KeyScope;
    }
  }
}

/** What Pothos kept of a field's or type's options, on the built schema. */
const declared = (extensions: unknown): { keyScope?: KeyScope; readableBy?: KeyScope } =>
  ((extensions as { pothosOptions?: object } | null | undefined)?.pothosOptions ?? {}) as never;

const TYPE_OF_OPERATION: Record<OperationTypeNode, ScopeRefusal['type']> = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' };

/**
 * The scope of every root field of the schema (`Mutation.createCustomer` → `write`), as each field declares it
 * (`keyScope`). A root field that declares none stops the start: no field can be reached with a key of any scope by
 * being forgotten.
 */
export function rootFieldScopes(schema: GraphQLSchema): ReadonlyMap<string, KeyScope> {
  const table = new Map<string, KeyScope>();
  const undeclared: string[] = [];
  for (const type of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      const scope = declared(field.extensions).keyScope;
      if (scope) table.set(`${type!.name}.${field.name}`, scope);
      else undeclared.push(`${type!.name}.${field.name}`);
    }
  }
  if (undeclared.length) throw new Error(`Root fields without a scope (declare keyScope on the field): ${undeclared.join(', ')}`);
  return table;
}

/** The object types a key without `read` sees whole in a mutation's answer, by the scope that reads them (`readableBy`). */
export function readableTypes(schema: GraphQLSchema): ReadonlyMap<string, KeyScope> {
  return new Map(
    Object.values(schema.getTypeMap()).flatMap((type) => {
      const scope = declared(type.extensions).readableBy;
      return scope ? [[type.name, scope] as const] : [];
    }),
  );
}

/** The root fields an operation selects, through fragments and inline fragments (introspection's `__` fields need none). */
function rootFieldsOf(selections: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>, seen = new Set<string>()): string[] {
  return selections.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value.startsWith('__') ? [] : [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFieldsOf(selection.selectionSet, fragments, seen);
    const name = selection.name.value;
    const fragment = fragments.get(name);
    if (!fragment || seen.has(name)) return [];
    seen.add(name);
    return rootFieldsOf(fragment.selectionSet, fragments, seen);
  });
}

/** An operation's type and the root fields it selects; null when the document names no such operation. */
type Roots = { type: ScopeRefusal['type']; fields: string[] } | null;
/** Each document's roots, by operation name: a document is parsed once (Yoga's cache), so its roots are found once. */
const rootsByDocument = new WeakMap<DocumentNode, Map<string, NonNullable<Roots>>>();

function rootsOfOperation(document: DocumentNode, operationName: string | null | undefined): Roots {
  let byName = rootsByDocument.get(document);
  if (!byName) {
    byName = new Map();
    rootsByDocument.set(document, byName);
  }
  const key = operationName ?? '';
  const known = byName.get(key);
  if (known) return known;
  const operation = getOperationAST(document, operationName);
  // A name the document has no operation of is not kept: the names kept are the document's own.
  if (!operation) return null;
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const roots = { type: TYPE_OF_OPERATION[operation.operation], fields: rootFieldsOf(operation.selectionSet, fragments) };
  byName.set(key, roots);
  return roots;
}

// Declared beside the payload's refusal, which this file's refusal extends to a mutation's answer.
export type { ScopeRefusal } from './payload-scopes.js';

/**
 * The refusal of an operation that selects a root field the caller's key lacks the scope of, or
 * null: checked on the whole operation before any of it runs, so a mutation that selects an allowed
 * field and a forbidden one does neither. One Set lookup per root field.
 */
export function scopeRefusal(
  table: ReadonlyMap<string, KeyScope>,
  document: DocumentNode,
  operationName: string | null | undefined,
  actor: Actor | null | undefined,
): ScopeRefusal | null {
  if (!actor?.scopes) return null;
  const roots = rootsOfOperation(document, operationName);
  if (!roots) return null; // validation refuses it
  const { type, fields } = roots;
  for (const field of fields) {
    const scope = table.get(`${type}.${field}`);
    if (!scope) continue; // not a field of the schema: validation refuses it
    try {
      requireScope(actor, scope);
    } catch (error) {
      if (error instanceof ForbiddenError) return { type, field, error };
      throw error;
    }
  }
  return null;
}

/** A refusal as GraphQL answers it: the code as the ErrorCode enum spells it, the domain error kept as its cause. */
export const forbidden = (error: ForbiddenError, http?: { status: number }) =>
  createGraphQLError(error.message, { originalError: error, extensions: { code: screamingSnake(error.code), ...(http && { http }) } });

/**
 * Refuses, before execution, an operation over HTTP or a subscription whose root fields the key's
 * scopes do not all cover, or a mutation whose answer selects what a key without `read` may not see
 * (payload-scopes.ts) (403, `INSUFFICIENT_SCOPE`), and has the refusal audited before the answer
 * leaves. graphql-ws asks the same of each subscription in its own onSubscribe (graphql/server.ts), so
 * a refused one gets graphql-ws's `error` message.
 */
export function useRootFieldScopes(
  table: ReadonlyMap<string, KeyScope>,
  readableTypes: ReadonlyMap<string, KeyScope>,
  audit: (ctx: GraphQLContext, refusal: ScopeRefusal) => Promise<void>,
): Plugin<GraphQLContext> {
  // Synchronous for an operation it lets through: only a refusal waits, for its audit row.
  const refuse = ({ args, setResultAndStopExecution }: RefusableHook) => {
    const { schema, document, operationName, contextValue } = args;
    const refusal =
      scopeRefusal(table, document, operationName, contextValue.actor) ?? payloadRefusal(schema, readableTypes, document, operationName, contextValue.actor);
    if (!refusal) return;
    return audit(contextValue, refusal).then(() => setResultAndStopExecution({ errors: [forbidden(refusal.error, { status: 403 })] }));
  };
  return { onExecute: refuse, onSubscribe: refuse };
}

type RefusableHook = {
  args: { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; contextValue: GraphQLContext };
  setResultAndStopExecution: (result: { errors: readonly Error[] }) => void;
};
