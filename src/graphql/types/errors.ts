import { ConflictError, type DomainError, type FieldError, ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '../../domain/errors.js';
import { type PointerRenames, renamedPointer } from '../../domain/validation.js';
import { ERROR_CODES, STATUS_OF_CODE } from '../../domain/error-codes.js';
import { builder } from '../builder.js';
import { domainEnum } from './enums.js';

export const ErrorCodeEnum = domainEnum('ErrorCode', ERROR_CODES, {
  description:
    'Why a request failed: stable, one per failure (the error table of the partner guide, /docs#error-codes, explains each; REST sends the same in lower case)',
  // Error codes are added with their row in the partner guide's table (a test checks it): the table says what each means.
  describe: (code) => `REST: HTTP ${STATUS_OF_CODE[code]} with code ${code} (the partner guide's error table, /docs#error-codes, says when)`,
});

/** Every expected failure: a stable `code` and a human `message`. */
export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  description: 'An expected failure of a mutation: a stable code to branch on and a message for people',
  fields: (t) => ({
    message: t.exposeString('message', { description: 'What went wrong, in English, for logs and people (may change: branch on code)' }),
    code: t.field({ type: ErrorCodeEnum, description: 'Why it failed: stable, the same code REST answers with', resolve: (e) => e.code }),
  }),
});

/** A field error as GraphQL reports it: `inputPath` is its pointer mapped by withInputPaths. */
type GraphQLFieldError = FieldError & { inputPath?: string };

const FieldErrorRef = builder.objectRef<GraphQLFieldError>('FieldError').implement({
  description: 'One invalid input field of a ValidationError',
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
    code: t.exposeString('code', {
      description: 'Why this field is invalid, stable and snake_case, e.g. required, invalid_email, out_of_range (the same as REST errors[].code)',
    }),
    message: t.string({ description: 'What is wrong with the field, in English, for people', resolve: (e) => e.detail }),
  }),
});

/** A pointer into a mutation's input as a path from its arguments: every mutation has exactly one, `input`. */
const argumentPathOf = (pointer: string): string[] => ['input', ...pointer.split('/').slice(1)];

builder.objectType(ValidationError, {
  name: 'ValidationError',
  description: 'The input is invalid (REST 400 validation_failed): fieldErrors names each field and why',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    fieldErrors: t.field({ type: [FieldErrorRef], description: 'Each invalid field of the input (at least one)', resolve: (e) => e.fieldErrors }),
  }),
});

for (const [cls, name, description] of [
  [NotFoundError, 'NotFoundError', "An id names nothing the caller can see: unknown, or another partner's or environment's (REST 404)"],
  [ConflictError, 'ConflictError', 'The request conflicts with the current state, e.g. a duplicate or a transition the state forbids (REST 409)'],
  [UnprocessableError, 'UnprocessableError', 'The request is well formed but cannot be carried out, e.g. an expired quote (REST 422)'],
  [ForbiddenError, 'ForbiddenError', 'Not allowed here, e.g. a sandbox simulation with a production key (REST 403)'],
] as const) {
  builder.objectType(cls, { name, description, interfaces: [ErrorInterface], fields: () => ({}) });
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
