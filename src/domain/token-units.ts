import { Decimal } from './money.js';

/**
 * Conversions between a token's amounts and its base units, by the decimals its contract declares
 * (rails/port.ts `TokenContract.decimals`, read from the chain): never a token's usual count, which
 * differs between chains for the same token.
 */

/** Base units as the token's amount, exactly. */
export const tokenUnits = (amount: bigint, decimals: number) => new Decimal(amount.toString()).div(new Decimal(10).pow(decimals));

/** An amount as base units; one finer than a base unit cannot be sent, so it is refused rather than rounded. */
export function baseUnits(amount: Decimal, decimals: number): bigint {
  if (amount.decimalPlaces() > decimals) throw new Error(`${amount.toFixed()} has more than the token's ${decimals} decimals`);
  return BigInt(amount.mul(new Decimal(10).pow(decimals)).toFixed(0));
}
