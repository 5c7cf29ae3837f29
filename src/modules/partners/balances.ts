import type { Scope } from '../../platform/use-cases/scope.js';
import { heldForCustomers } from '../ledger/service.js';
import { Decimal, FIAT_CURRENCIES, type FiatCurrency, formatAmount, TOKENS, type Token } from '../../domain/money.js';

/** Deposited fiat held for the partner, per currency. Amounts are decimal strings at the currency's scale. */
export interface FiatBalance {
  currency: FiatCurrency;
  balance: string;
}

/** Deposited tokens held for the partner, per token. */
export interface CryptoBalance {
  coin: Token;
  balance: string;
}

/** A token's minimum threshold and how much of the balance is above it. */
export interface CryptoThreshold {
  coin: Token;
  minimumThreshold: string;
  currentBalance: string;
  /** What remains usable above the threshold: max(current - minimum, 0). */
  remainingBalance: string;
}

export interface PartnerBalances {
  reservedFiat: FiatBalance[];
  reservedCrypto: CryptoBalance[];
  cryptoThreshold: CryptoThreshold[];
}

/** One `crypto_threshold` line; kept for the ledger version of partnerBalances. */
export function threshold(coin: Token, current: Decimal, minimum: Decimal): CryptoThreshold {
  return {
    coin,
    minimumThreshold: formatAmount(minimum, coin),
    currentBalance: formatAmount(current, coin),
    remainingBalance: formatAmount(Decimal.max(current.minus(minimum), 0), coin),
  };
}

/**
 * The partner's balances for accountInfo and GraphQL, from the ledger: what Ramp holds for the
 * partner's customers (deposits received, not yet paid out or returned), per asset. No minimum
 * threshold is configured, so the whole crypto balance remains usable.
 */
export async function partnerBalances(scope: Scope): Promise<PartnerBalances> {
  const held = await heldForCustomers(scope);
  const zero = new Decimal(0);
  return {
    reservedFiat: FIAT_CURRENCIES.map((currency) => ({ currency, balance: formatAmount(held.get(currency) ?? zero, currency) })),
    reservedCrypto: TOKENS.map((coin) => ({ coin, balance: formatAmount(held.get(coin) ?? zero, coin) })),
    cryptoThreshold: TOKENS.map((coin) => threshold(coin, held.get(coin) ?? zero, zero)),
  };
}
