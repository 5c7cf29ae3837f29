import type { EntityManager } from '@mikro-orm/sql';

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
