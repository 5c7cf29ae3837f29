import { GraphQLError, Kind, type ValueNode, valueFromASTUntyped } from 'graphql';
import { builder } from '../builder.js';

// Each scalar says what it is (@specifiedBy) and goes to codegen as a string (codegen.ts maps them).
// Each reads a literal with a one-argument parseLiteral: graphql-js's default takes the variables too, and
// graphql-jit (execution.ts) then writes a plain-text warning to stderr for every literal of it, a line
// that is not JSON in the JSON log stream. A scalar literal holds no variables in our schema.

/** A literal read as the same string in a variable would be. */
const stringLiteral =
  <T>(parseValue: (value: unknown) => T, refusal: string) =>
  (ast: ValueNode): T => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError(refusal);
    return parseValue(ast.value);
  };

const DATE_TIME_REFUSAL = 'DateTime must be an ISO 8601 string between 1970 and 9999';
const parseDateTime = (value: unknown) => {
  const date = new Date(String(value));
  // PostgreSQL's timestamptz cannot hold what JavaScript dates can (year -271821): refuse it here.
  const year = date.getUTCFullYear();
  if (typeof value !== 'string' || Number.isNaN(year) || year < 1970 || year > 9999) throw new GraphQLError(DATE_TIME_REFUSAL);
  return date;
};
builder.scalarType('DateTime', {
  description: 'A date and time in UTC as an RFC 3339 string, e.g. "2026-11-24T09:30:00.000Z"',
  specifiedByURL: 'https://scalars.graphql.org/chillicream/date-time.html',
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: parseDateTime,
  parseLiteral: stringLiteral(parseDateTime, DATE_TIME_REFUSAL),
});

const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;
builder.scalarType('Decimal', {
  description:
    'An exact decimal amount as a string of digits with an optional fraction, e.g. "100.25" (no exponent; never a float: parse it with a decimal library)',
  specifiedByURL: 'https://speleotrove.com/decimal/daconvs.html#refnumsyn',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value !== 'string' || !DECIMAL.test(value)) throw new GraphQLError('Decimal must be a string like "100.25"');
    return value;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || !DECIMAL.test(ast.value)) throw new GraphQLError('Decimal must be a string like "100.25"');
    return ast.value;
  },
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUID_REFUSAL = 'UUID must be a string like "4f1c2a9e-…"';
const parseUuid = (value: unknown) => {
  if (typeof value !== 'string' || !UUID.test(value.toLowerCase())) throw new GraphQLError(UUID_REFUSAL);
  return value.toLowerCase();
};
builder.scalarType('UUID', {
  description: 'A UUID in lower-case hex, e.g. the id the REST API shows for the same object',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc9562',
  serialize: (value) => String(value),
  parseValue: parseUuid,
  parseLiteral: stringLiteral(parseUuid, UUID_REFUSAL),
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON, as the REST API shows it',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc8259',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast) => valueFromASTUntyped(ast),
});
