import type { DomainError } from '../../domain/errors.js';
import type { builder } from '../builder.js';

type ErrorClass = abstract new (...args: never[]) => DomainError;

/**
 * The `errors` option of a mutation: its result is the union `<VerbNoun>Result` of the payload
 * `<VerbNoun>Payload { <field> }` and only the error types this mutation can return (an error of
 * another type is a bug and surfaces as a top-level error, never as a silently wrong member).
 */
export const payloadOf = (verbNoun: string, field: string, errors: readonly ErrorClass[], fieldDescription?: string) => {
  const mutation = verbNoun.charAt(0).toLowerCase() + verbNoun.slice(1);
  const noun = field.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  return {
    types: errors as unknown as (new (...args: unknown[]) => DomainError)[],
    result: { name: `${verbNoun}Payload`, description: `What ${mutation} returns when it succeeds` },
    union: {
      name: `${verbNoun}Result`,
      description: `What ${mutation} returns: ${verbNoun}Payload when it succeeded, else the expected failure (select __typename, and code and message on Error)`,
    },
    dataField: { name: field, description: fieldDescription ?? `The ${noun}, as ${mutation} left it` },
  };
};

/** `idempotencyKey` of a creating mutation's input: optional, with REST's `Idempotency-Key` semantics. */
export const idempotencyKeyField = (
  t: PothosSchemaTypes.InputFieldBuilder<typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never, 'InputObject'>,
) =>
  t.string({
    description:
      'Optional. Retrying with the same key and the same input returns the first result without doing it twice (keys live 24 h); the same key with another input is UnprocessableError idempotency_key_reused, and while the first is still running ConflictError idempotency_key_in_use.',
  });
