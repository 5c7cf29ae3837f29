import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxIban } from '../../src/domain/identifiers/bank.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;
let n = 0;
const unique = () => `${Date.now()}-${++n}`;
const key = () => `key-${unique()}`;
const withKey = (k = key()) => ({ 'idempotency-key': k });

const address = { country: 'DE', city: 'Berlin', street_line_1: 'Unter den Linden 1', postal_code: '10117' };
const ibanBody = (iban = sandboxIban('DE', unique())) => ({
  bank_name: 'Deutsche Bank',
  account_holder_type: 'individual',
  account_holder_first_name: 'Hans',
  account_holder_last_name: 'Mueller',
  account_holder_address: address,
  account_type: 'iban',
  iban: { bic: 'DEUTDEFF', iban_number: iban },
});
const usBody = (accountNumber = '123456789') => ({
  bank_name: 'Chase Bank',
  account_holder_type: 'business',
  account_holder_business_name: 'Acme Inc',
  account_holder_address: { country: 'US', city: 'San Francisco', street_line_1: '123 Market St', postal_code: '94105', state: 'CA' },
  account_type: 'us',
  us: { routing_number: '021000021', account_number: accountNumber },
});
const swiftBody = () => ({
  bank_name: 'HSBC Hong Kong',
  account_holder_type: 'individual',
  account_holder_first_name: 'Mei',
  account_holder_last_name: 'Chan',
  account_holder_address: { country: 'HK', city: 'Hong Kong', street_line_1: '1 Queen’s Road Central', postal_code: '999077' },
  account_type: 'swift',
  swift: { account_number: '004-123456-001', bic: 'HSBCHKHHHKH', routing_number: '004' },
});

async function newCustomer(client = api): Promise<string> {
  const res = await client.post('/v0/customers', { email: `holder${unique()}@example.com`, type: 'individual', first_name: 'Hans', last_name: 'Mueller' });
  expect(res.status).toBe(201);
  return res.body.customer_id;
}
const accountsOf = (customerId: string) => `/v0/customers/${customerId}/external-accounts`;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

describe('POST /v0/customers/{customer_id}/external-accounts', () => {
  it('registers an IBAN account and answers 201 with its id and the full numbers, normalised', async () => {
    const customerId = await newCustomer();
    const body = ibanBody();
    const printed = body.iban.iban_number.toLowerCase().replace(/(.{4})/g, '$1 ');
    const res = await api.post(accountsOf(customerId), { ...body, iban: { bic: 'deutdeff', iban_number: printed } }, withKey());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      external_account_id: res.body.id,
      customer_id: customerId,
      created_at: expect.any(String),
      bank_name: 'Deutsche Bank',
      account_holder_type: 'individual',
      account_holder_first_name: 'Hans',
      account_holder_last_name: 'Mueller',
      account_holder_business_name: null,
      account_holder_address: address,
      account_type: 'iban',
      iban: { bic: 'DEUTDEFF', iban_number: body.iban.iban_number },
    });
  });

  it('registers a US account of a business, checking by default', async () => {
    const res = await api.post(accountsOf(await newCustomer()), usBody(), withKey());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      account_type: 'us',
      account_holder_type: 'business',
      account_holder_business_name: 'Acme Inc',
      account_holder_first_name: null,
      us: { routing_number: '021000021', account_number: '123456789', account_type: 'checking' },
    });
    expect(res.body.iban).toBeUndefined();
  });

  it.each([
    ['a British IBAN with a British BIC', 'NWBKGB2L', 'GB29NWBK60161331926819'],
    ['a British IBAN with a Jersey BIC (Crown Dependencies bank on GB IBANs)', 'BARCJESH', 'GB29NWBK60161331926819'],
    ['a French IBAN with a Guadeloupe BIC (overseas territories bank on FR IBANs)', 'BDAFGPGP', 'FR1420041010050500013M02606'],
  ])('registers %s', async (_, bic, iban) => {
    const res = await api.post(accountsOf(await newCustomer()), { ...ibanBody(), iban: { bic, iban_number: iban } }, withKey());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.iban).toEqual({ bic, iban_number: iban });
  });

  it('registers a savings account when asked', async () => {
    const body = usBody('987654321');
    const res = await api.post(accountsOf(await newCustomer()), { ...body, us: { ...body.us, account_type: 'savings' } }, withKey());
    expect(res.status).toBe(201);
    expect(res.body.us.account_type).toBe('savings');
  });

  it('registers an international wire (SWIFT) account with a clearing code', async () => {
    const res = await api.post(accountsOf(await newCustomer()), swiftBody(), withKey());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ account_type: 'swift', swift: { account_number: '004123456001', bic: 'HSBCHKHHHKH', routing_number: '004' } });
  });

  it('answers 400 idempotency_key_missing without an Idempotency-Key', async () => {
    const customerId = await newCustomer();
    const res = await api.post(accountsOf(customerId), ibanBody());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'idempotency_key_missing', errors: [expect.objectContaining({ pointer: '/headers/idempotency-key' })] });
    expect(await t.sql('select id from external_accounts where customer_id = ?', [customerId])).toHaveLength(0);
  });

  it('replays the first response when the same Idempotency-Key is sent twice, creating one account', async () => {
    const customerId = await newCustomer();
    const body = ibanBody();
    const headers = withKey();
    const first = await api.post(accountsOf(customerId), body, headers);
    const second = await api.post(accountsOf(customerId), body, headers);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await t.sql('select id from external_accounts where customer_id = ?', [customerId])).toHaveLength(1);
    expect(await t.sql('select id from events where entity_id = ?', [first.body.id])).toHaveLength(1);
  });

  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    const customerId = await newCustomer();
    const headers = withKey();
    expect((await api.post(accountsOf(customerId), ibanBody(), headers)).status).toBe(201);
    const reused = await api.post(accountsOf(customerId), ibanBody(), headers);
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
  });

  it('answers 409 when the customer already has this bank account, even sent concurrently', async () => {
    const customerId = await newCustomer();
    const body = ibanBody();
    const results = await Promise.all([api.post(accountsOf(customerId), body, withKey()), api.post(accountsOf(customerId), body, withKey())]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('external_account_exists');
    expect(await t.sql('select id from external_accounts where customer_id = ?', [customerId])).toHaveLength(1);
    // Another customer may hold the same account (a joint account).
    expect((await api.post(accountsOf(await newCustomer()), body, withKey())).status).toBe(201);
  });

  it('records external_account.created with the masked account, in the same transaction', async () => {
    const body = ibanBody();
    const res = await api.post(accountsOf(await newCustomer()), body, withKey());
    const events = await t.sql<{ type: string; entity_type: string; payload: any }>('select type, entity_type, payload from events where entity_id = ?', [
      res.body.id,
    ]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'external_account.created', entity_type: 'external_account' });
    expect(events[0]!.payload).toMatchObject({ id: res.body.id, iban: { bic: 'DEUTDEFF', iban_number: `…${body.iban.iban_number.slice(-4)}` } });
    expect(JSON.stringify(events[0]!.payload)).not.toContain(body.iban.iban_number);
  });

  const iban = ibanBody('DE89370400440532013000');
  const us = usBody();
  const swift = swiftBody();
  it.each([
    ['a missing bank_name', '/bank_name', 'required', { ...iban, bank_name: undefined }],
    ['an unknown account_holder_type', '/account_holder_type', 'invalid_enum_value', { ...iban, account_holder_type: 'trust' }],
    ['an unknown account_type', '/account_type', 'invalid_enum_value', { ...iban, account_type: 'sepa' }],
    ['an unknown US account type', '/us/account_type', 'invalid_enum_value', { ...us, us: { ...us.us, account_type: 'money_market' } }],
    ['an individual without a first name', '/account_holder_first_name', 'required', { ...iban, account_holder_first_name: undefined }],
    ['an individual with a business name', '/account_holder_business_name', 'not_allowed', { ...iban, account_holder_business_name: 'Co' }],
    ['a business without a business name', '/account_holder_business_name', 'required', { ...us, account_holder_business_name: undefined }],
    ['a business with a last name', '/account_holder_last_name', 'not_allowed', { ...us, account_holder_last_name: 'Doe' }],
    ['a three-letter country', '/account_holder_address/country', 'invalid_regex', { ...iban, account_holder_address: { ...address, country: 'DEU' } }],
    ['an address without a city', '/account_holder_address/city', 'required', { ...iban, account_holder_address: { ...address, city: undefined } }],
    ['an IBAN with a wrong check digit', '/iban/iban_number', 'invalid_iban', { ...iban, iban: { ...iban.iban, iban_number: 'DE88370400440532013000' } }],
    ['an IBAN of the wrong length', '/iban/iban_number', 'invalid_iban', { ...iban, iban: { ...iban.iban, iban_number: 'DE8937040044053201300' } }],
    ['an IBAN of no IBAN country', '/iban/iban_number', 'invalid_iban', { ...iban, iban: { ...iban.iban, iban_number: 'US89370400440532013000' } }],
    ['a BIC of 9 characters', '/iban/bic', 'invalid_bic', { ...iban, iban: { ...iban.iban, bic: 'DEUTDEFF5' } }],
    ['a BIC of an unknown country', '/iban/bic', 'invalid_bic', { ...iban, iban: { ...iban.iban, bic: 'DEUTQQFF' } }],
    ['a Dutch BIC with a German IBAN', '/iban/bic', 'bic_country_mismatch', { ...iban, iban: { ...iban.iban, bic: 'INGBNL2A' } }],
    ['a German BIC with a British IBAN', '/iban/bic', 'bic_country_mismatch', { ...iban, iban: { bic: 'DEUTDEFFXXX', iban_number: 'GB29NWBK60161331926819' } }],
    ['a routing number with a bad checksum', '/us/routing_number', 'invalid_routing_number', { ...us, us: { ...us.us, routing_number: '021000022' } }],
    ['a routing number of 8 digits', '/us/routing_number', 'invalid_routing_number', { ...us, us: { ...us.us, routing_number: '02100002' } }],
    ['a US account number of 3 digits', '/us/account_number', 'invalid_account_number', { ...us, us: { ...us.us, account_number: '123' } }],
    ['a US account number of 18 digits', '/us/account_number', 'invalid_account_number', { ...us, us: { ...us.us, account_number: '1'.repeat(18) } }],
    ['a US account number with letters', '/us/account_number', 'invalid_account_number', { ...us, us: { ...us.us, account_number: '12345X' } }],
    [
      'a wire account number with symbols',
      '/swift/account_number',
      'invalid_account_number',
      { ...swift, swift: { ...swift.swift, account_number: '12#45678' } },
    ],
    [
      'a wire account number that is a broken IBAN',
      '/swift/account_number',
      'invalid_account_number',
      { ...swift, swift: { ...swift.swift, account_number: 'DE88370400440532013000' } },
    ],
    ['a wire BIC that is not a BIC', '/swift/bic', 'invalid_bic', { ...swift, swift: { ...swift.swift, bic: 'HSBC' } }],
    ['a wire clearing code of symbols', '/swift/routing_number', 'invalid_routing_number', { ...swift, swift: { ...swift.swift, routing_number: '#' } }],
    [
      'a wire to a US bank with a bad ABA number',
      '/swift/routing_number',
      'invalid_routing_number',
      { ...swift, swift: { ...swift.swift, bic: 'CHASUS33', routing_number: '021000022' } },
    ],
    ['account_type iban without its iban object', '/iban', 'required', { ...iban, iban: undefined }],
    ['account_type iban with a us object', '/us', 'not_allowed', { ...iban, us: us.us }],
    ['an unknown field', '/nickname', 'unrecognized_keys', { ...iban, nickname: 'main' }],
  ])('refuses %s with 400 naming %s %s', async (_, pointer, code, body) => {
    const res = await api.post(accountsOf(await newCustomer()), body, withKey());
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toContainEqual(expect.objectContaining({ pointer, code }));
  });

  it('answers 404 for an unknown, a malformed and another partner’s customer', async () => {
    const other = t.client(await t.keyFor('Other Partner'));
    const othersCustomer = await newCustomer(other);
    for (const id of ['5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e', 'not-a-uuid', othersCustomer]) {
      const res = await api.post(accountsOf(id), ibanBody(), withKey());
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    // The sandbox customer does not exist for the same partner's production key either.
    const production = t.client(await t.keyFor('Demo Partner', 'production'));
    expect((await production.post(accountsOf(await newCustomer()), ibanBody(), withKey())).status).toBe(404);
  });
});

describe('GET /v0/customers/{customer_id}/external-accounts', () => {
  it('lists the customer’s accounts oldest first, numbers masked', async () => {
    const customerId = await newCustomer();
    const a = (await api.post(accountsOf(customerId), ibanBody(), withKey())).body;
    const b = (await api.post(accountsOf(customerId), usBody('5550001234'), withKey())).body;
    const c = (await api.post(accountsOf(customerId), swiftBody(), withKey())).body;
    await api.post(accountsOf(await newCustomer()), ibanBody(), withKey()); // someone else's
    const res = await api.get(accountsOf(customerId));
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: any) => i.id)).toEqual([a.id, b.id, c.id]);
    expect(res.body.items[0].iban).toEqual({ bic: 'DEUTDEFF', iban_number: `…${a.iban.iban_number.slice(-4)}` });
    expect(res.body.items[1].us).toEqual({ routing_number: '021000021', account_number: '…1234', account_type: 'checking' });
    expect(res.body.items[2].swift).toEqual({ account_number: '…6001', bic: 'HSBCHKHHHKH', routing_number: '004' });
    expect(JSON.stringify(res.body)).not.toContain(a.iban.iban_number);
    expect(JSON.stringify(res.body)).not.toContain('5550001234');
  });

  it('pages with limit and skip, and refuses a limit outside 1-100', async () => {
    const customerId = await newCustomer();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await api.post(accountsOf(customerId), ibanBody(), withKey())).body.id);
    expect((await api.get(`${accountsOf(customerId)}?limit=2`)).body.items.map((i: any) => i.id)).toEqual(ids.slice(0, 2));
    expect((await api.get(`${accountsOf(customerId)}?limit=2&skip=2`)).body.items.map((i: any) => i.id)).toEqual(ids.slice(2));
    for (const query of ['limit=0', 'limit=101', 'skip=-1', 'limit=many']) {
      const res = await api.get(`${accountsOf(customerId)}?${query}`);
      expect(res.status).toBe(400);
    }
  });

  it('answers 404 for another partner’s customer', async () => {
    const other = t.client(await t.keyFor('Other Partner'));
    const othersCustomer = await newCustomer(other);
    await other.post(accountsOf(othersCustomer), ibanBody(), withKey());
    expect((await api.get(accountsOf(othersCustomer))).status).toBe(404);
  });
});

describe('GET /v0/customers/{customer_id}/external-accounts/{external_account_id}', () => {
  it('returns one account with its numbers masked', async () => {
    const customerId = await newCustomer();
    const created = (await api.post(accountsOf(customerId), usBody('000111222333'), withKey())).body;
    const res = await api.get(`${accountsOf(customerId)}/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, us: { ...created.us, account_number: '…2333' } });
  });

  it('answers 404 for an unknown id, another customer’s account and another partner’s account', async () => {
    const customerId = await newCustomer();
    const mine = (await api.post(accountsOf(customerId), ibanBody(), withKey())).body.id;
    const other = t.client(await t.keyFor('Other Partner'));
    const othersCustomer = await newCustomer(other);
    const theirs = (await other.post(accountsOf(othersCustomer), ibanBody(), withKey())).body.id;
    for (const path of [
      `${accountsOf(customerId)}/5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e`,
      `${accountsOf(customerId)}/nope`,
      `${accountsOf(await newCustomer())}/${mine}`,
      `${accountsOf(othersCustomer)}/${theirs}`,
      `${accountsOf(customerId)}/${theirs}`,
    ]) {
      const res = await api.get(path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });
});

describe('external accounts over GraphQL', () => {
  const ADD = `mutation($input: AddBankAccountInput!) {
    addBankAccount(input: $input) {
      __typename
      ... on AddBankAccountPayload { bankAccount { id databaseId accountType bankName accountHolderType accountHolderFirstName accountNumberMasked bic routingNumber usAccountType
        accountHolderAddress { country city streetLine1 postalCode state } customer { databaseId } } }
      ... on Error { code message }
      ... on ValidationError { fieldErrors { path code } }
    }
  }`;
  const add = (customerId: string, account: Record<string, unknown>, idempotencyKey?: string) =>
    api.graphql(ADD, { input: { customerId, ...account, idempotencyKey } });
  const BIC_OF: Record<string, string> = { DE: 'DEUTDEFF', NL: 'INGBNL2A', GB: 'NWBKGB2L' };
  const gqlIban = (ibanNumber: string) => ({
    bankName: 'Deutsche Bank',
    accountHolderType: 'INDIVIDUAL',
    accountHolderFirstName: 'Hans',
    accountHolderLastName: 'Mueller',
    accountHolderAddress: { country: 'DE', city: 'Berlin', streetLine1: 'Unter den Linden 1', postalCode: '10117' },
    accountType: 'IBAN',
    iban: { bic: BIC_OF[ibanNumber.slice(0, 2)]!, ibanNumber },
  });

  it('adds a bank account, shows it masked, and lists it on the customer', async () => {
    const customerId = await newCustomer();
    const ibanNumber = sandboxIban('NL', unique());
    const res = await add(customerId, gqlIban(ibanNumber), key());
    const added = res.body.data.addBankAccount;
    expect(added.__typename).toBe('AddBankAccountPayload');
    expect(added.bankAccount).toMatchObject({
      accountType: 'IBAN',
      accountHolderType: 'INDIVIDUAL',
      accountHolderFirstName: 'Hans',
      accountNumberMasked: `…${ibanNumber.slice(-4)}`,
      bic: 'INGBNL2A',
      routingNumber: null,
      customer: { databaseId: customerId },
      accountHolderAddress: { country: 'DE', city: 'Berlin', streetLine1: 'Unter den Linden 1', postalCode: '10117', state: null },
    });
    const { id, databaseId } = added.bankAccount;
    const listed = await api.graphql(`query($id: ID!) { customer(id: $id) { bankAccounts { totalCount edges { node { id accountNumberMasked } } } } }`, {
      id: customerId,
    });
    expect(listed.body.data.customer.bankAccounts).toEqual({ totalCount: 1, edges: [{ node: { id, accountNumberMasked: `…${ibanNumber.slice(-4)}` } }] });
    for (const byId of [id, databaseId]) {
      const one = await api.graphql(`query($id: ID!) { bankAccount(id: $id) { id bankName } }`, { id: byId });
      expect(one.body.data.bankAccount).toEqual({ id, bankName: 'Deutsche Bank' });
    }
    const events = await t.sql<{ type: string }>('select type from events where entity_id = ?', [databaseId]);
    expect(events.map((e) => e.type)).toEqual(['external_account.created']);
  });

  it('adds a US account through the same validation', async () => {
    const res = await add(
      await newCustomer(),
      {
        bankName: 'Chase',
        accountHolderType: 'BUSINESS',
        accountHolderBusinessName: 'Acme',
        accountHolderAddress: { country: 'US', city: 'NYC', streetLine1: '1 Main', postalCode: '10001', state: 'NY' },
        accountType: 'US',
        us: { accountNumber: '123456789', routingNumber: '021000021', accountType: 'SAVINGS' },
      },
      key(),
    );
    expect(res.body.data.addBankAccount.bankAccount).toMatchObject({
      accountType: 'US',
      routingNumber: '021000021',
      usAccountType: 'SAVINGS',
      accountNumberMasked: '…6789',
    });
  });

  it('returns typed validation errors with GraphQL field paths', async () => {
    const input = { ...gqlIban('DE88370400440532013000'), accountHolderFirstName: null, iban: { bic: 'NOPE', ibanNumber: 'DE88370400440532013000' } };
    const res = await add(await newCustomer(), input, key());
    expect(res.body.data.addBankAccount).toMatchObject({ __typename: 'ValidationError', code: 'VALIDATION_FAILED' });
    const paths = res.body.data.addBankAccount.fieldErrors.map((e: any) => `${e.path} ${e.code}`);
    expect(paths).toEqual(expect.arrayContaining(['/iban/ibanNumber invalid_iban', '/iban/bic invalid_bic']));
  });

  it('names /iban/bic bic_country_mismatch when the BIC is of another country than the IBAN', async () => {
    const input = { ...gqlIban(sandboxIban('NL', unique())), iban: { bic: 'DEUTDEFF', ibanNumber: sandboxIban('NL', unique()) } };
    const res = await add(await newCustomer(), input, key());
    expect(res.body.data.addBankAccount).toMatchObject({ __typename: 'ValidationError', fieldErrors: [{ path: '/iban/bic', code: 'bic_country_mismatch' }] });
  });

  it('replays for a repeated idempotencyKey, refuses it for another input, and works without one', async () => {
    const customerId = await newCustomer();
    const input = gqlIban(sandboxIban('GB', unique()));
    const k = key();
    const first = await add(customerId, input, k);
    const second = await add(customerId, input, k);
    expect(second.body.data.addBankAccount.bankAccount.id).toBe(first.body.data.addBankAccount.bankAccount.id);
    // The customer's id may be spelled as its global id in a retry: the same request.
    const globalId = (await api.graphql(`query($id: ID!) { customer(id: $id) { id } }`, { id: customerId })).body.data.customer.id;
    const third = await add(globalId, input, k);
    expect(third.body.data.addBankAccount.bankAccount.id).toBe(first.body.data.addBankAccount.bankAccount.id);
    const reused = await add(customerId, gqlIban(sandboxIban('GB', unique())), k);
    expect(reused.body.data.addBankAccount).toMatchObject({ __typename: 'UnprocessableError', code: 'IDEMPOTENCY_KEY_REUSED' });
    // Unlike REST's header, the key is optional: without it the account is added, and a second time it already exists.
    const other = gqlIban(sandboxIban('GB', unique()));
    expect((await add(customerId, other)).body.data.addBankAccount.__typename).toBe('AddBankAccountPayload');
    expect((await add(customerId, other)).body.data.addBankAccount).toMatchObject({ __typename: 'ConflictError', code: 'EXTERNAL_ACCOUNT_EXISTS' });
    expect(await t.sql('select id from external_accounts where customer_id = ?', [customerId])).toHaveLength(2);
  });

  it('answers NotFoundError for another partner’s customer and null for another partner’s account', async () => {
    const other = t.client(await t.keyFor('Other Partner'));
    const othersCustomer = await newCustomer(other);
    const res = await add(othersCustomer, gqlIban(sandboxIban('DE', unique())), key());
    expect(res.body.data.addBankAccount).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    const theirs = (await other.post(accountsOf(othersCustomer), ibanBody(), withKey())).body.id;
    expect((await api.graphql(`query($id: ID!) { bankAccount(id: $id) { id } }`, { id: theirs })).body.data.bankAccount).toBeNull();
  });
});
