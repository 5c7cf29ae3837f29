import { FIAT_CURRENCIES, NETWORKS, PAYMENT_RAILS, TOKENS } from '../../domain/money.js';
import { builder } from '../builder.js';

/** `in_review` → `IN_REVIEW`, `limitedLiabilityCompany` → `LIMITED_LIABILITY_COMPANY`, `usd` → `USD`. */
export const screamingSnake = (value: string) =>
  value
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();

/**
 * A GraphQL enum over a domain's closed set: names in GraphQL's SCREAMING_SNAKE convention, values
 * the domain's own (REST keeps the spec's spelling). Resolvers return and receive domain values,
 * so the mapping happens here once and nowhere else. `describe` is a table over the domain's values
 * (or a rule for open-ended sets like error codes), so a value added to the domain list does not
 * type-check until it is described.
 */
export function domainEnum<const V extends string>(
  name: string,
  values: readonly V[],
  options: { description: string; describe: Readonly<Record<V, string>> | ((value: V) => string) },
) {
  const { describe } = options;
  const descriptionOf = typeof describe === 'function' ? describe : (value: V) => describe[value];
  const entries = values.map((value) => [screamingSnake(value), { value, description: descriptionOf(value) }] as const);
  const names = new Set(entries.map(([n]) => n));
  if (names.size !== values.length) throw new Error(`${name}: two values map to one GraphQL name`);
  return builder.enumType(name, {
    description: options.description,
    values: Object.fromEntries(entries) as Record<string, { value: V; description?: string }>,
  });
}

// Closed sets of money movement every module shares: one GraphQL type each.
export const FiatCurrencyEnum = domainEnum('FiatCurrency', FIAT_CURRENCIES, {
  description: 'A fiat currency Ramp moves (ISO 4217); amounts in it have 2 decimals',
  describe: { usd: 'US dollar', eur: 'Euro', aed: 'UAE dirham' },
});
export const StablecoinEnum = domainEnum('Stablecoin', TOKENS, {
  description: 'A stablecoin Ramp moves; amounts in it have 6 decimals',
  describe: { usdc: "USD Coin (Circle's USDC), at par with USD", usdt: "Tether USD (Tether's USDT), at par with USD" },
});
export const BlockchainNetworkEnum = domainEnum('BlockchainNetwork', NETWORKS, {
  description: 'A chain stablecoins move on (Network.rails says whether Ramp moves money on it for real or simulates it)',
  describe: {
    polygon: 'Polygon PoS (EVM)',
    ethereum: 'Ethereum mainnet (EVM)',
    solana: 'Solana',
    base: 'Base, an Ethereum layer 2 (EVM)',
    tron: 'Tron (TRC-20 tokens)',
    arbitrum: 'Arbitrum One, an Ethereum layer 2 (EVM)',
  },
});
export const PaymentRailsEnum = domainEnum('PaymentRails', PAYMENT_RAILS, {
  description: 'A bank rail fiat moves on',
  describe: {
    ach: 'ACH: US domestic batch transfers (USD)',
    wire: 'Fedwire: US domestic wire transfers (USD)',
    swift: 'SWIFT: international wire transfers (USD)',
    sepa: 'SEPA credit transfers in the euro area (EUR)',
    uaefts: 'UAEFTS: UAE Funds Transfer System (AED)',
  },
});
