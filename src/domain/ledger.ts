import { type Asset, Decimal } from './money.js';

/**
 * Double-entry bookkeeping of every money movement: the sum of all entries is always zero. An entry's amount is signed:
 * positive is a debit, negative a credit. Every ledger transaction balances per asset, so the
 * sum of all entries of an asset is always zero.
 */
export const LEDGER_ACCOUNTS = [
  /** Liability: money held for customers (deposited, not yet paid out or returned). */
  'customer_funds',
  /** Asset: fiat in Ramp's bank accounts. */
  'bank',
  /** Asset: tokens in Ramp's wallets. */
  'wallet',
  /** Ramp's FX position: what conversions took in one asset and gave out in another. */
  'conversion',
  /** Revenue: the partner-configured platform fee. */
  'platform_fees',
  /** Payable to the partner: `developer_fee_percent`. */
  'developer_fees',
  /** Revenue that pays for the on-chain leg. */
  'network_fees',
] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

/**
 * One ledger transaction per movement per transfer; the database refuses a second one.
 * `excess_return`: what a customer paid in beyond the deposit amount, sent back on arrival.
 * `deposit_reversal`: a credited chain deposit whose block a reorganisation took off the chain.
 */
export const MOVEMENTS = ['deposit', 'fees', 'conversion', 'payout', 'refund', 'excess_return', 'deposit_reversal'] as const;
export type Movement = (typeof MOVEMENTS)[number];

export interface Posting {
  account: LedgerAccount;
  asset: Asset;
  /** Debit > 0, credit < 0; never zero. */
  amount: Decimal;
}

export class UnbalancedPostingsError extends Error {}

/** Refuses postings that do not sum to zero per asset, or that carry a zero amount. */
export function assertBalanced(postings: readonly Posting[]): void {
  const sums = new Map<Asset, Decimal>();
  for (const p of postings) {
    if (p.amount.isZero() || !p.amount.isFinite()) throw new UnbalancedPostingsError(`zero or invalid amount on ${p.account}`);
    sums.set(p.asset, (sums.get(p.asset) ?? new Decimal(0)).add(p.amount));
  }
  for (const [asset, sum] of sums) {
    if (!sum.isZero()) throw new UnbalancedPostingsError(`postings in ${asset} are off by ${sum.toString()}`);
  }
}

/** Postings without the zero-amount lines (a fee part of 0 moves nothing). */
const nonZero = (postings: Posting[]) => postings.filter((p) => !p.amount.isZero());

/** Where a deposit lands and a refund leaves from: fiat in the bank, tokens in a wallet. */
export type Custody = 'bank' | 'wallet';

/** The customer's deposit arrives: Ramp now holds it for them. */
export function depositPostings(asset: Asset, amount: Decimal, custody: Custody): Posting[] {
  return [
    { account: custody, asset, amount },
    { account: 'customer_funds', asset, amount: amount.neg() },
  ];
}

/** Fees leave the customer's funds for the platform, the partner and the network. */
export function feePostings(asset: Asset, fees: { platform: Decimal; developer: Decimal; network: Decimal }): Posting[] {
  const total = fees.platform.add(fees.developer).add(fees.network);
  return nonZero([
    { account: 'customer_funds', asset, amount: total },
    { account: 'platform_fees', asset, amount: fees.platform.neg() },
    { account: 'developer_fees', asset, amount: fees.developer.neg() },
    { account: 'network_fees', asset, amount: fees.network.neg() },
  ]);
}

/** What is left after fees converts; the FX position takes one asset and gives the other. */
export function conversionPostings(from: { asset: Asset; amount: Decimal }, to: { asset: Asset; amount: Decimal }): Posting[] {
  return [
    { account: 'customer_funds', asset: from.asset, amount: from.amount },
    { account: 'conversion', asset: from.asset, amount: from.amount.neg() },
    { account: 'conversion', asset: to.asset, amount: to.amount },
    { account: 'customer_funds', asset: to.asset, amount: to.amount.neg() },
  ];
}

/** The converted amount leaves Ramp for the customer's wallet or bank account. */
export function payoutPostings(asset: Asset, amount: Decimal, custody: Custody): Posting[] {
  return [
    { account: 'customer_funds', asset, amount },
    { account: custody, asset, amount: amount.neg() },
  ];
}

/** A refund returns the whole deposit held where it came from (no fee was taken before settlement). */
export const refundPostings = payoutPostings;

/**
 * A credited deposit that left the chain (a reorganisation): what it left held for the customer is
 * gone from the wallet, so the opposite of what the deposit (net of any excess returned) posted.
 */
export const depositReversalPostings = payoutPostings;

/** An overpayment's excess goes back to the sender at once: the customer's funds keep the deposit amount. */
export const excessReturnPostings = payoutPostings;

/**
 * How a deposit of `received` splits against the `expected` deposit amount: what is held for the
 * customer (at most the expected amount), and the excess that goes back at once (zero if none).
 */
export function depositSplit(received: Decimal, expected: Decimal): { held: Decimal; excess: Decimal } {
  return received.gt(expected) ? { held: expected, excess: received.sub(expected) } : { held: received, excess: new Decimal(0) };
}

/** The postings of a settlement: fees, conversion, payout (three ledger transactions). */
export function settlementPostings(settlement: {
  source: Asset;
  destination: Asset;
  sourceAmount: Decimal;
  destinationAmount: Decimal;
  fees: { platform: Decimal; developer: Decimal; network: Decimal };
  payoutCustody: Custody;
}): Record<'fees' | 'conversion' | 'payout', Posting[]> {
  const feeTotal = settlement.fees.platform.add(settlement.fees.developer).add(settlement.fees.network);
  return {
    fees: feePostings(settlement.source, settlement.fees),
    conversion: conversionPostings(
      { asset: settlement.source, amount: settlement.sourceAmount.sub(feeTotal) },
      { asset: settlement.destination, amount: settlement.destinationAmount },
    ),
    payout: payoutPostings(settlement.destination, settlement.destinationAmount, settlement.payoutCustody),
  };
}

/** Custody of an asset: fiat is in a bank, a token in a wallet. */
export const custodyOf = (asset: Asset): Custody => (asset === 'usdc' || asset === 'usdt' ? 'wallet' : 'bank');
