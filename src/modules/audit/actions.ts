/**
 * The audit log's name of every state-changing operation, in one table per face: REST by its contract's
 * operationId, GraphQL by its mutation field. One use case has one name in both faces. A simulation is
 * named by the step it plays (REST names it in the body's `action`). test/audit/actions.test.ts walks every
 * registered route and mutation field and fails on a state-changing one this table does not name.
 */
const SIMULATION_STEPS = {
  fiat_deposit: 'simulation.fiat_deposit',
  crypto_deposit: 'simulation.crypto_deposit',
  complete_transfer: 'simulation.complete_transfer',
  fail_transfer: 'simulation.fail_transfer',
  refund_transfer: 'simulation.refund_transfer',
  submit_kyc: 'simulation.submit_kyc',
  approve_kyc: 'simulation.kyc_decision',
  reject_kyc: 'simulation.kyc_decision',
  issue_pending_virtual_account: 'simulation.issue_pending_virtual_account',
} as const;

type Step = keyof typeof SIMULATION_STEPS;
/** A simulate route's action, by the step its body names (`simulation.unknown` for a body that names none). */
const simulation = (body: unknown): string => {
  const step = (body as { action?: unknown } | null)?.action;
  return typeof step === 'string' && Object.hasOwn(SIMULATION_STEPS, step) ? SIMULATION_STEPS[step as Step] : 'simulation.unknown';
};

export const REST_ACTIONS: Readonly<Record<string, string | ((body: unknown) => string)>> = {
  createCustomer: 'customer.create',
  updateCustomer: 'customer.update',
  redactCustomer: 'customer.redact',
  createKycLink: 'kyc_link.create',
  importKyc: 'kyc.import',
  createExternalAccount: 'external_account.create',
  createVirtualAccount: 'virtual_account.create',
  createOnrampQuote: 'quote.onramp.create',
  createOnrampTransfer: 'transfer.onramp.create',
  cancelOnrampTransfer: 'transfer.onramp.cancel',
  createOfframpQuote: 'quote.offramp.create',
  createOfframpTransfer: 'transfer.offramp.create',
  completeOfframpTransfer: 'transfer.offramp.complete',
  cancelOfframpTransfer: 'transfer.offramp.cancel',
  registerWebhook: 'webhook.create',
  deleteWebhook: 'webhook.delete',
  whitelistBankAccount: 'whitelist.bank_account.add',
  whitelistWalletAddress: 'whitelist.wallet_address.add',
  submitBusinessAddress: 'kyb.address.submit',
  submitBusinessBasicDetails: 'kyb.basic_details.submit',
  submitBusinessLegalRepresentative: 'kyb.legal_representative.submit',
  mintTestTokens: 'simulation.mint_test_tokens',
  simulateKyc: simulation,
  simulateOnrampTransfer: simulation,
  simulateOfframpTransfer: simulation,
  simulateVirtualAccountIssuance: simulation,
  simulateVirtualAccountDeposit: 'simulation.virtual_account_deposit',
};

export const GRAPHQL_ACTIONS: Readonly<Record<string, string>> = {
  createCustomer: 'customer.create',
  updateCustomer: 'customer.update',
  createKycLink: 'kyc_link.create',
  importKyc: 'kyc.import',
  addBankAccount: 'external_account.create',
  createVirtualAccount: 'virtual_account.create',
  createOnrampQuote: 'quote.onramp.create',
  createOnrampTransfer: 'transfer.onramp.create',
  createOfframpQuote: 'quote.offramp.create',
  createOfframpTransfer: 'transfer.offramp.create',
  completeOfframpTransfer: 'transfer.offramp.complete',
  cancelTransfer: 'transfer.cancel',
  registerWebhook: 'webhook.create',
  deleteWebhook: 'webhook.delete',
  disableWebhook: 'webhook.update',
  enableWebhook: 'webhook.update',
  rotateWebhookSecret: 'webhook.rotate_secret',
  redeliverEvent: 'webhook.redeliver',
  whitelistBankAccount: 'whitelist.bank_account.add',
  whitelistWalletAddress: 'whitelist.wallet_address.add',
  submitBusinessAddress: 'kyb.address.submit',
  submitBusinessBasicDetails: 'kyb.basic_details.submit',
  submitBusinessLegalRepresentative: 'kyb.legal_representative.submit',
  redactCustomer: 'customer.redact',
  createApiKey: 'api_key.create',
  revokeApiKey: 'api_key.revoke',
  mintTestTokens: 'simulation.mint_test_tokens',
  simulateFiatDeposit: 'simulation.fiat_deposit',
  simulateCryptoDeposit: 'simulation.crypto_deposit',
  simulateTransferSettlement: 'simulation.complete_transfer',
  simulateTransferFailure: 'simulation.fail_transfer',
  simulateTransferRefund: 'simulation.refund_transfer',
  simulateKycSubmission: 'simulation.submit_kyc',
  simulateKycDecision: 'simulation.kyc_decision',
  simulateVirtualAccountIssuance: 'simulation.issue_pending_virtual_account',
  simulateVirtualAccountDeposit: 'simulation.virtual_account_deposit',
};

/** The action of a REST operation; undefined when the table does not name it (the walk test fails then). */
export function actionOfOperation(operationId: string, body: unknown): string | undefined {
  const action = Object.hasOwn(REST_ACTIONS, operationId) ? REST_ACTIONS[operationId] : undefined;
  return typeof action === 'function' ? action(body) : action;
}

export const actionOfMutation = (field: string): string | undefined => (Object.hasOwn(GRAPHQL_ACTIONS, field) ? GRAPHQL_ACTIONS[field] : undefined);

/** Key administration (modules/partners/api-keys.ts): the CLI, or a mutation that goes through the same functions. */
export const API_KEY_ACTIONS = { create: 'api_key.create', revoke: 'api_key.revoke' } as const;
