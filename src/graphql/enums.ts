import { FIAT_CURRENCIES, NETWORKS, PAYMENT_RAILS, TOKENS } from '../domain/money.js';
import { builder } from './builder.js';

/** `in_review` → `IN_REVIEW`, `limitedLiabilityCompany` → `LIMITED_LIABILITY_COMPANY`, `usd` → `USD`. */
export const screamingSnake = (value: string) =>
  value
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();

/**
 * A GraphQL enum over a domain's closed set: names in GraphQL's SCREAMING_SNAKE convention, values
 * the domain's own (REST keeps the spec's spelling). Resolvers return and receive domain values,
 * so the mapping happens here once and nowhere else.
 */
export function domainEnum<const V extends string>(
  name: string,
  values: readonly V[],
  options: { description?: string; describe?: (value: V) => string | undefined } = {},
) {
  const entries = values.map((value) => [screamingSnake(value), { value, description: options.describe?.(value) }] as const);
  const names = new Set(entries.map(([n]) => n));
  if (names.size !== values.length) throw new Error(`${name}: two values map to one GraphQL name`);
  return builder.enumType(name, {
    description: options.description,
    values: Object.fromEntries(entries) as Record<string, { value: V; description?: string }>,
  });
}

// Closed sets of money movement every module shares: one GraphQL type each.
export const FiatCurrencyEnum = domainEnum('FiatCurrency', FIAT_CURRENCIES, { description: 'A fiat currency Ramp moves (ISO 4217)' });
export const StablecoinEnum = domainEnum('Stablecoin', TOKENS, { description: 'A stablecoin Ramp moves' });
export const BlockchainNetworkEnum = domainEnum('BlockchainNetwork', NETWORKS, { description: 'A chain stablecoins move on' });
export const PaymentRailsEnum = domainEnum('PaymentRails', PAYMENT_RAILS, { description: 'A bank rail fiat moves on' });
