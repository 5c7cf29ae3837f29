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
import { globalIdOf, syncGlobalIdsPlugin } from './types/global-ids.js';
import { priceOfField } from './guards/prices.js';

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
  // Connections may carry a count, run only when a client selects `totalCount` (graphql/types/connection.ts).
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
    // The types and fields the plugin generates for every connection, described once here (Relay cursor connections).
    pageInfoTypeOptions: { description: 'Where a page sits in its list: whether more nodes follow or precede it, and the cursors to page on from' },
    pageInfoFieldOptions: { description: 'Where this page sits in the list, and the cursors to ask for the next or previous page with' },
    hasNextPageFieldOptions: { description: 'Whether nodes follow this page (ask with first and after: endCursor)' },
    hasPreviousPageFieldOptions: { description: 'Whether nodes precede this page (ask with last and before: startCursor)' },
    startCursorFieldOptions: { description: "The first edge's cursor; null when the page is empty" },
    endCursorFieldOptions: { description: "The last edge's cursor; null when the page is empty" },
    edgesFieldOptions: { description: "The nodes of this page, each with its cursor, in the list's order" },
    nodeFieldOptions: { description: 'The object at this place in the list' },
    cursorFieldOptions: { description: "This edge's place in the list: opaque, valid only for this connection and the caller; pass it as after or before" },
    firstArgOptions: {
      description: 'Return at most this many nodes from the start of the list (after `after`): 0 to 100; when neither first nor last is given, 20 (events: 50)',
    },
    lastArgOptions: { description: 'Return at most this many nodes from the end of the list (before `before`): 0 to 100' },
    afterArgOptions: { description: 'Return nodes after this cursor (an endCursor or edge cursor this connection gave)' },
    beforeArgOptions: { description: 'Return nodes before this cursor (a startCursor or edge cursor this connection gave)' },
  },
  // Shopify's prices (prices.ts): every field without its own is priced by its type; `__typename` is free.
  complexity: {
    defaultComplexity: 0,
    defaultListMultiplier: 1,
    fieldComplexity: priceOfField,
  },
});

builder.queryType({
  description: "Reads, each scoped to the API key's partner and environment (another partner's id reads as null)",
  authScopes: { partner: true },
});
builder.mutationType({
  description: "Changes, each scoped to the API key's partner and environment; expected failures are typed results (the Error members of each Result union)",
  authScopes: { partner: true },
});
