import type { EntityManager } from '@mikro-orm/sql';
import type { Environment } from '../../../domain/environment.js';
import type { Decimal, Network, Token } from '../../../domain/money.js';

/** A deposit's off-ramp as custody needs it, read under the transfer's row lock: whether and how much it waits for. */
export interface DepositingTransfer {
  id: string;
  status: string;
  token: Token;
  /** What the customer must send, in tokens. */
  depositAmount: Decimal;
  depositExpiresAt: Date;
}

/** The off-ramp a deposit address belongs to, as far as deciding a new deposit's status needs. */
export interface DepositTarget {
  transferId: string;
  token: Token;
  status: string;
  depositExpiresAt: Date;
}

/** Where a chain's deposits land: its environment and network (a chain serves one of each). */
export interface DepositChain {
  environment: Environment;
  network: Network;
}

/**
 * What custody's deposit watcher tells transfers, and asks of them: named calls, each in the caller's transaction, so
 * custody never sets a transfer's field or status, and never names a table or column of theirs. Transfers implement
 * it (transfers/calls/deposit.ts).
 */
export interface DepositCalls {
  /**
   * The deposit addresses (lower case) of the chain's off-ramps whose window is open, or closed after `closedSince`:
   * the only recipients whose token transfers the watcher reads.
   */
  depositAddresses(em: EntityManager, chain: DepositChain, closedSince: Date): Promise<string[]>;
  /** The chain's off-ramps whose deposit address is one of `addresses` (lower case), by address. */
  depositTargets(em: EntityManager, chain: DepositChain, addresses: readonly string[]): Promise<Map<string, DepositTarget>>;
  /** Of `transferIds`, those that no longer wait for deposits: their window closed, or they left pending. */
  windowsDue(em: EntityManager, transferIds: readonly string[], now: Date): Promise<string[]>;
  /** The derivation index of each transfer's deposit address (its key signs the sweep), by transfer; none for an address Ramp did not derive. */
  depositAddressIndexes(em: EntityManager, transferIds: readonly string[]): Promise<Map<string, number>>;
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
