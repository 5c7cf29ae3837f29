import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import ErrorsPlugin from '@pothos/plugin-errors';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import ZodPlugin from '@pothos/plugin-zod';
import { ValidationError } from '../domain/errors.js';
import { fieldErrorsOf } from '../domain/validation.js';
import type { GraphQLContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  AuthScopes: { partner: boolean };
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    Decimal: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  // Scope auth first so nothing runs for a caller it refuses; errors before zod so argument
  // validation failures become typed ValidationError results.
  plugins: [ScopeAuthPlugin, ErrorsPlugin, ZodPlugin, RelayPlugin, DataloaderPlugin, ComplexityPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: async (ctx) => ({ partner: ctx.actor !== null }),
  },
  errors: { defaultTypes: [] },
  zod: {
    // The same codes as the services' own validation (REST and GraphQL fail a rule alike).
    validationError: (error) => new ValidationError(fieldErrorsOf(error.issues)),
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
  complexity: {
    defaultComplexity: 1,
    defaultListMultiplier: 10,
  },
});

builder.queryType({ authScopes: { partner: true } });
builder.mutationType({ authScopes: { partner: true } });
