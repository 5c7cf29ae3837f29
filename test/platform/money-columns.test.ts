import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, toFixedPlaces } from '../../src/domain/money.js';
import { Quote, type TransferTables } from '../../src/modules/transfers/entities.js';
import type { Kysely } from 'kysely';
import { rowShape, rowsOf, selecting } from '../../src/platform/reads/queries.js';
import { ACROSS_TENANTS } from '../../src/platform/security/tenant.js';
import { startRamp, type TestRamp } from '../support/ramp.js';
import { createCustomer, onrampQuoteBody } from '../support/data/transfers.js';

describe('money columns', () => {
  let t: TestRamp;
  let quoteId: string;
  beforeAll(async () => {
    t = await startRamp();
    const api = t.client(t.key);
    const customerId = await createCustomer(api, { approved: true });
    const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    expect(quote.status).toBe(201);
    quoteId = quote.body.quote_id;
  });
  afterAll(() => t.close());

  it('reads numeric amounts back as Decimal, exactly as stored', async () => {
    const quote = await t.ramp.db.fork().findOneOrFail(Quote, { id: quoteId }, ACROSS_TENANTS);
    expect(quote.sourceAmount).toBeInstanceOf(Decimal);
    expect(quote.sourceAmount.equals('100')).toBe(true);
    const [row] = await t.sql<{ fee_amount: string }>('select fee_amount::text from quotes where id = ?', [quoteId]);
    expect(quote.feeAmount.equals(row!.fee_amount)).toBe(true);
  });

  it('reads them in a plain read as the exact text stored, without its scale, which formats as the Decimal does', async () => {
    const em = t.ramp.db.fork();
    const shape = rowShape(em, Quote, 'q', ['sourceAmount', 'feeAmount', 'exchangeRate']);
    const [row] = await rowsOf(selecting((em.getKysely() as Kysely<TransferTables>).selectFrom('quotes as q').where('q.id', '=', quoteId), shape), shape);
    const quote = await em.findOneOrFail(Quote, { id: quoteId }, ACROSS_TENANTS);
    expect(row!.sourceAmount).toBe('100');
    for (const amount of ['sourceAmount', 'feeAmount', 'exchangeRate'] as const) {
      expect(row![amount]).toBe(quote[amount].toFixed());
      expect(toFixedPlaces(row![amount], 8)).toBe(quote[amount].toFixed(8));
    }
  });

  it('leaves a loaded quote clean: the same amount at another scale is no change to write', async () => {
    const em = t.ramp.db.fork();
    const quote = await em.findOneOrFail(Quote, { id: quoteId }, ACROSS_TENANTS);
    quote.sourceAmount = new Decimal(quote.sourceAmount.toFixed(2)); // 100.00 against numeric's 100.000000000000000000
    em.getUnitOfWork().computeChangeSets();
    expect(em.getUnitOfWork().getChangeSets()).toEqual([]);
    quote.sourceAmount = quote.sourceAmount.plus('0.000001');
    em.getUnitOfWork().computeChangeSets();
    expect(
      em
        .getUnitOfWork()
        .getChangeSets()
        .map((change) => Object.keys(change.payload)),
    ).toEqual([['sourceAmount']]);
  });
});
