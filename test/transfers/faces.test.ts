import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlFieldErrors, restFieldErrors } from '../support/clients/faces.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { createCustomer, ibanAccount, onrampQuoteBody } from '../support/data/transfers.js';

/**
 * For transfers: the use cases take camelCase inputs (transfers/inputs.ts); REST
 * parses the spec's snake_case bodies and points into them, GraphQL passes its inputs as they are
 * and points into `input`. A rule fails with the same code in both, and every problem of one
 * request is reported at once, nested ones (an inline bank account's IBAN) included.
 */
let t: TestRamp;
let api: ApiClient;
let customerId: string;
let n = 0;
const key = () => `transfer-faces-${Date.now()}-${++n}`;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
  customerId = await createCustomer(api, { approved: true });
});
afterAll(() => t.close());

// The same account in each face's spelling, with IBAN check digits that fail.
const restAccount = ibanAccount({ iban: { bic: 'DEUTDEFF', iban_number: 'DE00370400440532013000' } });
const gqlAccount = {
  bankName: 'Deutsche Bank',
  accountHolderType: 'INDIVIDUAL',
  accountHolderFirstName: 'Ada',
  accountHolderLastName: 'Lovelace',
  accountHolderAddress: { country: 'DE', city: 'Berlin', streetLine1: 'Unter den Linden 1', postalCode: '10117' },
  accountType: 'IBAN',
  iban: { bic: 'DEUTDEFF', ibanNumber: 'DE00370400440532013000' },
};

const OFFRAMP_QUOTE = `mutation ($input: CreateOfframpQuoteInput!) {
  createOfframpQuote(input: $input) {
    __typename ... on ValidationError { code fieldErrors { path argumentPath code message } }
  }
}`;
const ONRAMP_QUOTE = `mutation ($input: CreateOnrampQuoteInput!) {
  createOnrampQuote(input: $input) {
    __typename ... on ValidationError { code fieldErrors { path code message } }
    ... on CreateOnrampQuotePayload { quote { id } }
  }
}`;
const ONRAMP_TRANSFER = `mutation ($q: ID!, $a: String!) {
  createOnrampTransfer(input: { quoteId: $q, destinationAddress: $a }) {
    __typename ... on ValidationError { code fieldErrors { path argumentPath code message } }
  }
}`;

describe('an off-ramp quote with five problems, two of them inside the inline bank account', () => {
  it('REST answers one 400 pointing into the snake_case body', async () => {
    const res = await api.post(
      `/v0/customers/${customerId}/offramp-transfer/quote`,
      {
        source_amount: '100',
        destination_amount: '90',
        source_token: 'usdc',
        source_network: 'polygon',
        destination_currency: 'eur',
        destination_payment_rails: 'ach',
        destination_bank_account: restAccount,
        transfer_purpose: 'family',
      },
      { 'idempotency-key': key() },
    );
    expect(restFieldErrors(res)).toEqual([
      '/destination_amount mutually_exclusive',
      '/destination_bank_account/account_type account_type_not_supported',
      '/destination_bank_account/iban/iban_number invalid_iban',
      '/destination_payment_rails unsupported_rails',
      '/source_amount mutually_exclusive',
    ]);
    expect(res.body.errors.find((e: { pointer: string }) => e.pointer === '/source_amount').detail).toContain('source_amount and destination_amount');
  });

  it('GraphQL returns one ValidationError with the same codes at paths into input, in its own field names', async () => {
    const input = {
      sourceAmount: '100',
      destinationAmount: '90',
      sourceToken: 'USDC',
      sourceNetwork: 'POLYGON',
      destinationCurrency: 'EUR',
      destinationPaymentRails: 'ACH',
      destinationBankAccount: gqlAccount,
      transferPurpose: 'FAMILY',
    };
    const res = await api.graphql(OFFRAMP_QUOTE, { input: { customerId, ...input, idempotencyKey: key() } });
    const fieldErrors = res.body.data.createOfframpQuote.fieldErrors;
    expect(await graphqlFieldErrors(api, OFFRAMP_QUOTE, 'createOfframpQuote', { input: { customerId, ...input, idempotencyKey: key() } })).toEqual([
      '/destinationAmount mutually_exclusive',
      '/destinationBankAccount/accountType account_type_not_supported',
      '/destinationBankAccount/iban/ibanNumber invalid_iban',
      '/destinationPaymentRails unsupported_rails',
      '/sourceAmount mutually_exclusive',
    ]);
    expect(fieldErrors.find((e: { path: string }) => e.path === '/sourceAmount').message).toContain('sourceAmount and destinationAmount');
    expect(fieldErrors.find((e: { path: string }) => e.path === '/destinationBankAccount/iban/ibanNumber').argumentPath).toEqual([
      'input',
      'destinationBankAccount',
      'iban',
      'ibanNumber',
    ]);
  });

  it('a payout rail that cannot reach the inline account is reported inside it, in both faces', async () => {
    const rest = await api.post(
      `/v0/customers/${customerId}/offramp-transfer/quote`,
      {
        source_amount: '100',
        source_token: 'usdc',
        source_network: 'polygon',
        destination_currency: 'usd',
        destination_payment_rails: 'ach',
        destination_bank_account: { ...restAccount, iban: { bic: 'DEUTDEFF', iban_number: 'DE89370400440532013000' } },
        transfer_purpose: 'family',
      },
      { 'idempotency-key': key() },
    );
    expect(restFieldErrors(rest)).toEqual(['/destination_bank_account/account_type account_type_not_supported']);
    const input = {
      sourceAmount: '100',
      sourceToken: 'USDC',
      sourceNetwork: 'POLYGON',
      destinationCurrency: 'USD',
      destinationPaymentRails: 'ACH',
      destinationBankAccount: { ...gqlAccount, iban: { bic: 'DEUTDEFF', ibanNumber: 'DE89370400440532013000' } },
      transferPurpose: 'FAMILY',
    };
    expect(await graphqlFieldErrors(api, OFFRAMP_QUOTE, 'createOfframpQuote', { input: { customerId, ...input, idempotencyKey: key() } })).toEqual([
      '/destinationBankAccount/accountType account_type_not_supported',
    ]);
  });
});

describe('a rule the use case checks against stored state (the quote’s network)', () => {
  it('points at destination_address in REST and destinationAddress in GraphQL, with one code', async () => {
    const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    expect(quote.status).toBe(201);
    const rest = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: 'not-an-address' });
    expect(restFieldErrors(rest)).toEqual(['/destination_address invalid_address']);

    const created = await api.graphql(ONRAMP_QUOTE, {
      input: { customerId, sourceAmount: '100', sourceCurrency: 'USD', sourcePaymentRails: 'ACH', destinationToken: 'USDC', destinationNetwork: 'POLYGON' },
    });
    const quoteId = created.body.data.createOnrampQuote.quote.id;
    expect(await graphqlFieldErrors(api, ONRAMP_TRANSFER, 'createOnrampTransfer', { q: quoteId, a: 'not-an-address' })).toEqual([
      '/destinationAddress invalid_address',
    ]);
    const res = await api.graphql(ONRAMP_TRANSFER, { q: quoteId, a: 'not-an-address' });
    expect(res.body.data.createOnrampTransfer.fieldErrors[0].argumentPath).toEqual(['input', 'destinationAddress']);
  });

  it('reports a missing amount in each face’s spelling', async () => {
    const rest = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody({ source_amount: undefined }));
    expect(restFieldErrors(rest)).toEqual(['/destination_amount required', '/source_amount required']);
    const input = { customerId, sourceCurrency: 'USD', sourcePaymentRails: 'ACH', destinationToken: 'USDC', destinationNetwork: 'POLYGON' };
    expect(await graphqlFieldErrors(api, ONRAMP_QUOTE, 'createOnrampQuote', { input })).toEqual(['/destinationAmount required', '/sourceAmount required']);
  });
});
