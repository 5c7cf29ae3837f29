import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.js';

// Each scalar says what it is (@specifiedBy) and goes to codegen as a string (codegen.ts maps them).
builder.scalarType('DateTime', {
  description: 'A date and time in UTC as an RFC 3339 string, e.g. "2026-11-24T09:30:00.000Z"',
  specifiedByURL: 'https://scalars.graphql.org/chillicream/date-time.html',
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => {
    const date = new Date(String(value));
    // PostgreSQL's timestamptz cannot hold what JavaScript dates can (year -271821): refuse it here.
    const year = date.getUTCFullYear();
    if (typeof value !== 'string' || Number.isNaN(year) || year < 1970 || year > 9999) {
      throw new GraphQLError('DateTime must be an ISO 8601 string between 1970 and 9999');
    }
    return date;
  },
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
builder.scalarType('UUID', {
  description: 'A UUID in lower-case hex, e.g. the id the REST API shows for the same object',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc9562',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value !== 'string' || !UUID.test(value.toLowerCase())) throw new GraphQLError('UUID must be a string like "4f1c2a9e-…"');
    return value.toLowerCase();
  },
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON, as the REST API shows it',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc8259',
  serialize: (value) => value,
  parseValue: (value) => value,
});
