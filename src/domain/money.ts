import { Decimal } from 'decimal.js';

/** Money is Decimal in memory, numeric in PostgreSQL and a string on the wire; never a JS number. */
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

/** `developer_fee_percent` and amounts: non-negative decimal strings (spec §4.3). */
export const DECIMAL_PATTERN = /^[0-9]+(\.[0-9]+)?$/;

/** What the customer pays rounds up to the asset's unit. */
export const roundPaid = (amount: Decimal, asset: Asset) => amount.toDecimalPlaces(SCALE[asset], Decimal.ROUND_UP);
/** What the customer receives rounds down to the asset's unit. */
export const roundReceived = (amount: Decimal, asset: Asset) => amount.toDecimalPlaces(SCALE[asset], Decimal.ROUND_DOWN);

/** Wire format: fixed scale, no exponent. */
export const formatAmount = (amount: Decimal, asset: Asset) => amount.toFixed(SCALE[asset]);
