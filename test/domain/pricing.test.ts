import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UnprocessableError, ValidationError } from '../../src/domain/errors.js';
import { type Asset, Decimal, FIAT_CURRENCIES, NETWORKS, SCALE, TOKENS } from '../../src/domain/money.js';
import {
  NETWORK_FEES_USD,
  type PricingPolicy,
  type QuoteRequest,
  parseAmount,
  parseAmounts,
  parseDeveloperFeePercent,
  priceQuote,
  sandboxRateSource,
} from '../../src/domain/pricing.js';

const policy: PricingPolicy = { minUsd: new Decimal(1), maxUsd: new Decimal(1_000_000), networkFeesUsd: NETWORK_FEES_USD };
const unit = (asset: Asset) => new Decimal(1).div(new Decimal(10).pow(SCALE[asset]));

/** A random market, a random pair in one direction, fees, and an amount in minor units of the source. */
const scenario = fc
  .record({
    eur: fc.integer({ min: 5_000, max: 20_000 }).map((n) => new Decimal(n).div(10_000)),
    aed: fc.integer({ min: 1_000, max: 5_000 }).map((n) => new Decimal(n).div(10_000)),
    fiat: fc.constantFrom(...FIAT_CURRENCIES),
    token: fc.constantFrom(...TOKENS),
    onramp: fc.boolean(),
    network: fc.constantFrom(...NETWORKS),
    platformFeeBps: fc.integer({ min: 0, max: 1_000 }),
    developerFeePercent: fc.integer({ min: 0, max: 50_000 }).map((n) => new Decimal(n).div(10_000)),
    // Small amounts (where rounding and fixed network fees bite) as often as large ones.
    minorUnits: fc.oneof(fc.bigInt({ min: 1n, max: 100_000n }), fc.bigInt({ min: 1n, max: 10n ** 12n })),
  })
  .map((s) => {
    const source: Asset = s.onramp ? s.fiat : s.token;
    const destination: Asset = s.onramp ? s.token : s.fiat;
    return {
      rates: sandboxRateSource({ eur: s.eur, aed: s.aed }),
      base: { source, destination, network: s.network, platformFeeBps: s.platformFeeBps, developerFeePercent: s.developerFeePercent },
      // Capped near the 1,000,000 USD maximum in the source's own minor units.
      amount: new Decimal(((s.minorUnits % 10n ** BigInt(SCALE[source] + 6)) + 1n).toString()).mul(unit(source)),
    };
  });

/** Prices, or undefined when the amount is outside the limits (those cases are tested apart). */
function price(request: QuoteRequest, rates: ReturnType<typeof sandboxRateSource>) {
  try {
    return priceQuote(request, rates, policy);
  } catch (error) {
    if (error instanceof UnprocessableError && error.code === 'amount_out_of_range') return undefined;
    throw error;
  }
}

const hasScale = (amount: Decimal, asset: Asset) => amount.decimalPlaces() <= SCALE[asset];

describe('pricing (property based)', () => {
  it('never charges a negative fee, and the fee parts add up to the fee', () => {
    fc.assert(
      fc.property(scenario, ({ rates, base, amount }) => {
        const q = price({ ...base, side: 'source', amount }, rates);
        if (!q) return;
        for (const part of [q.fees.platform, q.fees.developer, q.fees.network]) expect(part.gte(0)).toBe(true);
        expect(q.fees.platform.add(q.fees.developer).add(q.fees.network).eq(q.feeAmount)).toBe(true);
        expect(q.feeAmount.lt(q.sourceAmount)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('never gives an amount more decimal places than its asset has', () => {
    fc.assert(
      fc.property(scenario, fc.boolean(), ({ rates, base, amount }, bySource) => {
        const side = bySource ? 'source' : 'destination';
        const asset = bySource ? base.source : base.destination;
        const q = price({ ...base, side, amount: amount.toDecimalPlaces(SCALE[asset], Decimal.ROUND_DOWN).add(unit(asset)) }, rates);
        if (!q) return;
        expect(hasScale(q.sourceAmount, base.source)).toBe(true);
        expect(hasScale(q.destinationAmount, base.destination)).toBe(true);
        for (const part of [q.fees.platform, q.fees.developer, q.fees.network]) expect(hasScale(part, base.source)).toBe(true);
        expect(q.exchangeRate.decimalPlaces()).toBeLessThanOrEqual(8);
      }),
      { numRuns: 500 },
    );
  });

  it('rounds in the customer’s disfavour only: received ≤ exact conversion of what is left after fees, by less than one unit', () => {
    fc.assert(
      fc.property(scenario, ({ rates, base, amount }) => {
        const q = price({ ...base, side: 'source', amount }, rates);
        if (!q) return;
        const exact = q.sourceAmount.sub(q.feeAmount).mul(q.exchangeRate);
        expect(q.destinationAmount.lte(exact)).toBe(true);
        expect(exact.sub(q.destinationAmount).lt(unit(base.destination))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees in both directions: by destination finds the smallest source, which by source delivers it within one unit', () => {
    fc.assert(
      fc.property(scenario, ({ rates, base, amount }) => {
        const bySource = price({ ...base, side: 'source', amount }, rates);
        if (!bySource) return;
        const byDestination = price({ ...base, side: 'destination', amount: bySource.destinationAmount }, rates);
        if (!byDestination) return; // the smaller source can fall under the minimum
        expect(byDestination.destinationAmount.eq(bySource.destinationAmount)).toBe(true);
        expect(byDestination.sourceAmount.lte(bySource.sourceAmount)).toBe(true);
        // What the by-destination source delivers by source: at least the target, at most one unit more.
        const delivered = price({ ...base, side: 'source', amount: byDestination.sourceAmount }, rates)!;
        const slack = unit(base.source).mul(byDestination.exchangeRate).add(unit(base.destination));
        expect(delivered.destinationAmount.gte(bySource.destinationAmount)).toBe(true);
        expect(delivered.destinationAmount.sub(bySource.destinationAmount).lt(slack)).toBe(true);
        // One unit less would not deliver it: the source is the smallest possible.
        const less = price({ ...base, side: 'source', amount: byDestination.sourceAmount.sub(unit(base.source)) }, rates);
        if (less) expect(less.destinationAmount.lt(bySource.destinationAmount)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('pricing (examples)', () => {
  const rates = sandboxRateSource({ eur: '1.08', aed: '0.2723' });
  const request = (over: Partial<QuoteRequest> = {}): QuoteRequest => ({
    source: 'eur',
    destination: 'usdc',
    network: 'polygon',
    side: 'source',
    amount: new Decimal('100'),
    platformFeeBps: 50,
    developerFeePercent: new Decimal(1),
    ...over,
  });

  it('prices USDC and USDT at par with USD', () => {
    const q = priceQuote(
      request({ source: 'usdc', destination: 'usd', network: 'solana', platformFeeBps: 0, developerFeePercent: new Decimal(0) }),
      rates,
      policy,
    );
    expect(q.exchangeRate.toString()).toBe('1');
    expect(q.fees.network.toString()).toBe('0.02');
    expect(q.destinationAmount.toString()).toBe('99.98');
  });

  it('quotes the inverse of a configured rate to 8 places', () => {
    const q = priceQuote(request({ source: 'usdt', destination: 'eur', network: 'tron' }), rates, policy);
    expect(q.exchangeRate.toFixed(8)).toBe('0.92592593');
  });

  it('refuses amounts outside the limits with 422 amount_out_of_range', () => {
    expect(() => priceQuote(request({ amount: new Decimal('0.92') }), rates, policy)).toThrow(UnprocessableError);
    expect(() => priceQuote(request({ amount: new Decimal('925926') }), rates, policy)).toThrow(/between 1 and 1000000 USD/);
    expect(() => priceQuote(request({ amount: new Decimal('0.93') }), rates, { ...policy, minUsd: new Decimal(1) })).not.toThrow();
  });

  it('refuses both amounts, or neither, with a ValidationError', () => {
    const assets = { source: 'eur', destination: 'usdc' } as const;
    expect(() => parseAmounts({ sourceAmount: '1', destinationAmount: '1' }, assets)).toThrow(ValidationError);
    expect(() => parseAmounts({}, assets)).toThrow(ValidationError);
    expect(parseAmounts({ destinationAmount: '1.123456' }, assets)).toMatchObject({ side: 'destination' });
    expect(() => parseAmounts({ destinationAmount: '1.1234567' }, assets)).toThrow(ValidationError);
  });

  it('names the field an amount came from in its errors', () => {
    const fieldErrorsOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as ValidationError).fieldErrors.map((e) => `${e.pointer} ${e.code}`);
      }
      return [];
    };
    expect(parseAmount('10.12', 'eur', '/amount').toString()).toBe('10.12');
    expect(fieldErrorsOf(() => parseAmount('10.123', 'eur', '/amount'))).toEqual(['/amount too_many_decimals']);
    expect(fieldErrorsOf(() => parseAmount('x', 'usd', '/amount'))).toEqual(['/amount invalid_decimal']);
    expect(fieldErrorsOf(() => parseAmounts({ destinationAmount: '0' }, { source: 'eur', destination: 'usdc' }))).toEqual(['/destinationAmount not_positive']);
  });

  it('reads developer_fee_percent as a percentage of at most 100 with at most 8 places', () => {
    expect(parseDeveloperFeePercent(undefined).toString()).toBe('0');
    expect(parseDeveloperFeePercent('0.12345678').toString()).toBe('0.12345678');
    expect(() => parseDeveloperFeePercent('0.123456789')).toThrow(ValidationError);
    expect(() => parseDeveloperFeePercent('100.5')).toThrow(ValidationError);
    expect(() => parseDeveloperFeePercent('1e2')).toThrow(ValidationError);
  });
});
