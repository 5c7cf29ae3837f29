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
import { globalIdOf, syncGlobalIdsPlugin } from './global-ids.js';

export { globalIdOf };

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  AuthScopes: { partner: boolean };
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    Decimal: { Input: string; Output: string };
    UUID: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
  };
  // Connections may carry a count, run only when a client selects `totalCount` (graphql/connection.ts).
  Connection: { totalCount?: () => Promise<number> };
}>({
  // Scope auth first so nothing runs for a caller it refuses; errors before zod so argument
  // validation failures become typed ValidationError results. Global ids last: it replaces only the relay plugin's own id resolver.
  plugins: [ScopeAuthPlugin, ErrorsPlugin, ZodPlugin, RelayPlugin, DataloaderPlugin, ComplexityPlugin, syncGlobalIdsPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: async (ctx) => ({ partner: ctx.actor !== null }),
  },
  errors: { defaultTypes: [] },
  zod: {
    // The same codes as the services' own validation (REST and GraphQL fail a rule alike).
    // An argument rule of our own (page sizes, nodes) names its argument; its code says why.
    validationError: (error) =>
      new ValidationError(fieldErrorsOf(error.issues.map((i) => (i.code === 'custom' && !i.params?.code ? { ...i, params: { code: 'out_of_range' } } : i)))),
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // Global ids are opaque (base64 of `Type:uuid`).
    // node and nodes are defined in node.ts: an id that is not one of ours reads as null there.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    encodeGlobalID: globalIdOf,
    nodeTypeOptions: { description: 'An object with a global id: refetch it with node(id:)' },
    idFieldOptions: { description: 'Global id: opaque, unique across types, accepted by node(id:) and every id argument' },
  },
  complexity: {
    defaultComplexity: 1,
    defaultListMultiplier: 10,
  },
});

builder.queryType({ authScopes: { partner: true } });
builder.mutationType({ authScopes: { partner: true } });
