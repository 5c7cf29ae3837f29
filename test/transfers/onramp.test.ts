import { Decimal } from '../../src/domain/money.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, TestRamp } from '../support/ramp.js';
import { ageQuote, createCustomer, idempotencyKey, onrampQuoteBody, useTransferFixture, wallet } from '../support/data/transfers.js';

const fixture = useTransferFixture({ platformFeeBps: 50 });
let t: TestRamp;
let api: ApiClient;
let customerId: string;
beforeAll(() => {
  ({ t, api, customerId } = fixture);
});

const quotePath = (customer = customerId) => `/v0/customers/${customer}/onramp-transfer/quote`;
const newQuote = async (overrides: Record<string, unknown> = {}, customer = customerId) => {
  const res = await api.post(quotePath(customer), onrampQuoteBody(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const newTransfer = async (customer = customerId, overrides: Record<string, unknown> = {}) => {
  const quote = await newQuote(overrides, customer);
  const res = await api.post(`${quotePath(customer)}/${quote.quote_id}`, { destination_address: wallet() });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

describe('POST /v0/customers/{customer_id}/onramp-transfer/quote', () => {
  it('answers 201 with every quote field, fees in the source currency and the rounding of the quote rules', async () => {
    const res = await api.post(quotePath(), onrampQuoteBody());
    expect(res.status).toBe(201);
    // EUR 100.00 at 1.08: platform 0.5 % = 0.50, developer 1 % = 1.00, polygon gas USD 0.05 = EUR 0.0463 → 0.05 (rounded up).
    expect(res.body).toEqual({
      quote_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      customer_id: customerId,
      source_amount: '100.00',
      source_currency: 'eur',
      source_payment_rails: 'sepa',
      destination_amount: '106.326000', // (100.00 − 1.55) × 1.08, rounded down to 6 places
      destination_token: 'usdc',
      destination_network: 'polygon',
      exchange_rate: '1.08000000',
      fee_amount: '1.55',
      fee_breakdown: { currency: 'eur', platform_fee: '0.50', developer_fee: '1.00', network_fee: '0.05' },
      developer_fee_percent: '1',
      expire_at: expect.any(String),
      created_at: expect.any(String),
      transfer_id: null,
    });
    const ttl = Date.parse(res.body.expire_at) - Date.parse(res.body.created_at);
    expect(ttl).toBe(900_000);
  });

  it('prices by destination amount: the smallest source amount that delivers it', async () => {
    const quote = await newQuote({ source_amount: undefined, destination_amount: '106.326' });
    expect(quote).toMatchObject({ source_amount: '100.00', destination_amount: '106.326000', fee_amount: '1.55' });
  });

  it('prices by destination even when fees take 99%, and that source amount is the smallest that delivers', async () => {
    const body = { source_amount: undefined, destination_amount: '100', source_currency: 'aed', source_payment_rails: 'uaefts', developer_fee_percent: '99' };
    const quote = await newQuote(body);
    expect(quote.destination_amount).toBe('100.000000');
    const bySource = async (amount: Decimal) =>
      new Decimal((await newQuote({ ...body, destination_amount: undefined, source_amount: amount.toFixed(2) })).destination_amount);
    const source = new Decimal(quote.source_amount);
    expect((await bySource(source)).gte(100)).toBe(true);
    expect((await bySource(source.sub('0.01'))).lt(100)).toBe(true);
  });

  it('writes a tiny developer fee in plain decimals, never in exponent notation', async () => {
    const quote = await newQuote({ developer_fee_percent: '0.00000001' });
    expect(quote.developer_fee_percent).toBe('0.00000001');
  });

  it('rounds what the customer receives down and what the customer pays up', async () => {
    const bySource = await newQuote({ source_amount: '10.01', source_currency: 'aed', source_payment_rails: 'uaefts', developer_fee_percent: '0' });
    // 10.01 AED: platform 0.050050 → 0.06 (up); gas 0.05 USD = 0.1836… AED → 0.19 (up); (10.01 − 0.25) × 0.2723 = 2.657648.
    expect(bySource).toMatchObject({ fee_amount: '0.25', exchange_rate: '0.27230000', destination_amount: '2.657648' });
    const byDestination = await newQuote({
      source_amount: undefined,
      destination_amount: '2.657649',
      source_currency: 'aed',
      source_payment_rails: 'uaefts',
      developer_fee_percent: '0',
    });
    expect(byDestination.source_amount).toBe('10.02');
    expect(byDestination.destination_amount).toBe('2.657649');
  });

  it('replays the quote when the same Idempotency-Key is sent twice', async () => {
    const headers = idempotencyKey();
    const first = await api.post(quotePath(), onrampQuoteBody(), headers);
    const again = await api.post(quotePath(), onrampQuoteBody(), headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it.each([
    [{ destination_amount: '100' }, '/source_amount', 'mutually_exclusive'],
    [{ source_amount: undefined }, '/source_amount', 'required'],
    [{ source_amount: '100.001' }, '/source_amount', 'too_many_decimals'],
    [{ source_amount: '-5' }, '/source_amount', 'not_positive'],
    [{ source_amount: '0' }, '/source_amount', 'not_positive'],
    [{ source_currency: 'gbp' }, '/source_currency', 'invalid_enum_value'],
    [{ source_payment_rails: 'ach' }, '/source_payment_rails', 'unsupported_rails'],
    [{ destination_token: 'dai' }, '/destination_token', 'invalid_enum_value'],
    [{ destination_network: 'bitcoin' }, '/destination_network', 'invalid_enum_value'],
    [{ developer_fee_percent: '1,5' }, '/developer_fee_percent', 'invalid_decimal'],
    [{ developer_fee_percent: '101' }, '/developer_fee_percent', 'too_big'],
    [{ surprise: true }, '/surprise', 'unrecognized_keys'],
  ])('refuses %j with 400 naming %s', async (overrides, pointer, code) => {
    const res = await api.post(quotePath(), onrampQuoteBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toContainEqual(expect.objectContaining({ pointer, code }));
  });

  it.each([
    ['below the minimum', { source_amount: '0.50' }],
    ['above the maximum', { source_amount: '2000000.00' }],
    ['eaten by fees', { source_amount: '1.00', source_currency: 'usd', source_payment_rails: 'ach', destination_network: 'ethereum' }],
  ])('answers 422 amount_out_of_range for an amount %s', async (_, overrides) => {
    const res = await api.post(quotePath(), onrampQuoteBody(overrides));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('amount_out_of_range');
  });

  it('answers 422 kyc_not_approved for a customer not verified for the rails', async () => {
    const unverified = await createCustomer(api, { approved: false });
    const res = await api.post(quotePath(unverified), onrampQuoteBody());
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('kyc_not_approved');
  });

  it("answers 404 for an unknown customer and for another partner's customer", async () => {
    expect((await api.post(quotePath('00000000-0000-4000-8000-000000000000'), onrampQuoteBody())).status).toBe(404);
    const other = t.client(await t.keyFor('Other Partner'));
    const theirs = await createCustomer(other);
    const res = await api.post(quotePath(theirs), onrampQuoteBody());
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('POST /v0/customers/{customer_id}/onramp-transfer/quote/{quote_id}', () => {
  it('answers 201 with the on-ramp transfer in full, pending, with deposit instructions', async () => {
    const quote = await newQuote();
    const address = wallet('polygon', 'a');
    const res = await api.post(`${quotePath()}/${quote.quote_id}`, { destination_address: address });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'pending',
      amount: '100.00',
      source_currency: 'eur',
      source_rails: 'sepa',
      destination_network: 'polygon',
      destination_token: 'usdc',
      destination_address: address,
      destination_amount: '106.326000',
      destination_transaction_hash: null,
      virtual_account_id: null,
      deposit_received_amount: null,
      quote: {
        quote_id: quote.quote_id,
        deposit_rails: 'sepa',
        deposit_currency: 'eur',
        deposit_bank_account: {
          bank_name: expect.any(String),
          bank_address: expect.any(String),
          account_beneficiary_type: 'business',
          account_beneficiary_name: expect.any(String),
          account_type: 'iban',
          iban: { bic: 'COBADEFFXXX', iban_number: 'DE89370400440532013000' },
        },
        deposit_amount: '100.00',
        deposit_message: expect.stringMatching(/^RAMP[A-Z2-9]{12}$/),
        source_amount: '100.00',
        destination_amount: '106.326000',
        exchange_rate: '1.08000000',
        fee_amount: '1.55',
        fee_breakdown: { currency: 'eur', platform_fee: '0.50', developer_fee: '1.00', network_fee: '0.05' },
      },
      customer_id: customerId,
      failure_reason: null,
      deposit_expire_at: expect.any(String),
      // Ramp's extension: the chain transaction's progress (null on a simulated network).
      confirmations: null,
      required_confirmations: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(Date.parse(res.body.deposit_expire_at) - Date.parse(res.body.created_at)).toBe(3 * 24 * 3600 * 1000);
  });

  it('gives US domestic rails a routing and account number to pay into', async () => {
    const transfer = await newTransfer(customerId, { source_currency: 'usd', source_payment_rails: 'ach' });
    expect(transfer.quote.deposit_bank_account).toMatchObject({ account_type: 'us', us: { routing_number: '021000021', account_number: expect.any(String) } });
    expect(transfer.quote.deposit_bank_account.iban).toBeUndefined();
  });

  it('records onramp_transfer.created with the transfer as payload, and a first history line', async () => {
    const transfer = await newTransfer();
    const events = await t.sql<{ type: string; payload: any }>('select type, payload from events where entity_id = ? order by cursor', [transfer.id]);
    expect(events.map((e) => e.type)).toEqual(['onramp_transfer.created']);
    expect(events[0]!.payload).toEqual(transfer);
    const history = await t.sql('select from_status, to_status, reason from transfer_status_history where transfer_id = ?', [transfer.id]);
    expect(history).toEqual([{ from_status: null, to_status: 'pending', reason: 'transfer_created' }]);
  });

  it.each([
    ['an address of another network', wallet('solana')],
    ['a mis-checksummed EVM address', wallet().replace(/[a-fA-F]/, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))],
    ['garbage', 'not-an-address'],
  ])('answers 400 invalid_address for %s', async (_, address) => {
    const quote = await newQuote();
    const res = await api.post(`${quotePath()}/${quote.quote_id}`, { destination_address: address });
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ pointer: '/destination_address', code: 'invalid_address' }));
  });

  it('answers 400 when destination_address is missing', async () => {
    const quote = await newQuote();
    const res = await api.post(`${quotePath()}/${quote.quote_id}`, {});
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ pointer: '/destination_address', code: 'required' }));
  });

  it('answers 422 quote_used for a second transfer from the same quote', async () => {
    const quote = await newQuote();
    expect((await api.post(`${quotePath()}/${quote.quote_id}`, { destination_address: wallet() })).status).toBe(201);
    const again = await api.post(`${quotePath()}/${quote.quote_id}`, { destination_address: wallet() });
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('quote_used');
  });

  it('answers 422 quote_expired once the quote has expired', async () => {
    const quote = await newQuote();
    await ageQuote(t, quote.quote_id);
    const res = await api.post(`${quotePath()}/${quote.quote_id}`, { destination_address: wallet() });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('quote_expired');
  });

  it('answers 422 kyc_not_approved when the customer lost approval after the quote', async () => {
    const customer = await createCustomer(api);
    const quote = await newQuote({}, customer);
    // Approval is final through the API; compliance withdrawing it is a back-office act.
    await t.sql(`update customers set kyc_status_breakdown = replace(kyc_status_breakdown::text, 'approved', 'rejected')::jsonb where id = ?`, [customer]);
    const res = await api.post(`${quotePath(customer)}/${quote.quote_id}`, { destination_address: wallet() });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('kyc_not_approved');
  });

  it("answers 404 for an unknown quote, another customer's quote, an off-ramp quote, or a malformed id", async () => {
    const other = await createCustomer(api);
    const theirs = await newQuote({}, other);
    const offramp = await api.post(
      `/v0/customers/${customerId}/offramp-transfer/quote`,
      { source_amount: '50', source_token: 'usdc', source_network: 'polygon', destination_currency: 'eur', destination_payment_rails: 'sepa' },
      idempotencyKey(),
    );
    expect(offramp.status).toBe(201);
    for (const id of ['00000000-0000-4000-8000-000000000000', theirs.quote_id, offramp.body.quote_id, 'nope']) {
      const res = await api.post(`${quotePath()}/${id}`, { destination_address: wallet() });
      expect(res.status, id).toBe(404);
    }
  });
});

describe('GET /v0/customers/{customer_id}/onramp-transfer/{transfer_id}', () => {
  it('returns the transfer exactly as it was created', async () => {
    const created = await newTransfer();
    const res = await api.get(`/v0/customers/${customerId}/onramp-transfer/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  it('answers 404 under another customer, to another partner, and for an unknown id', async () => {
    const created = await newTransfer();
    const other = await createCustomer(api);
    expect((await api.get(`/v0/customers/${other}/onramp-transfer/${created.id}`)).status).toBe(404);
    const otherPartner = t.client(await t.keyFor('Other Partner'));
    expect((await otherPartner.get(`/v0/customers/${customerId}/onramp-transfer/${created.id}`)).status).toBe(404);
    expect((await api.get(`/v0/customers/${customerId}/onramp-transfer/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await api.get(`/v0/customers/${customerId}/offramp-transfer/${created.id}`)).status).toBe(404);
  });

  it('says which is unknown, the customer or its transfer (one statement reads both)', async () => {
    const created = await newTransfer();
    const missing = '00000000-0000-4000-8000-000000000000';
    const detail = async (path: string) => {
      const res = await api.get(path);
      expect(res.status).toBe(404);
      return res.body.detail;
    };
    expect(await detail(`/v0/customers/${missing}/onramp-transfer/${created.id}`)).toBe('Customer not found');
    expect(await detail(`/v0/customers/${customerId}/onramp-transfer/${missing}`)).toBe('Transfer not found');
    // A malformed id is refused by the route before any read (the generic not-found of REST paths).
    expect(await detail(`/v0/customers/${customerId}/onramp-transfer/not-a-uuid`)).toBe('Resource not found');
    // Another partner's customer is unknown to the caller, whatever transfer id follows it.
    const otherPartner = t.client(await t.keyFor('Other Partner'));
    const res = await otherPartner.get(`/v0/customers/${customerId}/onramp-transfer/${created.id}`);
    expect(res.body.detail).toBe('Customer not found');
  });
});

describe('GET /v0/customers/{customer_id}/onramp-transfer', () => {
  it('lists the customer’s transfers newest first in { items, has_more }, 20 by default, with limit and skip', async () => {
    const customer = await createCustomer(api);
    const made = [];
    for (let i = 0; i < 23; i++) made.push((await newTransfer(customer)).id);
    const all = await api.get(`/v0/customers/${customer}/onramp-transfer`);
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(['items', 'has_more']);
    expect(all.body.items).toHaveLength(20);
    expect(all.body.has_more).toBe(true);
    expect(all.body.items[0].id).toBe(made[22]);
    const page = await api.get(`/v0/customers/${customer}/onramp-transfer?limit=2&skip=21`);
    expect(page.body.items.map((i: any) => i.id)).toEqual([made[1], made[0]]);
    expect(page.body.has_more).toBe(false);
    expect((await api.get(`/v0/customers/${customer}/onramp-transfer?limit=2&skip=20`)).body.has_more).toBe(true);
    const detail = await api.get(`/v0/customers/${customer}/onramp-transfer/${made[0]}`);
    expect(page.body.items[1]).toEqual(detail.body);
  });

  it('returns an empty list for a customer without transfers, and 404 for an unknown customer', async () => {
    const customer = await createCustomer(api);
    expect((await api.get(`/v0/customers/${customer}/onramp-transfer`)).body).toEqual({ items: [], has_more: false });
    expect((await api.get(`/v0/customers/00000000-0000-4000-8000-000000000000/onramp-transfer`)).status).toBe(404);
  });

  it.each(['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'skip=-1', 'skip=10001'])('answers 400 for %s', async (query) => {
    const res = await api.get(`/v0/customers/${customerId}/onramp-transfer?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors[0].pointer).toMatch(/^\/(limit|skip)$/);
  });

  it('accepts the bounds limit=1, limit=100 and skip=10000', async () => {
    for (const query of ['limit=1', 'limit=100', 'skip=10000']) {
      expect((await api.get(`/v0/customers/${customerId}/onramp-transfer?${query}`)).status).toBe(200);
    }
  });
});

describe('POST /v0/customers/{customer_id}/onramp-transfer/{transfer_id}/cancel (extension)', () => {
  it('cancels a pending transfer once, records the change, and answers 409 afterwards', async () => {
    const transfer = await newTransfer();
    const path = `/v0/customers/${customerId}/onramp-transfer/${transfer.id}/cancel`;
    const canceled = await api.post(path);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id: transfer.id, status: 'canceled' });
    const again = await api.post(path);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('transfer_transition_not_allowed');
    const events = await t.sql<{ type: string; status: string }>(`select type, payload->>'status' as status from events where entity_id = ? order by cursor`, [
      transfer.id,
    ]);
    expect(events).toEqual([
      { type: 'onramp_transfer.created', status: 'pending' },
      { type: 'onramp_transfer.status.updated', status: 'canceled' },
    ]);
  });

  it("answers 404 for another customer's transfer, the other direction's path and another partner", async () => {
    const transfer = await newTransfer();
    const otherCustomer = await createCustomer(api);
    expect((await api.post(`/v0/customers/${otherCustomer}/onramp-transfer/${transfer.id}/cancel`)).status).toBe(404);
    expect((await api.post(`/v0/customers/${customerId}/offramp-transfer/${transfer.id}/cancel`)).status).toBe(404);
    const other = t.client(await t.keyFor('Cancel Other Partner'));
    expect((await other.post(`/v0/customers/${customerId}/onramp-transfer/${transfer.id}/cancel`)).status).toBe(404);
    expect((await api.get(`/v0/customers/${customerId}/onramp-transfer/${transfer.id}`)).body.status).toBe('pending');
  });
});
