import { Decimal } from 'decimal.js';

/**
 * Money is Decimal in memory, numeric in PostgreSQL and a string on the wire; never a JS number. A read that only
 * shows it holds PostgreSQL's exact text instead (`StoredAmount`, below; decision reads/036).
 */
export { Decimal };

export const FIAT_CURRENCIES = ['usd', 'eur', 'aed'] as const;
export type FiatCurrency = (typeof FIAT_CURRENCIES)[number];

export const TOKENS = ['usdc', 'usdt'] as const;
export type Token = (typeof TOKENS)[number];

export const NETWORKS = ['polygon', 'ethereum', 'solana', 'base', 'tron', 'arbitrum'] as const;
export type Network = (typeof NETWORKS)[number];
export const EVM_NETWORKS: readonly Network[] = ['polygon', 'ethereum', 'base', 'arbitrum'];

/** Bank rails per currency. */
export const PAYMENT_RAILS = ['ach', 'wire', 'swift', 'sepa', 'uaefts'] as const;
export type PaymentRails = (typeof PAYMENT_RAILS)[number];
export const RAILS_OF_CURRENCY: Record<FiatCurrency, readonly PaymentRails[]> = {
  usd: ['ach', 'wire', 'swift'],
  eur: ['sepa', 'swift'],
  aed: ['uaefts', 'swift'],
};

export type Asset = FiatCurrency | Token;

/** Decimal places of each asset: fiat 2, USDC/USDT 6. */
export const SCALE: Record<Asset, number> = { usd: 2, eur: 2, aed: 2, usdc: 6, usdt: 6 };

/** `developer_fee_percent` and amounts: non-negative decimal strings. */
export const DECIMAL_PATTERN = /^[0-9]+(\.[0-9]+)?$/;
/** A decimal with a minus sign: a well-formed number, refused as an amount for its sign (`not_positive`), as zero is. */
export const NEGATIVE_DECIMAL_PATTERN = /^-[0-9]+(\.[0-9]+)?$/;

/** A percentage of at most 100 with at most 8 decimal places (developer fees), as a pattern for the REST contract. */
export const FEE_PERCENT_PATTERN = '^(?:100(?:\\.0{1,8})?|[0-9]{1,2}(?:\\.[0-9]{1,8})?)$';

/** JSON Schema of a positive decimal string with at most `scale` places, for the REST contract (openapi.json). */
export const positiveAmountSchema = (scale?: number) => ({
  pattern: `^[0-9]+(\\.[0-9]${scale === undefined ? '+' : `{1,${scale}}`})?$`,
  not: { pattern: '^[0.]*$' },
});

/** What the customer pays rounds up to the asset's unit. */
export const roundPaid = (amount: Decimal, asset: Asset) => amount.toDecimalPlaces(SCALE[asset], Decimal.ROUND_UP);
/** What the customer receives rounds down to the asset's unit. */
export const roundReceived = (amount: Decimal, asset: Asset) => amount.toDecimalPlaces(SCALE[asset], Decimal.ROUND_DOWN);

/**
 * Money as a read holds it: a Decimal (an entity's), or the exact text PostgreSQL stored (a read's row,
 * platform/reads/queries.ts), which is only ever shown. Arithmetic takes a Decimal.
 */
export type StoredAmount = Decimal | string;

/** An amount's digits as they are, no exponent (`toFixed()`): PostgreSQL's text already is. */
export const plainAmount = (amount: StoredAmount): string => (typeof amount === 'string' ? amount : amount.toFixed());

/**
 * `amount.toFixed(places)`. An amount with no more decimals than `places` (every stored amount at
 * its asset's scale) is padded with zeros, not rounded: a page of 100 transfers formats 300 of them,
 * from the text PostgreSQL sent, with no Decimal made.
 */
export function toFixedPlaces(amount: StoredAmount, places: number): string {
  const plain = plainAmount(amount);
  const point = plain.indexOf('.');
  const decimals = point < 0 ? 0 : plain.length - point - 1;
  if (decimals === places) return plain;
  if (decimals > places) return new Decimal(plain).toFixed(places);
  return `${point < 0 ? `${plain}.` : plain}${'0'.repeat(places - decimals)}`;
}

/** Wire format: fixed scale, no exponent. */
export const formatAmount = (amount: StoredAmount, asset: Asset) => toFixedPlaces(amount, SCALE[asset]);
