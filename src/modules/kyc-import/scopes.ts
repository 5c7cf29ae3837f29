import type { FeatureScopes } from '../../platform/route-scopes.js';

/**
 * What each REST route (by operationId) and GraphQL root field of this module needs of the API key
 * (domain/scopes.ts). Importing a provider's KYC result changes a customer: `write`. A route or field left out stops
 * Ramp's start.
 */
export const NEEDED_SCOPES = {
  rest: {
    importKyc: 'write',
  },
  graphql: {
    'Mutation.importKyc': 'write',
  },
} as const satisfies FeatureScopes;
