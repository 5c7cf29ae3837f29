import type { FeatureScopes } from '../../platform/route-scopes.js';

/**
 * What each REST route (by operationId) and GraphQL root field of this module needs of the API key
 * (domain/scopes.ts). Events: listing and subscribing to them are reads. A route or field left out stops Ramp's
 * start.
 */
export const NEEDED_SCOPES = {
  rest: {
    listEvents: 'read',
  },
  graphql: {
    'Query.events': 'read',
    'Subscription.events': 'read',
    'Subscription.transferUpdated': 'read',
  },
} as const satisfies FeatureScopes;
