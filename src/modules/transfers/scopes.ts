import type { FeatureScopes } from '../../platform/route-scopes.js';

/**
 * What each REST route (by operationId) and GraphQL root field of this module needs of the API key
 * (domain/scopes.ts). Quotes and transfers: reads `read`, quoting, creating, completing and canceling `write`, the
 * sandbox's money movements `simulate`. A route or field left out stops Ramp's start.
 */
export const NEEDED_SCOPES = {
  rest: {
    createOnrampQuote: 'write',
    createOnrampTransfer: 'write',
    listOnrampTransfers: 'read',
    getOnrampTransfer: 'read',
    cancelOnrampTransfer: 'write',
    simulateOnrampTransfer: 'simulate',
    createOfframpQuote: 'write',
    createOfframpTransfer: 'write',
    completeOfframpTransfer: 'write',
    listOfframpTransfers: 'read',
    getOfframpTransfer: 'read',
    cancelOfframpTransfer: 'write',
    simulateOfframpTransfer: 'simulate',
    simulateVirtualAccountDeposit: 'simulate',
  },
  graphql: {
    'Query.transfer': 'read',
    'Query.transfers': 'read',
    'Query.quote': 'read',
    'Mutation.createOnrampQuote': 'write',
    'Mutation.createOnrampTransfer': 'write',
    'Mutation.createOfframpQuote': 'write',
    'Mutation.createOfframpTransfer': 'write',
    'Mutation.completeOfframpTransfer': 'write',
    'Mutation.cancelTransfer': 'write',
    'Mutation.simulateFiatDeposit': 'simulate',
    'Mutation.simulateCryptoDeposit': 'simulate',
    'Mutation.simulateVirtualAccountDeposit': 'simulate',
    'Mutation.simulateTransferSettlement': 'simulate',
    'Mutation.simulateTransferFailure': 'simulate',
    'Mutation.simulateTransferRefund': 'simulate',
  },
} as const satisfies FeatureScopes;
