/**
 * Sums of money amounts for display, exact: amounts arrive as decimal strings (never floats) with
 * at most 6 decimals, so they add up as integers of millionths.
 */
const SCALE = 6;

const toUnits = (amount: string): bigint => {
  const [whole = '0', fraction = ''] = amount.replace(/^-/, '').split('.');
  const units = BigInt(whole) * 10n ** BigInt(SCALE) + BigInt((fraction + '0'.repeat(SCALE)).slice(0, SCALE) || '0');
  return amount.startsWith('-') ? -units : units;
};

const fromUnits = (units: bigint, decimals: number): string => {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(SCALE + 1, '0');
  const whole = digits.slice(0, -SCALE);
  const fraction = digits.slice(-SCALE, -SCALE + decimals || undefined);
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`;
};

/** a + b + …, shown with `decimals` places (truncated: only labels use it). */
export const sumAmounts = (amounts: readonly string[], decimals = 2): string =>
  fromUnits(
    amounts.reduce((sum, a) => sum + toUnits(a), 0n),
    decimals,
  );

/** The largest of the amounts ("0" for none). */
export const largestOf = (amounts: readonly string[]): string => amounts.reduce((max, a) => (toUnits(a) > toUnits(max) ? a : max), '0');

/** The amount as a share of the largest, for bar heights only (a ratio, not money). */
export const shareOf = (amount: string, largest: string): number => {
  const max = toUnits(largest);
  return max === 0n ? 0 : Number((toUnits(amount) * 10_000n) / max) / 10_000;
};
