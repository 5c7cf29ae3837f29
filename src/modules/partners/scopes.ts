import type { FeatureScopes } from '../../platform/route-scopes.js';

/**
 * What each REST route (by operationId) and GraphQL root field of this module needs of the API key
 * (domain/scopes.ts). The partner's account: reads `read`, whitelisting `write`, its own API keys `admin`. A route or
 * field left out stops Ramp's start.
 */
export const NEEDED_SCOPES = {
  rest: {
    getAccountInfo: 'read',
    whitelistWalletAddress: 'write',
    whitelistBankAccount: 'write',
  },
  graphql: {
    'Query.partner': 'read',
    'Mutation.whitelistWalletAddress': 'write',
    'Mutation.whitelistBankAccount': 'write',
    'Query.apiKeys': 'admin',
    'Mutation.createApiKey': 'admin',
    'Mutation.revokeApiKey': 'admin',
  },
  // The key createApiKey made or revokeApiKey revoked: managing keys is seeing them.
  readableTypes: { ApiKey: 'admin' },
} as const satisfies FeatureScopes;
