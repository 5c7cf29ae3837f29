import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Posting,
  UnbalancedPostingsError,
  assertBalanced,
  custodyOf,
  depositPostings,
  refundPostings,
  settlementPostings,
} from '../../src/domain/ledger.js';
import { type Asset, Decimal, FIAT_CURRENCIES, TOKENS } from '../../src/domain/money.js';

const money = (max: number, places: number) => fc.integer({ min: 0, max }).map((n) => new Decimal(n).div(10 ** places));

/** A settled or refunded transfer's movements, with random amounts and fees. */
const lifecycle = fc
  .record({
    onramp: fc.boolean(),
    fiat: fc.constantFrom(...FIAT_CURRENCIES),
    token: fc.constantFrom(...TOKENS),
    amount: money(10_000_000, 2).filter((d) => d.gt(1)),
    platform: money(100, 2),
    developer: money(100, 2),
    network: money(100, 2),
    destinationAmount: money(100_000_000, 6).filter((d) => d.gt(0)),
    refunded: fc.boolean(),
  })
  .map((s) => {
    const source: Asset = s.onramp ? s.fiat : s.token;
    const destination: Asset = s.onramp ? s.token : s.fiat;
    const postings: Posting[][] = [depositPostings(source, s.amount, custodyOf(source))];
    if (s.refunded) postings.push(refundPostings(source, s.amount, custodyOf(source)));
    else {
      const settled = settlementPostings({
        source,
        destination,
        sourceAmount: s.amount,
        destinationAmount: s.destinationAmount,
        fees: { platform: s.platform, developer: s.developer, network: s.network },
        payoutCustody: custodyOf(destination),
      });
      postings.push(settled.fees, settled.conversion, settled.payout);
    }
    return postings.filter((p) => p.length);
  });

describe('ledger postings', () => {
  it('balance per currency in every ledger transaction, and over any number of transfers', () => {
    fc.assert(
      fc.property(fc.array(lifecycle, { maxLength: 20 }), (transfers) => {
        const totals = new Map<Asset, Decimal>();
        for (const transaction of transfers.flat()) {
          expect(() => assertBalanced(transaction)).not.toThrow();
          for (const p of transaction) totals.set(p.asset, (totals.get(p.asset) ?? new Decimal(0)).add(p.amount));
        }
        for (const total of totals.values()) expect(total.isZero()).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves nothing in customer funds once a transfer is settled or refunded', () => {
    fc.assert(
      fc.property(lifecycle, (transactions) => {
        const held = transactions
          .flat()
          .filter((p) => p.account === 'customer_funds')
          .reduce((sum, p) => sum.add(p.amount), new Decimal(0));
        expect(held.isZero()).toBe(true);
      }),
    );
  });

  it('refuses unbalanced postings and zero lines', () => {
    expect(() => assertBalanced([{ account: 'bank', asset: 'eur', amount: new Decimal(1) }])).toThrow(UnbalancedPostingsError);
    expect(() =>
      assertBalanced([
        { account: 'bank', asset: 'eur', amount: new Decimal(1) },
        { account: 'customer_funds', asset: 'usd', amount: new Decimal(-1) },
      ]),
    ).toThrow(/eur/);
    expect(() => assertBalanced([{ account: 'bank', asset: 'eur', amount: new Decimal(0) }])).toThrow(UnbalancedPostingsError);
  });

  it('drops fee lines of zero', () => {
    const settled = settlementPostings({
      source: 'eur',
      destination: 'usdc',
      sourceAmount: new Decimal(10),
      destinationAmount: new Decimal(10.8),
      fees: { platform: new Decimal(0), developer: new Decimal(0), network: new Decimal('0.05') },
      payoutCustody: 'wallet',
    });
    expect(settled.fees.map((p) => p.account)).toEqual(['customer_funds', 'network_fees']);
  });
});
