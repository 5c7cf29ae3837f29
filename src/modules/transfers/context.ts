import type { PricingPolicy, RateSource } from '../../domain/pricing.js';
import type { Rails } from '../../rails/registry.js';
import type { SendingSettings } from '../custody/fees.js';
import type { BankAccountService } from '../bank-accounts/service.js';
import type { DataKeys } from '../customers/data-keys.js';
import type { CustomerService } from '../customers/service.js';
import type { PartnerService } from '../partners/service.js';
import type { VirtualAccountService } from '../virtual-accounts/service.js';

/** Settings of money movement, from config (src/config.ts). */
export interface TransferSettings {
  rates: RateSource;
  policy: PricingPolicy;
  quoteTtlSeconds: number;
  depositWindowSeconds: number;
  /** On-ramp payouts on live chains (payouts/). */
  payouts: PayoutSettings;
}

/** On-ramp payouts on live chains (payouts/): followed, replaced and crash-tested as everything Ramp sends is. */
export type PayoutSettings = SendingSettings;

/** What the transfer use cases need from elsewhere: settings and other modules' services. */
export interface TransferDeps extends TransferSettings {
  /** The legs money moves on (rails/port.ts): use cases ask them, never a chain or bank library. */
  rails: Rails;
  customers: Pick<CustomerService, 'get' | 'getForNewBusiness' | 'holdForNewBusiness'>;
  partners: Pick<PartnerService, 'get'>;
  bankAccounts: Pick<BankAccountService, 'getForCustomer' | 'openForPayout' | 'openNewestForRefund'>;
  /** The customers' data keys: an off-ramp's payout account number is sealed by its customer's. */
  dataKeys: DataKeys;
  virtualAccounts: Pick<VirtualAccountService, 'get' | 'getForCustomer' | 'findByDepositAccount'>;
}
