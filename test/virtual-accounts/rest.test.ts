import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bicCountry, isValidAbaRouting, isValidBic, isValidIban, isValidUsAccountNumber } from '../../src/domain/identifiers/bank.js';
import { sandboxAddress } from '../../src/domain/identifiers/chain.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;
let n = 0;
const unique = () => `${Date.now()}-${++n}`;

const polygonAddress = sandboxAddress('polygon', 'va-tests');
const solanaAddress = sandboxAddress('solana', 'va-tests');

async function newCustomer(client = api): Promise<string> {
  const res = await client.post('/v0/customers', { email: `va${unique()}@example.com`, type: 'individual', first_name: 'Ada', last_name: 'Lovelace' });
  expect(res.status).toBe(201);
  return res.body.customer_id;
}
// The field is named; its code depends on src/domain/validation.ts, which does not yet tell a
// missing enum ("required") or a wrong type ("invalid_type") apart under zod 4.
const MISSING = undefined;
const WRONG_TYPE = undefined;
const vaOf = (customerId: string) => `/v0/customers/${customerId}/virtual-account`;
const usd = { source_currency: 'usd', destination_token: 'usdc', destination_network: 'polygon', destination_address: polygonAddress };

/** A customer with a pending (AED) virtual account. */
async function pendingAccount(client = api) {
  const customerId = await newCustomer(client);
  const res = await client.post(vaOf(customerId), { source_currency: 'aed', destination_network: 'solana', destination_address: solanaAddress });
  expect(res.status).toBe(202);
  return { customerId, id: res.body.id as string };
}
const simulate = (customerId: string, body: unknown, client = api) => client.post(`${vaOf(customerId)}/simulate`, body);
const issue = (customerId: string, id: string, client = api) =>
  simulate(customerId, { action: 'issue_pending_virtual_account', virtual_account_id: id }, client);

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

describe('POST /v0/customers/{customer_id}/virtual-account', () => {
  it('opens a USD account at once: 201, active, with ACH/wire deposit instructions that pass the bank validators', async () => {
    const customerId = await newCustomer();
    const res = await api.post(vaOf(customerId), { ...usd, developer_fee_percent: '0.50' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      virtual_account_id: res.body.id,
      customer_id: customerId,
      status: 'active',
      source_currency: 'usd',
      source_rails: null,
      destination_token: 'usdc',
      destination_network: 'polygon',
      destination_address: polygonAddress,
      developer_fee_percent: '0.5',
      deposit_instructions: {
        currency: 'usd',
        payment_rails: ['ach', 'wire'],
        bank_name: expect.any(String),
        bank_address: expect.any(String),
        account_holder_name: 'Ada Lovelace',
      },
    });
    const { us } = res.body.deposit_instructions;
    expect(isValidAbaRouting(us.routing_number)).toBe(true);
    expect(isValidUsAccountNumber(us.account_number)).toBe(true);
    const [stored] = await t.sql<{ fee: string }>('select developer_fee_percent::text as fee from virtual_accounts where id = ?', [res.body.id]);
    expect(stored!.fee).toBe('0.50000000');
  });

  it('opens a EUR account at once with a valid IBAN and BIC for SEPA', async () => {
    const res = await api.post(vaOf(await newCustomer()), { source_currency: 'eur', destination_token: 'usdt', destination_network: 'ethereum' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'active', destination_token: 'usdt', destination_address: null, developer_fee_percent: null });
    const instructions = res.body.deposit_instructions;
    expect(instructions).toMatchObject({ currency: 'eur', payment_rails: ['sepa'], account_holder_name: 'Ada Lovelace' });
    expect(isValidIban(instructions.iban.iban_number)).toBe(true);
    expect(isValidBic(instructions.iban.bic)).toBe(true);
    expect(instructions.iban.iban_number.slice(0, 2)).toBe(bicCountry(instructions.iban.bic));
  });

  it('gives every account its own deposit account number', async () => {
    const customerId = await newCustomer();
    const a = (await api.post(vaOf(customerId), { source_currency: 'usd', destination_network: 'base' })).body;
    const b = (await api.post(vaOf(customerId), { source_currency: 'usd', destination_network: 'arbitrum' })).body;
    expect(a.deposit_instructions.us.account_number).not.toBe(b.deposit_instructions.us.account_number);
    expect(a.deposit_instructions.us.routing_number).toBe(b.deposit_instructions.us.routing_number);
  });

  it('uses USDC when destination_token is omitted', async () => {
    const res = await api.post(vaOf(await newCustomer()), { source_currency: 'usd', destination_network: 'base' });
    expect(res.status).toBe(201);
    expect(res.body.destination_token).toBe('usdc');
  });

  it.each([
    ['AED', { source_currency: 'aed', destination_token: 'usdt', destination_network: 'tron' }],
    ['USD over SWIFT', { source_currency: 'usd', source_rails: 'swift', destination_network: 'polygon' }],
  ])('answers 202 with only id, virtual_account_id and status pending for %s', async (_, body) => {
    const res = await api.post(vaOf(await newCustomer()), body);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.any(String), virtual_account_id: res.body.id, status: 'pending' });
  });

  it('answers 409 for identical parameters, however they are spelled, even sent concurrently', async () => {
    const customerId = await newCustomer();
    const body = { ...usd, developer_fee_percent: '1' };
    const concurrent = await Promise.all([api.post(vaOf(customerId), body), api.post(vaOf(customerId), body)]);
    expect(concurrent.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(concurrent.find((r) => r.status === 409)!.body.code).toBe('virtual_account_exists');
    for (const same of [
      { ...body, destination_token: undefined },
      { ...body, destination_address: polygonAddress.toLowerCase() },
      { ...body, developer_fee_percent: '1.000' },
    ]) {
      expect((await api.post(vaOf(customerId), same)).status).toBe(409);
    }
    expect(await t.sql('select id from virtual_accounts where customer_id = ?', [customerId])).toHaveLength(1);
    // Any difference is another account; the same parameters for another customer too.
    expect((await api.post(vaOf(customerId), { ...body, developer_fee_percent: '2' })).status).toBe(201);
    expect((await api.post(vaOf(customerId), { ...body, destination_network: 'base' })).status).toBe(201);
    expect((await api.post(vaOf(await newCustomer()), body)).status).toBe(201);
  });

  it('answers 409 for a second pending account with the same parameters', async () => {
    const customerId = await newCustomer();
    const body = { source_currency: 'aed', destination_token: 'usdt', destination_network: 'tron' };
    expect((await api.post(vaOf(customerId), body)).status).toBe(202);
    expect((await api.post(vaOf(customerId), body)).status).toBe(409);
  });

  it('replays the first response for a repeated Idempotency-Key', async () => {
    const customerId = await newCustomer();
    const headers = { 'idempotency-key': `va-${unique()}` };
    const first = await api.post(vaOf(customerId), usd, headers);
    const second = await api.post(vaOf(customerId), usd, headers);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('records virtual_account.created with the whole account, in the same transaction', async () => {
    const res = await api.post(vaOf(await newCustomer()), usd);
    const events = await t.sql<{ type: string; entity_type: string; payload: any }>('select type, entity_type, payload from events where entity_id = ?', [
      res.body.id,
    ]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'virtual_account.created', entity_type: 'virtual_account', payload: res.body });
  });

  it.each([
    ['a missing source_currency', '/source_currency', MISSING, { destination_network: 'polygon' }],
    ['an unknown source_currency', '/source_currency', 'invalid_enum_value', { source_currency: 'gbp', destination_network: 'polygon' }],
    ['source_rails other than swift', '/source_rails', 'invalid_enum_value', { source_currency: 'usd', source_rails: 'ach', destination_network: 'polygon' }],
    ['source_rails swift for eur', '/source_rails', 'not_allowed', { source_currency: 'eur', source_rails: 'swift', destination_network: 'polygon' }],
    ['source_rails swift for aed', '/source_rails', 'not_allowed', { source_currency: 'aed', source_rails: 'swift', destination_network: 'polygon' }],
    [
      'an unknown destination_token',
      '/destination_token',
      'invalid_enum_value',
      { source_currency: 'usd', destination_token: 'dai', destination_network: 'polygon' },
    ],
    ['a missing destination_network', '/destination_network', MISSING, { source_currency: 'usd' }],
    ['an unknown destination_network', '/destination_network', 'invalid_enum_value', { source_currency: 'usd', destination_network: 'bitcoin' }],
    [
      'an EVM address on solana',
      '/destination_address',
      'invalid_address',
      { source_currency: 'usd', destination_network: 'solana', destination_address: polygonAddress },
    ],
    [
      'a solana address on polygon',
      '/destination_address',
      'invalid_address',
      { source_currency: 'usd', destination_network: 'polygon', destination_address: solanaAddress },
    ],
    [
      'an EVM address with a wrong EIP-55 checksum',
      '/destination_address',
      'invalid_address',
      {
        source_currency: 'usd',
        destination_network: 'ethereum',
        destination_address: `0x${[...polygonAddress.slice(2)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')}`,
      },
    ],
    [
      'a tron address with a broken checksum',
      '/destination_address',
      'invalid_address',
      { source_currency: 'usd', destination_network: 'tron', destination_address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8' },
    ],
    ['a negative developer_fee_percent', '/developer_fee_percent', 'invalid_regex', { ...usd, developer_fee_percent: '-1' }],
    ['a developer_fee_percent with a trailing dot', '/developer_fee_percent', 'invalid_regex', { ...usd, developer_fee_percent: '1.' }],
    ['a developer_fee_percent without an integer part', '/developer_fee_percent', 'invalid_regex', { ...usd, developer_fee_percent: '.5' }],
    ['a developer_fee_percent in exponent form', '/developer_fee_percent', 'invalid_regex', { ...usd, developer_fee_percent: '1e2' }],
    ['a developer_fee_percent that is not a number', '/developer_fee_percent', 'invalid_regex', { ...usd, developer_fee_percent: 'abc' }],
    ['an empty developer_fee_percent', '/developer_fee_percent', 'invalid_regex', { ...usd, developer_fee_percent: '' }],
    ['a developer_fee_percent sent as a number', '/developer_fee_percent', WRONG_TYPE, { ...usd, developer_fee_percent: 0.5 }],
    ['a developer_fee_percent above 100', '/developer_fee_percent', 'too_big', { ...usd, developer_fee_percent: '100.01' }],
    ['a developer_fee_percent with 9 decimals', '/developer_fee_percent', 'too_precise', { ...usd, developer_fee_percent: '0.123456789' }],
    ['an unknown field', '/memo', 'unrecognized_keys', { ...usd, memo: 'x' }],
  ])('refuses %s with 400 naming %s %s', async (_, pointer, code, body) => {
    const res = await api.post(vaOf(await newCustomer()), body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toContainEqual(expect.objectContaining(code ? { pointer, code } : { pointer }));
  });

  it('answers 404 for an unknown, a malformed and another partner’s customer', async () => {
    const other = t.client(await t.keyFor('Other Partner'));
    for (const id of ['5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e', 'nope', await newCustomer(other)]) {
      const res = await api.post(vaOf(id), usd);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });
});

describe('POST /v0/customers/{customerId}/virtual-account/simulate', () => {
  it('issues a pending AED account: 201 with the active account and a UAE IBAN, and records virtual_account.status.updated', async () => {
    const { customerId, id } = await pendingAccount();
    const res = await issue(customerId, id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id, virtual_account_id: id, status: 'active', source_currency: 'aed', destination_network: 'solana' });
    const instructions = res.body.deposit_instructions;
    expect(instructions).toMatchObject({ currency: 'aed', payment_rails: ['uaefts'], account_holder_name: 'Ada Lovelace' });
    expect(instructions.iban.iban_number).toMatch(/^AE/);
    expect(isValidIban(instructions.iban.iban_number)).toBe(true);
    expect(isValidBic(instructions.iban.bic)).toBe(true);
    expect((await api.get(`${vaOf(customerId)}/${id}`)).body).toEqual(res.body);
    const events = await t.sql<{ type: string; payload: any }>('select type, payload from events where entity_id = ? order by cursor', [id]);
    expect(events.map((e) => e.type)).toEqual(['virtual_account.created', 'virtual_account.status.updated']);
    expect(events[0]!.payload).toMatchObject({ status: 'pending', deposit_instructions: null });
    expect(events[1]!.payload).toEqual(res.body);
  });

  it('issues a pending USD SWIFT account with SWIFT deposit instructions', async () => {
    const customerId = await newCustomer();
    const { id } = (await api.post(vaOf(customerId), { source_currency: 'usd', source_rails: 'swift', destination_network: 'polygon' })).body;
    const res = await issue(customerId, id);
    expect(res.status).toBe(201);
    const instructions = res.body.deposit_instructions;
    expect(instructions).toMatchObject({ currency: 'usd', payment_rails: ['swift'] });
    expect(isValidBic(instructions.swift.bic)).toBe(true);
    expect(bicCountry(instructions.swift.bic)).toBe('US');
    expect(isValidUsAccountNumber(instructions.swift.account_number)).toBe(true);
    expect(isValidAbaRouting(instructions.swift.routing_number)).toBe(true);
  });

  it('answers 409 virtual_account_already_active for an active account, once or concurrently: a state conflict', async () => {
    const { customerId, id } = await pendingAccount();
    const both = await Promise.all([issue(customerId, id), issue(customerId, id)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const again = await issue(customerId, id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('virtual_account_already_active');
    const activeAtOnce = (await api.post(vaOf(customerId), usd)).body.id;
    expect((await issue(customerId, activeAtOnce)).body.code).toBe('virtual_account_already_active');
    expect(await t.sql("select id from events where entity_id = ? and type = 'virtual_account.status.updated'", [id])).toHaveLength(1);
  });

  it.each([
    ['an unknown action', '/action', 'invalid_enum_value', { action: 'close_virtual_account', virtual_account_id: '5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e' }],
    ['a missing action', '/action', MISSING, { virtual_account_id: '5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e' }],
    [
      'a virtual_account_id that is not a UUID',
      '/virtual_account_id',
      'invalid_regex',
      { action: 'issue_pending_virtual_account', virtual_account_id: 'va_1' },
    ],
    ['a missing virtual_account_id', '/virtual_account_id', 'required', { action: 'issue_pending_virtual_account' }],
  ])('answers 400 for %s (%s %s)', async (_, pointer, code, body) => {
    const res = await simulate(await newCustomer(), body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual(expect.objectContaining(code ? { pointer, code } : { pointer }));
  });

  it('answers 403 sandbox_only with a production key', async () => {
    const production = t.client(await t.keyFor('Demo Partner', 'production'));
    const customerId = await newCustomer(production);
    const res = await issue(customerId, '5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e', production);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('sandbox_only');
  });

  it('refuses to open a virtual account with a production key while no bank is connected (403 rails_not_connected)', async () => {
    const production = t.client(await t.keyFor('Demo Partner', 'production'));
    const customerId = await newCustomer(production);
    for (const body of [
      { source_currency: 'usd', destination_network: 'base' },
      { source_currency: 'aed', destination_network: 'base' },
    ]) {
      const res = await production.post(vaOf(customerId), body);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('rails_not_connected');
    }
    expect((await production.get(vaOf(customerId))).body.items).toEqual([]);
  });

  it('finds the account when the path spells the UUIDs in upper case', async () => {
    const account = await pendingAccount();
    const res = await api.get(`${vaOf(account.customerId.toUpperCase())}/${account.id.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(account.id);
  });

  it('answers 404 for an unknown account, another customer’s and another partner’s', async () => {
    const mine = await pendingAccount();
    const other = t.client(await t.keyFor('Other Partner'));
    const theirs = await pendingAccount(other);
    for (const [customerId, id] of [
      [mine.customerId, '5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e'],
      [await newCustomer(), mine.id],
      [mine.customerId, theirs.id],
      [theirs.customerId, theirs.id],
    ] as const) {
      const res = await issue(customerId, id);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await other.get(`${vaOf(theirs.customerId)}/${theirs.id}`)).body.status).toBe('pending');
  });
});

describe('GET /v0/customers/{customer_id}/virtual-account[/{virtual_account_id}]', () => {
  it('reads one account; a pending one has no deposit instructions yet', async () => {
    const { customerId, id } = await pendingAccount();
    const res = await api.get(`${vaOf(customerId)}/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      virtual_account_id: id,
      customer_id: customerId,
      status: 'pending',
      source_currency: 'aed',
      deposit_instructions: null,
    });
  });

  it('lists a customer’s accounts oldest first, with limit and skip', async () => {
    const customerId = await newCustomer();
    const ids: string[] = [];
    for (const network of ['polygon', 'base', 'arbitrum'])
      ids.push((await api.post(vaOf(customerId), { source_currency: 'usd', destination_network: network })).body.id);
    await api.post(vaOf(await newCustomer()), usd); // someone else's
    const all = await api.get(vaOf(customerId));
    expect(all.status).toBe(200);
    expect(all.body.items.map((i: any) => i.id)).toEqual(ids);
    expect(all.body.items[0].deposit_instructions.us.account_number).toMatch(/^[0-9]{12}$/);
    expect((await api.get(`${vaOf(customerId)}?limit=1&skip=1`)).body.items.map((i: any) => i.id)).toEqual([ids[1]]);
    expect((await api.get(`${vaOf(customerId)}?limit=101`)).status).toBe(400);
  });

  it('answers 404 for an unknown id, another customer’s account and another partner’s', async () => {
    const mine = await pendingAccount();
    const other = t.client(await t.keyFor('Other Partner'));
    const theirs = await pendingAccount(other);
    for (const path of [
      `${vaOf(mine.customerId)}/5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e`,
      `${vaOf(mine.customerId)}/nope`,
      `${vaOf(await newCustomer())}/${mine.id}`,
      `${vaOf(theirs.customerId)}/${theirs.id}`,
      `${vaOf(mine.customerId)}/${theirs.id}`,
      vaOf(theirs.customerId),
    ]) {
      const res = await api.get(path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });
});

describe('virtual accounts over GraphQL', () => {
  const CREATE = `mutation($input: CreateVirtualAccountInput!) {
    createVirtualAccount(input: $input) {
      __typename
      ... on CreateVirtualAccountPayload { virtualAccount { id databaseId status sourceCurrency sourceRails destinationToken destinationNetwork destinationAddress developerFeePercent
        depositInstructions { currency paymentRails bankName accountHolderName routingNumber accountNumber ibanNumber bic } customer { databaseId } } }
      ... on Error { code }
      ... on ValidationError { fieldErrors { path code } }
    }
  }`;
  const SIMULATE = `mutation($id: ID!) {
    simulateVirtualAccountIssuance(input: { virtualAccountId: $id }) {
      __typename
      ... on SimulateVirtualAccountIssuancePayload { virtualAccount { id databaseId status depositInstructions { ibanNumber bic paymentRails } } }
      ... on Error { code }
    }
  }`;
  const create = (customerId: string, account: Record<string, unknown>, client = api) => client.graphql(CREATE, { input: { customerId, ...account } });

  it('creates an active USD account and reads it by id and on its customer', async () => {
    const customerId = await newCustomer();
    const res = await create(customerId, {
      sourceCurrency: 'USD',
      destinationNetwork: 'POLYGON',
      destinationAddress: polygonAddress,
      developerFeePercent: '0.25',
    });
    const created = res.body.data.createVirtualAccount;
    expect(created.__typename).toBe('CreateVirtualAccountPayload');
    expect(created.virtualAccount).toMatchObject({
      status: 'ACTIVE',
      sourceCurrency: 'USD',
      sourceRails: null,
      destinationToken: 'USDC',
      destinationNetwork: 'POLYGON',
      developerFeePercent: '0.25',
      customer: { databaseId: customerId },
      depositInstructions: { currency: 'USD', paymentRails: ['ACH', 'WIRE'], accountHolderName: 'Ada Lovelace', ibanNumber: null, bic: null },
    });
    expect(isValidAbaRouting(created.virtualAccount.depositInstructions.routingNumber)).toBe(true);
    const { id, databaseId } = created.virtualAccount;
    for (const byId of [id, databaseId]) {
      const one = await api.graphql(`query($id: ID!) { virtualAccount(id: $id) { id status } }`, { id: byId });
      expect(one.body.data.virtualAccount).toEqual({ id, status: 'ACTIVE' });
    }
    const listed = await api.graphql(`query($id: ID!) { customer(id: $id) { virtualAccounts { totalCount edges { node { id } } } } }`, { id: customerId });
    expect(listed.body.data.customer.virtualAccounts).toEqual({ totalCount: 1, edges: [{ node: { id } }] });
  });

  it('creates a pending AED account and issues it with the simulation, by its global id or databaseId', async () => {
    const customerId = await newCustomer();
    const created = (await create(customerId, { sourceCurrency: 'AED', destinationToken: 'USDT', destinationNetwork: 'TRON' })).body.data.createVirtualAccount
      .virtualAccount;
    expect(created).toMatchObject({ status: 'PENDING', depositInstructions: null });
    const issued = (await api.graphql(SIMULATE, { id: created.id })).body.data.simulateVirtualAccountIssuance;
    expect(issued.virtualAccount).toMatchObject({ id: created.id, status: 'ACTIVE', depositInstructions: { paymentRails: ['UAEFTS'] } });
    expect(isValidIban(issued.virtualAccount.depositInstructions.ibanNumber)).toBe(true);
    const again = (await api.graphql(SIMULATE, { id: created.databaseId })).body.data.simulateVirtualAccountIssuance;
    expect(again).toEqual({ __typename: 'ConflictError', code: 'VIRTUAL_ACCOUNT_ALREADY_ACTIVE' });
  });

  it('replays createVirtualAccount for a repeated idempotencyKey and refuses the key for another input', async () => {
    const customerId = await newCustomer();
    const idempotencyKey = `va-gql-${unique()}`;
    const input = { sourceCurrency: 'USD', destinationNetwork: 'BASE', idempotencyKey };
    const first = (await create(customerId, input)).body.data.createVirtualAccount;
    const second = (await create(customerId, input)).body.data.createVirtualAccount;
    expect(second).toEqual(first);
    const reused = (await create(customerId, { ...input, destinationNetwork: 'ARBITRUM' })).body.data.createVirtualAccount;
    expect(reused).toEqual({ __typename: 'UnprocessableError', code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await t.sql('select id from virtual_accounts where customer_id = ?', [customerId])).toHaveLength(1);
  });

  it('returns typed errors: validation with GraphQL paths, conflict, not found, forbidden in production', async () => {
    const customerId = await newCustomer();
    const invalid = (
      await create(customerId, { sourceCurrency: 'EUR', sourceRails: 'SWIFT', destinationNetwork: 'SOLANA', destinationAddress: polygonAddress })
    ).body.data.createVirtualAccount;
    expect(invalid.__typename).toBe('ValidationError');
    expect(invalid.fieldErrors).toEqual(
      expect.arrayContaining([
        { path: '/sourceRails', code: 'not_allowed' },
        { path: '/destinationAddress', code: 'invalid_address' },
      ]),
    );
    const input = { sourceCurrency: 'EUR', destinationNetwork: 'BASE' };
    expect((await create(customerId, input)).body.data.createVirtualAccount.__typename).toBe('CreateVirtualAccountPayload');
    expect((await create(customerId, input)).body.data.createVirtualAccount).toMatchObject({
      __typename: 'ConflictError',
      code: 'VIRTUAL_ACCOUNT_EXISTS',
    });

    const other = t.client(await t.keyFor('Other Partner'));
    const theirs = await pendingAccount(other);
    expect((await create(theirs.customerId, input)).body.data.createVirtualAccount.__typename).toBe('NotFoundError');
    for (const id of [theirs.id, 'not-an-id']) {
      expect((await api.graphql(SIMULATE, { id })).body.data.simulateVirtualAccountIssuance).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    }
    expect((await other.get(`${vaOf(theirs.customerId)}/${theirs.id}`)).body.status).toBe('pending');
    expect((await api.graphql(`query($id: ID!) { virtualAccount(id: $id) { id } }`, { id: theirs.id })).body.data.virtualAccount).toBeNull();

    const production = t.client(await t.keyFor('Demo Partner', 'production'));
    const prodCustomer = await newCustomer(production);
    expect((await create(prodCustomer, input, production)).body.data.createVirtualAccount).toMatchObject({
      __typename: 'ForbiddenError',
      code: 'RAILS_NOT_CONNECTED',
    });
    for (const id of [theirs.id, 'not-an-id']) {
      expect((await production.graphql(SIMULATE, { id })).body.data.simulateVirtualAccountIssuance).toEqual({
        __typename: 'ForbiddenError',
        code: 'SANDBOX_ONLY',
      });
    }
  });
});
