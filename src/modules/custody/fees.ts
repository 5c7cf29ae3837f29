import { Decimal } from '../../domain/money.js';
import type { Fees } from '../../rails/port.js';
import type { CrashPoint } from './crash-points.js';

/** How Ramp follows what it sent: when a stuck transaction is replaced, and how high its fee may go. */
export interface SendingSettings {
  /** A transaction not mined after this long is signed again under its nonce at higher fees (PAYOUT_REPLACE_AFTER_SECONDS). */
  replaceAfterSeconds: number;
  /** No replacement is signed with a max fee per gas above this, in wei (CHAIN_FEE_CEILING_GWEI). */
  feeCeilingWei: bigint;
  /** Tests only (NODE_ENV=test): where the process kills itself, right after storing what must be sent (crash-points.ts). */
  crashAt: CrashPoint | null;
}

/** A node accepts a replacement (same nonce) only for at least 10 % more of both fees; 12.5 % clears every client's rule. */
const bump = (wei: bigint) => (wei * 1125n + 999n) / 1000n;
const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * The fees of a replacement: the stuck transaction's at least 12.5 % higher (or the chain's current ones, if higher
 * still), never above `ceiling`. Null when the ceiling leaves less than the 10 % a node requires: the transaction then
 * waits as it is, sent again unchanged.
 */
export function replacementFees(stuck: Fees, current: Fees, ceiling: bigint): Fees | null {
  const maxFeePerGas = min(max(bump(stuck.maxFeePerGas), current.maxFeePerGas), ceiling);
  const maxPriorityFeePerGas = min(max(bump(stuck.maxPriorityFeePerGas), current.maxPriorityFeePerGas), maxFeePerGas);
  if (maxFeePerGas * 10n < stuck.maxFeePerGas * 11n || maxPriorityFeePerGas * 10n < stuck.maxPriorityFeePerGas * 11n) return null;
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** Wei as the numeric(78,0) columns keep it. */
export const wei = (amount: bigint) => new Decimal(amount.toString());

/** Fees as the columns keep them, back in wei. */
export const feesOf = (maxFeePerGas: Decimal, maxPriorityFeePerGas: Decimal): Fees => ({
  maxFeePerGas: BigInt(maxFeePerGas.toFixed()),
  maxPriorityFeePerGas: BigInt(maxPriorityFeePerGas.toFixed()),
});
