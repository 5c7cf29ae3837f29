import { ConflictError, type DomainError, type FieldError, ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '../domain/errors.js';
import { type PointerRenames, renamedPointer } from '../domain/validation.js';
import { type FieldNode, type GraphQLResolveInfo, Kind } from 'graphql';
import { ERROR_CODES } from '../domain/error-codes.js';
import { builder } from './builder.js';
import { domainEnum } from './enums.js';

export const ErrorCodeEnum = domainEnum('ErrorCode', ERROR_CODES, {
  description: 'Why a request failed: stable, one per failure (the README error table explains each; REST sends the same in lower case)',
});

/** Every expected failure: a stable `code` and a human `message`. */
export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  fields: (t) => ({
    message: t.exposeString('message'),
    code: t.field({ type: ErrorCodeEnum, resolve: (e) => e.code }),
  }),
});

/** A field error as GraphQL reports it: `inputPath` is its pointer mapped by withInputPaths. */
type GraphQLFieldError = FieldError & { inputPath?: string };

const FieldErrorRef = builder.objectRef<GraphQLFieldError>('FieldError').implement({
  fields: (t) => ({
    path: t.string({
      description: 'JSON pointer of the input field in GraphQL spelling, e.g. /firstName or /address/postalCode',
      // Use cases point into their own (camelCase) inputs, which the GraphQL inputs mirror.
      resolve: (e) => e.inputPath ?? e.pointer,
    }),
    argumentPath: t.stringList({
      description: 'The same field as a path from the mutation\'s arguments, e.g. ["input", "identifyingInformation", "taxNumber"] or ["destinationAddress"]',
      resolve: (e, _args, _ctx, info) => argumentPathOf(e.inputPath ?? e.pointer, info),
    }),
    code: t.exposeString('code'),
    message: t.string({ resolve: (e) => e.detail }),
  }),
});

/**
 * A pointer into the use case's input as a path from the mutation's arguments: a pointer that starts
 * with an argument's name (a flat argument such as `destinationAddress`) is that path, any other is
 * under the mutation's `input` argument. The mutation is the root field this error was returned by.
 */
function argumentPathOf(pointer: string, info: GraphQLResolveInfo): string[] {
  const segments = pointer.split('/').slice(1);
  let root = info.path;
  while (root.prev) root = root.prev;
  const selection = info.operation.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD && (s.alias ?? s.name).value === root.key);
  const args = selection ? (info.schema.getMutationType()?.getFields()[selection.name.value]?.args ?? []) : [];
  const named = args.some((a) => a.name === segments[0]);
  return !named && args.some((a) => a.name === 'input') ? ['input', ...segments] : segments;
}

builder.objectType(ValidationError, {
  name: 'ValidationError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ fieldErrors: t.field({ type: [FieldErrorRef], resolve: (e) => e.fieldErrors }) }),
});

for (const [cls, name] of [
  [NotFoundError, 'NotFoundError'],
  [ConflictError, 'ConflictError'],
  [UnprocessableError, 'UnprocessableError'],
  [ForbiddenError, 'ForbiddenError'],
] as const) {
  builder.objectType(cls, { name, interfaces: [ErrorInterface], fields: () => ({}) });
}

/**
 * Runs a use case for a mutation, its ValidationError's domain pointers mapped to paths in the
 * mutation's `input`: the longest prefix in `renamed` is replaced, the rest kept (a GraphQL input
 * that mirrors the domain's needs no entry). The one place a module maps its domain errors.
 */
export async function withInputPaths<T>(work: Promise<T>, renamed: PointerRenames = {}): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const fieldErrors: GraphQLFieldError[] = error.fieldErrors.map((e) => ({ ...e, inputPath: renamedPointer(e.pointer, renamed).join('') }));
    throw new ValidationError(fieldErrors, error.message, error.code);
  }
}

/** The typed failures every mutation can return. */
export const MUTATION_ERRORS = [ValidationError, NotFoundError, ConflictError, UnprocessableError, ForbiddenError];

/** For `thing(id)` queries: an unknown (or another partner's) id reads as null, like GraphQL clients expect. */
export async function nullIfNotFound<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}
