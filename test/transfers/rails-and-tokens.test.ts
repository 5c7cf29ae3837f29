import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYC_SWIFT_RAILS } from '../../migrations/bank/Migration20261128140000_kyc_swift_rails.js';
import { loadConfig } from '../../src/config.js';
import { RAILS_OF_CURRENCY, FIAT_CURRENCIES } from '../../src/domain/money.js';
import { type TestRamp, startRamp } from '../support/ramp.js';
import { createCustomer, idempotencyKey, offrampQuoteBody, onrampQuoteBody, wallet } from '../support/data/transfers.js';

const PAIRS = FIAT_CURRENCIES.flatMap((currency) => RAILS_OF_CURRENCY[currency].map((rails) => ({ currency, rails })));

const ONRAMP_QUOTE = `mutation ($input: CreateOnrampQuoteInput!) { createOnrampQuote(input: $input) {
  __typename ... on Error { code } ... on CreateOnrampQuotePayload { quote { id } } } }`;
const OFFRAMP_QUOTE = `mutation ($input: CreateOfframpQuoteInput!) { createOfframpQuote(input: $input) {
  __typename ... on Error { code } ... on CreateOfframpQuotePayload { quote { id } } } }`;
const CREATE_VIRTUAL_ACCOUNT = `mutation ($input: CreateVirtualAccountInput!) { createVirtualAccount(input: $input) {
  __typename ... on Error { code } } }`;

describe('every rails the schema offers, and the stablecoins each network offers', () => {
  let t: TestRamp;
  let customer: string;
  beforeAll(async () => {
    t = await startRamp();
    customer = await createCustomer(t.client(t.key));
  });
  afterAll(() => t?.close());
  const base = () => `/v0/customers/${customer}`;

  it('verifies a customer for every rails of every currency, SWIFT included', async () => {
    const res = await t.client(t.key).get(base());
    expect(res.body.kycs.status_breakdown).toEqual(PAIRS.map(({ currency, rails }) => ({ currency, payment_rails: rails, status: 'approved' })));
  });

  it.each(PAIRS)('quotes $currency over $rails both ways for a KYC-approved customer', async ({ currency, rails }) => {
    const api = t.client(t.key);
    const onramp = await api.post(`${base()}/onramp-transfer/quote`, onrampQuoteBody({ source_currency: currency, source_payment_rails: rails }));
    expect(onramp.status, JSON.stringify(onramp.body)).toBe(201);
    const offramp = await api.post(
      `${base()}/offramp-transfer/quote`,
      offrampQuoteBody({ destination_currency: currency, destination_payment_rails: rails }),
      idempotencyKey(),
    );
    expect(offramp.status, JSON.stringify(offramp.body)).toBe(201);
  });

  it('quotes EUR and AED over SWIFT in GraphQL too', async () => {
    for (const currency of ['EUR', 'AED']) {
      const res = await t.client(t.key).graphql(ONRAMP_QUOTE, {
        input: {
          customerId: customer,
          sourceAmount: '100',
          sourceCurrency: currency,
          sourcePaymentRails: 'SWIFT',
          destinationToken: 'USDC',
          destinationNetwork: 'POLYGON',
        },
      });
      expect(res.body.data.createOnrampQuote.__typename, JSON.stringify(res.body)).toBe('CreateOnrampQuotePayload');
    }
  });

  it('gives customers verified before SWIFT had its own lines the status of the currency’s domestic rails, in the new order', async () => {
    const api = t.client(t.key);
    const pending = await createCustomer(api, { approved: false });
    const old = (status: string, id: string) =>
      t.sql('update customers set kyc_status_breakdown = ?::jsonb where id = ?', [
        JSON.stringify(
          [
            ['usd', 'ach'],
            ['usd', 'wire'],
            ['usd', 'swift'],
            ['eur', 'sepa'],
            ['aed', 'uaefts'],
          ].map(([currency, payment_rails]) => ({ currency, payment_rails, status })),
        ),
        id,
      ]);
    const approved = await createCustomer(api);
    await old('approved', approved);
    await old('pending', pending);
    const refused = await api.post(
      `/v0/customers/${approved}/onramp-transfer/quote`,
      onrampQuoteBody({ source_currency: 'eur', source_payment_rails: 'swift' }),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('kyc_not_approved');

    await t.sql(KYC_SWIFT_RAILS);

    const breakdown = async (id: string) => (await api.get(`/v0/customers/${id}`)).body.kycs.status_breakdown;
    expect(await breakdown(approved)).toEqual(PAIRS.map(({ currency, rails }) => ({ currency, payment_rails: rails, status: 'approved' })));
    expect(await breakdown(pending)).toEqual(PAIRS.map(({ currency, rails }) => ({ currency, payment_rails: rails, status: 'pending' })));
    const quoted = await api.post(
      `/v0/customers/${approved}/onramp-transfer/quote`,
      onrampQuoteBody({ source_currency: 'aed', source_payment_rails: 'swift' }),
    );
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(201);
    // Customers that have every line already are left as they are.
    await t.sql(KYC_SWIFT_RAILS);
    expect(await breakdown(approved)).toHaveLength(PAIRS.length);
  });

  it.each([
    ['usdc', 'tron'],
    ['usdt', 'base'],
  ])('refuses %s on %s (422 token_not_offered_on_network): on-ramp and off-ramp quotes and virtual accounts', async (token, network) => {
    const api = t.client(t.key);
    const onramp = await api.post(`${base()}/onramp-transfer/quote`, onrampQuoteBody({ destination_token: token, destination_network: network }));
    expect(onramp.status).toBe(422);
    expect(onramp.body.code).toBe('token_not_offered_on_network');
    expect(onramp.body.detail).toContain(`${token} is not offered on ${network}`);
    const offramp = await api.post(`${base()}/offramp-transfer/quote`, offrampQuoteBody({ source_token: token, source_network: network }), idempotencyKey());
    expect(offramp.status).toBe(422);
    expect(offramp.body.code).toBe('token_not_offered_on_network');
    const account = await api.post(`${base()}/virtual-account`, {
      source_currency: 'usd',
      destination_token: token,
      destination_network: network,
      destination_address: wallet(network as 'tron' | 'base'),
    });
    expect(account.status).toBe(422);
    expect(account.body.code).toBe('token_not_offered_on_network');
  });

  it('refuses a pair not offered in GraphQL as UnprocessableError TOKEN_NOT_OFFERED_ON_NETWORK', async () => {
    const api = t.client(t.key);
    const onramp = await api.graphql(ONRAMP_QUOTE, {
      input: {
        customerId: customer,
        sourceAmount: '100',
        sourceCurrency: 'USD',
        sourcePaymentRails: 'ACH',
        destinationToken: 'USDC',
        destinationNetwork: 'TRON',
      },
    });
    expect(onramp.body.data.createOnrampQuote).toEqual({ __typename: 'UnprocessableError', code: 'TOKEN_NOT_OFFERED_ON_NETWORK' });
    const offramp = await api.graphql(OFFRAMP_QUOTE, {
      input: {
        customerId: customer,
        sourceAmount: '100',
        sourceToken: 'USDT',
        sourceNetwork: 'BASE',
        destinationCurrency: 'EUR',
        destinationPaymentRails: 'SEPA',
      },
    });
    expect(offramp.body.data.createOfframpQuote).toEqual({ __typename: 'UnprocessableError', code: 'TOKEN_NOT_OFFERED_ON_NETWORK' });
    const account = await api.graphql(CREATE_VIRTUAL_ACCOUNT, {
      input: { customerId: customer, sourceCurrency: 'USD', destinationToken: 'USDC', destinationNetwork: 'TRON' },
    });
    expect(account.body.data.createVirtualAccount).toEqual({ __typename: 'UnprocessableError', code: 'TOKEN_NOT_OFFERED_ON_NETWORK' });
  });

  it('lists each network’s offered tokens in REST and GraphQL: USDC and USDT but USDC alone on base and USDT alone on tron', async () => {
    const expected = {
      polygon: ['usdc', 'usdt'],
      ethereum: ['usdc', 'usdt'],
      solana: ['usdc', 'usdt'],
      base: ['usdc'],
      tron: ['usdt'],
      arbitrum: ['usdc', 'usdt'],
    };
    const rest = await t.client(t.key).get('/v0/networks');
    expect(Object.fromEntries(rest.body.items.map((n: { network: string; offered_tokens: string[] }) => [n.network, n.offered_tokens]))).toEqual(expected);
    const graphql = await t.client(t.key).graphql('{ networks { network offeredTokens } }');
    expect(
      Object.fromEntries(
        graphql.body.data.networks.map((n: { network: string; offeredTokens: string[] }) => [
          n.network.toLowerCase(),
          n.offeredTokens.map((x) => x.toLowerCase()),
        ]),
      ),
    ).toEqual(expected);
  });
});

describe('NETWORK_TOKENS', () => {
  let t: TestRamp;
  beforeAll(async () => {
    t = await startRamp({ NETWORK_TOKENS: 'tron:usdc, polygon:usdt,polygon:usdc' });
  });
  afterAll(() => t?.close());

  it('replaces the default matrix: only its pairs are listed and quoted', async () => {
    const api = t.client(t.key);
    const listed = await api.get('/v0/networks');
    expect(Object.fromEntries(listed.body.items.map((n: { network: string; offered_tokens: string[] }) => [n.network, n.offered_tokens]))).toEqual({
      polygon: ['usdc', 'usdt'],
      ethereum: [],
      solana: [],
      base: [],
      tron: ['usdc'],
      arbitrum: [],
    });
    const customer = await createCustomer(api);
    const tron = await api.post(`/v0/customers/${customer}/onramp-transfer/quote`, onrampQuoteBody({ destination_token: 'usdc', destination_network: 'tron' }));
    expect(tron.status, JSON.stringify(tron.body)).toBe(201);
    const ethereum = await api.post(`/v0/customers/${customer}/onramp-transfer/quote`, onrampQuoteBody({ destination_network: 'ethereum' }));
    expect(ethereum.status).toBe(422);
    expect(ethereum.body).toMatchObject({ code: 'token_not_offered_on_network', detail: expect.stringContaining('it offers no token') });
  });

  it('refuses to start on a pair it cannot read, naming it', () => {
    expect(() => loadConfig({ NETWORK_TOKENS: 'polygon:usdc,tron:dai' })).toThrow(/NETWORK_TOKENS: "tron:dai" is not a network:token pair/);
  });
});
