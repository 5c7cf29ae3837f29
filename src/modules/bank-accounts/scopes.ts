import type { FeatureScopes } from '../../platform/route-scopes.js';

/**
 * What each REST route (by operationId) and GraphQL root field of this module needs of the API key
 * (domain/scopes.ts). Bank accounts: reading them is `read`, adding one `write`. A route or field left out stops
 * Ramp's start.
 */
export const NEEDED_SCOPES = {
  rest: {
    createExternalAccount: 'write',
    listExternalAccounts: 'read',
    getExternalAccount: 'read',
  },
  graphql: {
    'Query.bankAccount': 'read',
    'Mutation.addBankAccount': 'write',
  },
} as const satisfies FeatureScopes;
