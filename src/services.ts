import { createAuditService } from './modules/audit/service.js';
import { createBankAccountService } from './modules/bank-accounts/service.js';
import { createCustomerService } from './modules/customers/service.js';
import { type MasterKeys, createDataKeys } from './modules/customers/data-keys.js';
import { createErasureService } from './modules/erasure/service.js';
import { createKycImportService } from './modules/kyc-import/service.js';
import { createKycShares } from './modules/kyc-import/shares.js';
import { createKybService } from './modules/kyb/service.js';
import { createVirtualAccountService } from './modules/virtual-accounts/service.js';
import { createPartnerService } from './modules/partners/service.js';
import { createApiKeyService } from './modules/partners/key-service.js';
import { type EventServiceOptions, createEventService } from './modules/events/service.js';
import { type WebhookServiceOptions, createWebhookService } from './modules/webhooks/service.js';
import type { Notifier } from './platform/messaging/notifier.js';
import type { Rails } from './rails/registry.js';
import { createLedgerService } from './modules/ledger/service.js';
import { createNetworkService } from './modules/networks/service.js';
import type { TransferSettings } from './modules/transfers/context.js';
import { createTransferService } from './modules/transfers/service.js';

export interface ServiceOptions {
  /** Base address of this deployment, for links handed to partners. */
  publicUrl: () => string;
  /** Wakes the webhook dispatcher when any instance commits events. */
  notifier: Notifier;
  /** The instance's shared fan-out of new events to subscriptions, the key that seals event cursors, the subscription buffer. */
  events: EventServiceOptions;
  /** Secret encryption key and URL rules of webhooks, and how to wake this instance's dispatcher. */
  webhooks: WebhookServiceOptions;
  /** Rates, limits, quote and deposit windows of money movement. */
  transfers: TransferSettings;
  /** The legs money moves on: the sandbox bank, the chains (live or simulated). */
  rails: Rails;
  /** The master key (and, during a rotation, the previous one) that wraps customers' data keys. */
  encryption: MasterKeys;
}

/** Every use case, built once at start and shared by GraphQL and REST. */
export function buildServices(options: ServiceOptions) {
  // Share tokens are redeemed and claimed in one place, for /auth/importKYC and for the customers' update alike.
  const kycShares = createKycShares();
  // Each customer's data key seals its numbers at rest: the customer's own, and its directors' (KYB).
  const dataKeys = createDataKeys(options.encryption);
  const customers = createCustomerService({ ...options, kycShares, dataKeys });
  const bankAccounts = createBankAccountService({ customers, dataKeys });
  const virtualAccounts = createVirtualAccountService({ customers, networkTokens: options.rails.networkTokens, bank: options.rails.bank });
  const partners = createPartnerService({ customers });
  const kyb = createKybService({ customers, dataKeys });
  const transfers = createTransferService({
    ...options.transfers,
    rails: options.rails,
    customers,
    partners,
    bankAccounts,
    virtualAccounts,
    dataKeys,
  });
  const events = createEventService(options.events);
  const webhooks = createWebhookService(options.webhooks);
  return {
    customers,
    kycImport: createKycImportService({ customers, shares: kycShares }),
    kyb,
    bankAccounts,
    virtualAccounts,
    partners,
    apiKeys: createApiKeyService(),
    transfers,
    ledger: createLedgerService(),
    networks: createNetworkService({ rails: options.rails, sending: options.transfers.payouts }),
    events,
    webhooks,
    erasure: createErasureService({ customers, kyb, bankAccounts, virtualAccounts, transfers, events, webhooks }),
    audit: createAuditService({ cursorKey: options.events.cursorKey }),
  };
}
export type Services = ReturnType<typeof buildServices>;

// GraphQL resolvers reach every service through their context (graphql/context.ts names none).
declare module './graphql/context.js' {
  interface GraphQLServices extends Services {}
}
