import type { EntityManager } from '@mikro-orm/sql';
import type { Environment } from '../../../domain/environment.js';
import type { Decimal, Network, Token } from '../../../domain/money.js';

/** An on-ramp that waits for its payout, as custody sees it: what to pay, where, nothing of whose money it is. */
export interface PayoutRequest {
  transferId: string;
  token: Token;
  /** The destination address. */
  to: string;
  /** In tokens (the quote's destination amount). */
  amount: Decimal;
}

/** Why a payout failed, as its transfer records it. */
export type PayoutFailure = 'payout_reverted' | 'payout_dropped' | 'treasury_insufficient_funds';

/**
 * What custody tells transfers, and asks of them, about payouts: named calls, each in the caller's transaction and on
 * the transfer's row lock, so custody never touches a transfer's fields or status itself. Transfers implement it.
 */
export interface PayoutCalls {
  /** Processing on-ramps of a chain that have no payout yet, locked `SKIP LOCKED` for the caller's transaction, oldest first. */
  payoutsRequested(tx: EntityManager, chain: { environment: Environment; network: Network }, limit: number): Promise<PayoutRequest[]>;
  /**
   * Their payouts are signed and stored (a batch, or one replacement): each transfer, already locked by the caller,
   * shows its hash (before it completes) and the confirmations it waits for.
   */
  payoutsSigned(tx: EntityManager, signed: readonly { transferId: string; transactionHash: string }[], requiredConfirmations: number): Promise<void>;
  /** Its payout is mined with `confirmations` so far: answers whether the transfer changed. */
  payoutConfirming(tx: EntityManager, transferId: string, transactionHash: string, confirmations: number, required: number): Promise<boolean>;
  /** Its payout has the chain's confirmations: a processing transfer completes. */
  payoutConfirmed(tx: EntityManager, transferId: string): Promise<void>;
  /** Its payout's block left the chain: sent again, the transfer's confirmations back to 0. */
  payoutRequeued(tx: EntityManager, transferId: string): Promise<void>;
  /** Its payout failed, or could not be paid: a processing transfer fails with the reason, its funds held. */
  payoutFailed(tx: EntityManager, transferId: string, reason: PayoutFailure): Promise<void>;
}
