import { bankAccountService } from './modules/bank-accounts/service.js';
import { customerService } from './modules/customers/service.js';
import { kycImportService } from './modules/kyc-import/service.js';
import { kybService } from './modules/kyb/service.js';
import { virtualAccountService } from './modules/virtual-accounts/service.js';
import { partnerService } from './modules/partners/service.js';
import { eventService } from './modules/events/service.js';
import { type WebhookServiceOptions, webhookService } from './modules/webhooks/service.js';
import type { Notifier } from './platform/notifier.js';
import { ledgerService } from './modules/ledger/service.js';
import type { TransferSettings } from './modules/transfers/context.js';
import { transferService } from './modules/transfers/service.js';

export interface ServiceOptions {
  /** Base address of this deployment, for links handed to partners. */
  publicUrl: () => string;
  /** Wakes event subscriptions when any instance commits events. */
  notifier: Notifier;
  /** Secret encryption key and URL rules of webhooks, and how to wake this instance's dispatcher. */
  webhooks: WebhookServiceOptions;
  /** Rates, limits, quote and deposit windows of money movement. */
  transfers: TransferSettings;
}

/** Every use case, built once at start and shared by GraphQL and REST. */
export function buildServices(options: ServiceOptions) {
  const customers = customerService(options);
  const bankAccounts = bankAccountService({ customers });
  const virtualAccounts = virtualAccountService({ customers });
  const partners = partnerService({ customers });
  return {
    customers,
    kycImport: kycImportService({ customers }),
    kyb: kybService({ customers }),
    bankAccounts,
    virtualAccounts,
    partners,
    transfers: transferService({ ...options.transfers, customers, partners, bankAccounts, virtualAccounts }),
    ledger: ledgerService(),
    events: eventService({ notifier: options.notifier }),
    webhooks: webhookService(options.webhooks),
  };
}
export type Services = ReturnType<typeof buildServices>;
