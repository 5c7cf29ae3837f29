import {
  ConflictError,
  DomainError,
  ForbiddenError,
  NotFoundError,
  UnprocessableError,
  ValidationError,
} from '../domain/errors.js';
import { builder } from './builder.js';

/** Every expected failure: a stable `code` and a human `message`. */
export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  fields: (t) => ({
    message: t.exposeString('message'),
    code: t.exposeString('code', { description: 'Stable, snake_case reason (see the README error table)' }),
  }),
});

const FieldErrorRef = builder.objectRef<ValidationError['fieldErrors'][number]>('FieldError').implement({
  fields: (t) => ({
    path: t.string({
      description: 'JSON pointer of the input field in GraphQL spelling, e.g. /firstName or /address/postalCode',
      resolve: (e) => e.pointer.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
    }),
    code: t.exposeString('code'),
    message: t.string({ resolve: (e) => e.detail }),
  }),
});

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
