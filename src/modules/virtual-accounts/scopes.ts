import type { FeatureScopes } from '../../platform/route-scopes.js';

/**
 * What each REST route (by operationId) and GraphQL root field of this module needs of the API key
 * (domain/scopes.ts). Virtual accounts: reads `read`, opening one `write`, the sandbox bank's issuance `simulate`. A
 * route or field left out stops Ramp's start.
 */
export const NEEDED_SCOPES = {
  rest: {
    createVirtualAccount: 'write',
    listVirtualAccounts: 'read',
    getVirtualAccount: 'read',
    simulateVirtualAccountIssuance: 'simulate',
  },
  graphql: {
    'Query.virtualAccount': 'read',
    'Mutation.createVirtualAccount': 'write',
    'Mutation.simulateVirtualAccountIssuance': 'simulate',
  },
} as const satisfies FeatureScopes;
