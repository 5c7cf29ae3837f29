import type { EntityManager } from '@mikro-orm/sql';
import type { Environment } from '../../domain/environment.js';
import type { Decimal } from '../../domain/money.js';

/**
 * What the bank's answers tell transfers: named calls, each in the caller's transaction and on the transfer's row
 * lock, so this module never touches a transfer's fields or status itself. Transfers implement it (bank-calls.ts).
 */
export interface BankPaymentCalls {
  /** The bank settled the payout (ACSC, ACCC): a processing off-ramp completes. */
  paymentAccepted(tx: EntityManager, transferId: string): Promise<void>;
  /** The bank rejected it: a processing off-ramp fails with `reason`, its funds held for refund. */
  paymentRejected(tx: EntityManager, transferId: string, reason: string): Promise<void>;
  /** The bank settled a refund: the on-ramp's held deposit is back with the customer (failed → refunded). */
  refundAccepted(tx: EntityManager, transferId: string): Promise<void>;
  /** The bank rejected a refund: the deposit stays held on the failed on-ramp, for a refund to another account. */
  refundRejected(tx: EntityManager, transferId: string, reason: string): Promise<void>;
}

/** Fiat the bank credited to Ramp's account, as it arrived. */
export interface ReceivedFiat {
  environment: Environment;
  /** In the currency's unit. */
  amount: Decimal;
  /** ISO 4217, lower case as Ramp names currencies. */
  currency: string;
}

/**
 * What a credit did to the transfer it named: `credited` (the on-ramp moved, under today's rules for an under- or
 * overpaid deposit), or `held` for return with the reason it could not be applied (`late`, `wrong_currency` …).
 */
export type CreditApplied = ({ outcome: 'credited'; transferId: string } | { outcome: 'held'; transferId: string | null; reason: string }) & {
  /** The customer the credit was for, when known: the entry's personal values are sealed by its data key. */
  owner?: EntryOwner;
};

/** A bank entry's customer, and its tenant (where its data key is read). */
export interface EntryOwner {
  customerId: string;
  partnerId: string;
  environment: Environment;
}

/**
 * Credits from the bank's camt.054, applied by transfers (bank-credit-calls.ts) in the caller's transaction, as the
 * sandbox's simulated fiat deposits are: the same use cases, whoever says the money arrived.
 */
export interface BankCreditCalls {
  /** Fiat for the on-ramp whose deposit message the payer wrote in `remittance`; null when it names none. */
  onrampCredited(tx: EntityManager, remittance: string, received: ReceivedFiat): Promise<CreditApplied | null>;
  /** Fiat paid into the virtual account whose IBAN or account number is `account`; null when none has it. */
  virtualAccountCredited(tx: EntityManager, account: string, received: ReceivedFiat): Promise<CreditApplied | null>;
  /**
   * The beneficiary's bank sent a payout back: a processing off-ramp fails with `reason`, its funds held for refund.
   * False when the transfer no longer waited for its payout (completed, failed or refunded meanwhile).
   */
  paymentReturned(tx: EntityManager, transferId: string, reason: string): Promise<boolean>;
}
