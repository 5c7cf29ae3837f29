import type { FeatureScopes } from '../../platform/route-scopes.js';

/**
 * What each REST route (by operationId) and GraphQL root field of this module needs of the API key
 * (domain/scopes.ts). Customers and their KYC: reads `read`, changes `write`, the sandbox's KYC decisions `simulate`.
 * A route or field left out stops Ramp's start.
 */
export const NEEDED_SCOPES = {
  rest: {
    createCustomer: 'write',
    listCustomers: 'read',
    getCustomer: 'read',
    updateCustomer: 'write',
    createKycLink: 'write',
    simulateKyc: 'simulate',
  },
  graphql: {
    'Query.customer': 'read',
    'Query.customers': 'read',
    'Mutation.createCustomer': 'write',
    'Mutation.updateCustomer': 'write',
    'Mutation.createKycLink': 'write',
    'Mutation.simulateKycDecision': 'simulate',
    'Mutation.simulateKycSubmission': 'simulate',
  },
} as const satisfies FeatureScopes;
