import type { Scope } from '../../platform/scope.js';
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
 * The partner's balances for accountInfo and GraphQL. This is the one place they come from:
 * until the ledger exists every balance is zero; the ledger replaces this body with sums of
 * its entries for `tenantOf(scope.actor)` (the signature stays).
 */
export async function partnerBalances(_scope: Scope): Promise<PartnerBalances> {
  const zero = new Decimal(0);
  return {
    reservedFiat: FIAT_CURRENCIES.map((currency) => ({ currency, balance: formatAmount(zero, currency) })),
    reservedCrypto: TOKENS.map((coin) => ({ coin, balance: formatAmount(zero, coin) })),
    cryptoThreshold: TOKENS.map((coin) => threshold(coin, zero, zero)),
  };
}
