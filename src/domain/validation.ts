import type { z } from 'zod';
import { type FieldError, ValidationError } from './errors.js';

/** JSON pointer (RFC 6901) for a zod issue path. */
export function pointerOf(path: readonly PropertyKey[]): string {
  return path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

function codeOf(issue: z.core.$ZodIssue): string {
  const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined;
  if (missing) return 'required';
  if (issue.code === 'invalid_value') return 'invalid_enum_value';
  if (issue.code === 'invalid_format') return `invalid_${issue.format}`;
  if (issue.code === 'custom' && typeof issue.params?.code === 'string') return issue.params.code;
  return issue.code;
}

/**
 * Parses untrusted input with a zod schema, turning every problem into a field error with a
 * stable code, so REST and GraphQL report the same failures the same way.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  // reportInput lets us tell a missing field from a wrong type; the input itself is never echoed back.
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const fieldErrors: FieldError[] = result.error.issues.flatMap((issue) =>
    // One error per unknown field, pointing at it, rather than one for the object holding them.
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ pointer: pointerOf([...issue.path, key]), code: 'unrecognized_keys', detail: 'is not a known field' }))
      : [{ pointer: pointerOf(issue.path), code: codeOf(issue), detail: codeOf(issue) === 'required' ? 'is required' : issue.message }],
  );
  throw new ValidationError(fieldErrors);
}
