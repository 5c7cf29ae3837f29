import { ConflictError, type DomainError, type FieldError, ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '../domain/errors.js';
import { type PointerRenames, renamedPointer } from '../domain/validation.js';
import { ERROR_CODES } from '../domain/error-codes.js';
import { builder } from './builder.js';
import { domainEnum } from './enums.js';

export const ErrorCodeEnum = domainEnum('ErrorCode', ERROR_CODES, {
  description:
    'Why a request failed: stable, one per failure (the error table of the partner guide, /docs#error-codes, explains each; REST sends the same in lower case)',
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
      description: 'The same field as a path from the mutation\'s arguments, e.g. ["input", "idDocument", "issuingCountry"]',
      resolve: (e) => argumentPathOf(e.inputPath ?? e.pointer),
    }),
    code: t.exposeString('code'),
    message: t.string({ resolve: (e) => e.detail }),
  }),
});

/** A pointer into a mutation's input as a path from its arguments: every mutation has exactly one, `input`. */
const argumentPathOf = (pointer: string): string[] => ['input', ...pointer.split('/').slice(1)];

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

/** For `thing(id)` queries: an unknown (or another partner's) id reads as null, like GraphQL clients expect. */
export async function nullIfNotFound<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}
