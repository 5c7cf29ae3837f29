import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.js';

builder.scalarType('DateTime', {
  description: 'An ISO 8601 timestamp in UTC',
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
  description: 'An exact decimal amount, always a string on the wire (never a float)',
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

builder.scalarType('JSON', {
  description: 'Arbitrary JSON, as the REST API shows it',
  serialize: (value) => value,
  parseValue: (value) => value,
});
