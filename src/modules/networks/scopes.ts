import type { FeatureScopes } from '../../platform/route-scopes.js';

/**
 * What each REST route (by operationId) and GraphQL root field of this module needs of the API key
 * (domain/scopes.ts). Networks: reading them is `read`; the sandbox faucet is a simulation, `simulate`. A route or
 * field left out stops Ramp's start.
 */
export const NEEDED_SCOPES = {
  rest: {
    listNetworks: 'read',
    listSandboxNetworks: 'read',
    mintTestTokens: 'simulate',
  },
  graphql: {
    'Query.networks': 'read',
    'Query.fiatRails': 'read',
    'Mutation.mintTestTokens': 'simulate',
  },
} as const satisfies FeatureScopes;
