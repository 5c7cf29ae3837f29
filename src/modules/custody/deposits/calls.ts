import type { EntityManager } from '@mikro-orm/sql';
import type { Decimal, Token } from '../../../domain/money.js';

/** A deposit's off-ramp as custody needs it, read under the transfer's row lock: whether and how much it waits for. */
export interface DepositingTransfer {
  id: string;
  status: string;
  token: Token;
  /** What the customer must send, in tokens. */
  depositAmount: Decimal;
  depositExpiresAt: Date;
}

/**
 * What custody's deposit watcher tells transfers, and asks of them: named calls, each in the caller's transaction, so
 * custody never sets a transfer's field or status. Transfers implement it (transfers/deposit-calls.ts).
 */
export interface DepositCalls {
  /** The deposit's transfer, locked `FOR UPDATE` until the caller's transaction ends (deposits of one transfer queue on it). */
  lockForDeposit(tx: EntityManager, transferId: string): Promise<DepositingTransfer>;
  /**
   * The transfer's first waiting deposit, `txHash`, has `confirmations` of the chain's `required`: the transfer shows them
   * (and the hash, unless another transfer names it). Answers whether that changed what the transfer shows.
   */
  depositConfirming(tx: EntityManager, transferId: string, deposit: { txHash: string; confirmations: number; required: number }): Promise<boolean>;
  /** What the transfer shows of its deposit changed: announced (`deposit.updated`). */
  depositUpdated(tx: EntityManager, transferId: string): Promise<void>;
  /** Its confirmed deposits, `received` in all, are credited: processing when `funded`, else failed `underpaid`. */
  depositsCredited(tx: EntityManager, transferId: string, received: Decimal, funded: boolean): Promise<void>;
  /** Its credited deposit left the chain: the credit is reversed by a new ledger movement. */
  depositReversed(tx: EntityManager, transferId: string): Promise<void>;
  /** Its waiting deposit `txHash` left the chain: a pending transfer waits again, its confirmations reset, announced. */
  depositRemoved(tx: EntityManager, transferId: string, txHash: string): Promise<void>;
}
