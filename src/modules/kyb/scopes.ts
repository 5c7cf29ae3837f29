import type { FeatureScopes } from '../../platform/route-scopes.js';

/**
 * What each REST route (by operationId) and GraphQL root field of this module needs of the API key
 * (domain/scopes.ts). Business KYC: each submission changes a customer, `write`. A route or field left out stops
 * Ramp's start.
 */
export const NEEDED_SCOPES = {
  rest: {
    submitBusinessBasicDetails: 'write',
    submitBusinessAddress: 'write',
    submitBusinessLegalRepresentative: 'write',
  },
  graphql: {
    'Mutation.submitBusinessBasicDetails': 'write',
    'Mutation.submitBusinessAddress': 'write',
    'Mutation.submitBusinessLegalRepresentative': 'write',
  },
} as const satisfies FeatureScopes;
