import type { FeatureScopes } from '../../platform/route-scopes.js';

/**
 * What each REST route (by operationId) and GraphQL root field of this module needs of the API key
 * (domain/scopes.ts). Erasing a customer cannot be undone: `admin` only. A route or field left out stops Ramp's start.
 */
export const NEEDED_SCOPES = {
  rest: { redactCustomer: 'admin' },
  graphql: { 'Mutation.redactCustomer': 'admin' },
} as const satisfies FeatureScopes;
