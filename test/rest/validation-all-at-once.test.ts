import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse } from '../support/ramp.js';
import { createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody, useTransferFixture } from '../support/data/transfers.js';

/**
 * A body with several problems answers one 400 (one typed ValidationError in
 * GraphQL) naming every one of them, in Ramp's own words.
 */
const fixture = useTransferFixture();
let api: ApiClient;
let customerId: string;
beforeAll(() => {
  ({ api, customerId } = fixture);
});

const address = { country: 'DE', city: 'Berlin', street_line_1: 'Unter den Linden 1', postal_code: '10117' };
const gqlAddress = { country: 'DE', city: 'Berlin', streetLine1: 'Unter den Linden 1', postalCode: '10117' };
/** A sentinel no answer may quote back. */
const ECHO = 'ECHO-ME-NOT';

/** Every detail Ramp answered, kept to check none is zod's own phrasing. */
const details: string[] = [];
const ZOD_PHRASING = /expected|received|Invalid input|Too small|Too big|Invalid option/;

/** Details are Ramp's sentences, never zod's, and never quote the input. */
function expectRampWording(sentences: string[]) {
  for (const sentence of sentences) {
    expect(sentence).not.toMatch(ZOD_PHRASING);
    expect(sentence).not.toContain(ECHO);
  }
  details.push(...sentences);
}

/** The one 400's field errors as `pointer code` lines, sorted. */
function rest400(res: ApiResponse) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe('validation_failed');
  const errors = res.body.errors as { pointer: string; code: string; detail: string }[];
  expectRampWording(errors.map((e) => e.detail));
  return errors.map((e) => `${e.pointer} ${e.code}`).sort();
}

/** The mutation's ValidationError as `path code` lines, sorted. */
async function graphqlFieldErrors(mutation: string, field: string, variables: Record<string, unknown>) {
  const res = await api.graphql(mutation.replace('{ RESULT }', '{ __typename ... on ValidationError { code fieldErrors { path code message } } }'), variables);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  const result = res.body.data[field];
  expect(result.__typename, JSON.stringify(result)).toBe('ValidationError');
  expect(result.code).toBe('VALIDATION_FAILED');
  const errors = result.fieldErrors as { path: string; code: string; message: string }[];
  expectRampWording(errors.map((e) => e.message));
  return errors.map((e) => `${e.path} ${e.code}`).sort();
}

describe('customers', () => {
  it('names a bad email, a name too long, a name its type requires, an address of the wrong type and an unknown field in one 400', async () => {
    const res = await api.post('/v0/customers', { email: 'not-an-email', type: 'individual', first_name: 'x'.repeat(201), address: 'Berlin', surprise: 1 });
    expect(rest400(res)).toEqual([
      '/address invalid_type',
      '/email invalid_email',
      '/first_name too_big',
      '/last_name required',
      '/surprise unrecognized_keys',
    ]);
  });

  it('names them all in one ValidationError of createCustomer', async () => {
    const errors = await graphqlFieldErrors('mutation ($input: CreateCustomerInput!) { createCustomer(input: $input) { RESULT } }', 'createCustomer', {
      input: { email: 'not-an-email', type: 'INDIVIDUAL', firstName: '' },
    });
    expect(errors).toEqual(['/email invalid_email', '/firstName too_small', '/lastName required']);
  });

  it('names body problems and names the customer type does not allow in one 400 of an update', async () => {
    const id = await createCustomer(api, { approved: false });
    const res = await api.put(`/v0/customers/${id}`, { email: 'nope', company_name: 'Acme', identifying_information: { tax_number: '' } });
    expect(rest400(res)).toEqual(['/company_name not_allowed', '/email invalid_email', '/identifying_information/tax_number too_small']);
  });

  it('names them all in one ValidationError of updateCustomer', async () => {
    const id = await createCustomer(api, { approved: false });
    const errors = await graphqlFieldErrors('mutation ($input: UpdateCustomerInput!) { updateCustomer(input: $input) { RESULT } }', 'updateCustomer', {
      input: { customerId: id, email: 'nope', companyName: 'Acme', taxNumber: 'x'.repeat(101) },
    });
    expect(errors).toEqual(['/companyName not_allowed', '/email invalid_email', '/taxNumber too_big']);
  });
});

describe('quotes', () => {
  it('names both amounts, rails of another currency, an unknown token and a fee over 100 in one on-ramp 400', async () => {
    const body = onrampQuoteBody({ destination_amount: '50', source_payment_rails: 'ach', destination_token: 'dai', developer_fee_percent: '101' });
    const res = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, body);
    expect(rest400(res)).toEqual([
      '/destination_amount mutually_exclusive',
      '/destination_token invalid_enum_value',
      '/developer_fee_percent too_big',
      '/source_amount mutually_exclusive',
      '/source_payment_rails unsupported_rails',
    ]);
  });

  it('names them all in one ValidationError of createOnrampQuote', async () => {
    const input = {
      sourceAmount: '100',
      destinationAmount: '50',
      sourceCurrency: 'EUR',
      sourcePaymentRails: 'ACH',
      destinationToken: 'USDC',
      destinationNetwork: 'POLYGON',
      developerFeePercent: '101',
    };
    const errors = await graphqlFieldErrors('mutation ($input: CreateOnrampQuoteInput!) { createOnrampQuote(input: $input) { RESULT } }', 'createOnrampQuote', {
      input: { customerId, ...input },
    });
    expect(errors).toEqual([
      '/destinationAmount mutually_exclusive',
      '/developerFeePercent too_big',
      '/sourceAmount mutually_exclusive',
      '/sourcePaymentRails unsupported_rails',
    ]);
  });

  it('names a token amount too precise, rails of another currency and the inline account’s problems in one off-ramp 400', async () => {
    const account = ibanAccount({ bank_name: undefined, iban: { bic: 'NOPE', iban_number: 'DE88370400440532013000' } });
    const body = offrampQuoteBody({
      source_amount: '1.1234567',
      destination_payment_rails: 'uaefts',
      destination_bank_account: account,
      transfer_purpose: 'charity',
    });
    const res = await api.post(`/v0/customers/${customerId}/offramp-transfer/quote`, body, idempotencyKey());
    expect(rest400(res)).toEqual([
      '/destination_bank_account/bank_name required',
      '/destination_bank_account/iban/bic invalid_bic',
      '/destination_bank_account/iban/iban_number invalid_iban',
      '/destination_payment_rails unsupported_rails',
      '/source_amount too_many_decimals',
    ]);
  });

  it('names them all in one ValidationError of createOfframpQuote', async () => {
    const input = {
      sourceAmount: '1.1234567',
      sourceToken: 'USDC',
      sourceNetwork: 'POLYGON',
      destinationCurrency: 'EUR',
      destinationPaymentRails: 'UAEFTS',
      transferPurpose: 'CHARITY',
    };
    const errors = await graphqlFieldErrors(
      'mutation ($input: CreateOfframpQuoteInput!) { createOfframpQuote(input: $input) { RESULT } }',
      'createOfframpQuote',
      { input: { customerId, ...input, idempotencyKey: idempotencyKey()['idempotency-key'] } },
    );
    expect(errors).toEqual(['/destinationExternalAccountId required', '/destinationPaymentRails unsupported_rails', '/sourceAmount too_many_decimals']);
  });
});

describe('external (bank) accounts', () => {
  it('names an empty bank name, the holder names its type requires, a city of the wrong type and both bad identifiers in one 400', async () => {
    const body = ibanAccount({
      bank_name: '',
      account_holder_first_name: undefined,
      account_holder_last_name: undefined,
      account_holder_address: { ...address, city: 5 },
      iban: { bic: 'NOPE', iban_number: 'DE88370400440532013000' },
    });
    const res = await api.post(`/v0/customers/${customerId}/external-accounts`, body, idempotencyKey());
    expect(rest400(res)).toEqual([
      '/account_holder_address/city invalid_type',
      '/account_holder_first_name required',
      '/account_holder_last_name required',
      '/bank_name too_small',
      '/iban/bic invalid_bic',
      '/iban/iban_number invalid_iban',
    ]);
  });

  it('names them all in one ValidationError of addBankAccount', async () => {
    const accountHolderAddress = { ...gqlAddress, state: 'x'.repeat(101) };
    const input = {
      bankName: '',
      accountHolderType: 'INDIVIDUAL',
      accountHolderAddress,
      accountType: 'IBAN',
      iban: { bic: 'NOPE', ibanNumber: 'DE88370400440532013000' },
    };
    const errors = await graphqlFieldErrors('mutation ($input: AddBankAccountInput!) { addBankAccount(input: $input) { RESULT } }', 'addBankAccount', {
      input: { customerId, ...input, idempotencyKey: idempotencyKey()['idempotency-key'] },
    });
    expect(errors).toEqual([
      '/accountHolderAddress/state too_big',
      '/accountHolderFirstName required',
      '/accountHolderLastName required',
      '/bankName too_small',
      '/iban/bic invalid_bic',
      '/iban/ibanNumber invalid_iban',
    ]);
  });
});

describe('virtual accounts', () => {
  it('names rails of another currency, a bad address, a fee over 100 and an unknown token in one 400', async () => {
    const body = {
      source_currency: 'eur',
      source_rails: 'swift',
      destination_token: 'dai',
      destination_network: 'polygon',
      destination_address: 'nope',
      developer_fee_percent: '101',
    };
    const res = await api.post(`/v0/customers/${customerId}/virtual-account`, body);
    expect(rest400(res)).toEqual([
      '/destination_address invalid_address',
      '/destination_token invalid_enum_value',
      '/developer_fee_percent too_big',
      '/source_rails not_allowed',
    ]);
  });

  it('names them all in one ValidationError of createVirtualAccount', async () => {
    const input = {
      customerId,
      sourceCurrency: 'EUR',
      sourceRails: 'SWIFT',
      destinationNetwork: 'POLYGON',
      destinationAddress: 'nope',
      developerFeePercent: '101',
    };
    const errors = await graphqlFieldErrors(
      'mutation ($input: CreateVirtualAccountInput!) { createVirtualAccount(input: $input) { RESULT } }',
      'createVirtualAccount',
      { input },
    );
    expect(errors).toEqual(['/destinationAddress invalid_address', '/developerFeePercent too_big', '/sourceRails not_allowed']);
    // A fee that is no decimal at all is refused earlier, by the Decimal scalar, naming the field.
    const notDecimal = await api.graphql('mutation ($input: CreateVirtualAccountInput!) { createVirtualAccount(input: $input) { __typename } }', {
      input: { ...input, developerFeePercent: 'abc' },
    });
    expect(notDecimal.body.errors?.[0]?.message).toMatch(/input\.developerFeePercent.*Decimal/);
  });
});

describe('the details', () => {
  it('are Ramp’s own sentences, never zod’s, and never quote the input', async () => {
    const wrongTypes = [
      api.post('/v0/customers', { email: 5, type: ECHO, first_name: ECHO.repeat(30), address: { country: 1, city: '' } }),
      api.put(`/v0/customers/${customerId}`, { documents: ECHO, identifying_information: { id_document: { number: 7 } } }),
      api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, { source_amount: 5, source_currency: ECHO, destination_network: null }),
      api.post(`/v0/customers/${customerId}/offramp-transfer/quote`, { source_token: 1, destination_bank_account: { account_type: ECHO } }, idempotencyKey()),
      api.post(`/v0/customers/${customerId}/external-accounts`, { account_holder_type: ECHO, account_holder_address: address, iban: 'x' }, idempotencyKey()),
      api.post(`/v0/customers/${customerId}/virtual-account`, { source_currency: 1, destination_address: ECHO.repeat(20) }),
    ];
    for (const res of await Promise.all(wrongTypes)) rest400(res);
    expect(details.length).toBeGreaterThan(30);
    expect(details).toContain('must be a string');
    expect(details).toContain('must be one of: individual, corporate');
    expect(details).toContain('must be at most 200 characters long');
  });
});
