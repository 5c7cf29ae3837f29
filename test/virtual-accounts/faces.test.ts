import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxAddress } from '../../src/domain/identifiers/chain.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { graphqlFieldErrors, restFieldErrors } from '../support/clients/faces.js';

/**
 * For virtual accounts: one use case, two faces. A rule of the domain fails with
 * the same code in REST and GraphQL; REST points into the spec's snake_case body, GraphQL into `input`.
 */
let t: TestRamp;
let api: ApiClient;
let n = 0;
const polygonAddress = sandboxAddress('polygon', 'va-faces');

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

async function newCustomer(): Promise<string> {
  const res = await api.post('/v0/customers', { email: `va-faces${++n}@example.com`, type: 'individual', first_name: 'Ada', last_name: 'Lovelace' });
  expect(res.status).toBe(201);
  return res.body.customer_id;
}
const vaOf = (customerId: string) => `/v0/customers/${customerId}/virtual-account`;

const CREATE = `mutation ($input: CreateVirtualAccountInput!) {
  createVirtualAccount(input: $input) {
    __typename
    ... on CreateVirtualAccountPayload { virtualAccount { databaseId developerFeePercent } }
    ... on ValidationError { code fieldErrors { path code message argumentPath } }
  }
}`;
const SIMULATE = `mutation ($id: ID!) {
  simulateVirtualAccountIssuance(input: { virtualAccountId: $id }) { __typename ... on ConflictError { code } ... on ValidationError { code fieldErrors { path code message argumentPath } } }
}`;

describe('REST face', () => {
  it('points swift rails for eur at /source_rails of the body', async () => {
    const res = await api.post(vaOf(await newCustomer()), { source_currency: 'eur', source_rails: 'swift', destination_network: 'polygon' });
    expect(restFieldErrors(res)).toEqual(['/source_rails not_allowed']);
  });

  it('reports field and cross-field problems in one 400', async () => {
    const res = await api.post(vaOf(await newCustomer()), {
      source_currency: 'aed',
      source_rails: 'swift',
      destination_network: 'solana',
      destination_address: polygonAddress,
      developer_fee_percent: '0.123456789',
      memo: 'x',
    });
    expect(restFieldErrors(res)).toEqual([
      '/destination_address invalid_address',
      '/developer_fee_percent too_precise',
      '/memo unrecognized_keys',
      '/source_rails not_allowed',
    ]);
  });

  it('answers an account already active as a state conflict (409), not as a bad field', async () => {
    const customerId = await newCustomer();
    const { id } = (await api.post(vaOf(customerId), { source_currency: 'usd', destination_network: 'polygon' })).body;
    const res = await api.post(`${vaOf(customerId)}/simulate`, { action: 'issue_pending_virtual_account', virtual_account_id: id });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('virtual_account_already_active');
    expect(res.body.errors).toBeUndefined();
  });
});

describe('GraphQL face', () => {
  it('names swift rails for eur by its path in input', async () => {
    const variables = { input: { customerId: await newCustomer(), sourceCurrency: 'EUR', sourceRails: 'SWIFT', destinationNetwork: 'POLYGON' } };
    expect(await graphqlFieldErrors(api, CREATE, 'createVirtualAccount', variables)).toEqual(['/sourceRails not_allowed']);
  });

  it('reports field and cross-field problems in one ValidationError', async () => {
    const input = {
      customerId: await newCustomer(),
      sourceCurrency: 'AED',
      sourceRails: 'SWIFT',
      destinationNetwork: 'SOLANA',
      destinationAddress: polygonAddress,
      developerFeePercent: '0.123456789',
    };
    expect(await graphqlFieldErrors(api, CREATE, 'createVirtualAccount', { input })).toEqual([
      '/destinationAddress invalid_address',
      '/developerFeePercent too_precise',
      '/sourceRails not_allowed',
    ]);
  });

  it('answers an account already active as a ConflictError with the same code', async () => {
    const customerId = await newCustomer();
    const { id } = (await api.post(vaOf(customerId), { source_currency: 'usd', destination_network: 'polygon' })).body;
    const res = await api.graphql(SIMULATE, { id });
    expect(res.body.data.simulateVirtualAccountIssuance).toEqual({ __typename: 'ConflictError', code: 'VIRTUAL_ACCOUNT_ALREADY_ACTIVE' });
  });
});

describe('both faces', () => {
  it('fail one rule with the same code and the same sentence', async () => {
    const customerId = await newCustomer();
    const rest = await api.post(vaOf(customerId), {
      source_currency: 'usd',
      destination_network: 'solana',
      destination_address: polygonAddress,
      developer_fee_percent: '101',
    });
    const gql = await api.graphql(CREATE, {
      input: { customerId, sourceCurrency: 'USD', destinationNetwork: 'SOLANA', destinationAddress: polygonAddress, developerFeePercent: '101' },
    });
    const restByField = Object.fromEntries(
      (rest.body.errors as { pointer: string; code: string; detail: string }[]).map((e) => [e.pointer, [e.code, e.detail]]),
    );
    const gqlByField = Object.fromEntries(
      (gql.body.data.createVirtualAccount.fieldErrors as { path: string; code: string; message: string }[]).map((e) => [e.path, [e.code, e.message]]),
    );
    expect(gqlByField['/destinationAddress']).toEqual(restByField['/destination_address']);
    expect(gqlByField['/developerFeePercent']).toEqual(restByField['/developer_fee_percent']);
    expect(gqlByField['/developerFeePercent']?.[0]).toBe('too_big');
  });

  it('store the same account whichever face opened it, the fee an exact numeric shown as sent', async () => {
    const viaRest = await api.post(vaOf(await newCustomer()), { source_currency: 'eur', destination_network: 'polygon', developer_fee_percent: '0.50' });
    const viaGraphql = await api.graphql(CREATE, {
      input: {
        customerId: await newCustomer(),
        sourceCurrency: 'EUR',
        destinationNetwork: 'POLYGON',
        developerFeePercent: '0.50',
        sourceRails: null,
        destinationToken: null,
      },
    });
    expect(viaRest.body.developer_fee_percent).toBe('0.5');
    expect(viaGraphql.body.data.createVirtualAccount.virtualAccount.developerFeePercent).toBe('0.5');
    const columns = 'status, source_currency, source_rails, destination_token, destination_network, destination_address, developer_fee_percent::text as fee';
    const rows = await t.sql(`select ${columns} from virtual_accounts where id in (?, ?)`, [
      viaRest.body.id,
      viaGraphql.body.data.createVirtualAccount.virtualAccount.databaseId,
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(rows[1]);
    expect(rows[0]).toMatchObject({ destination_token: 'usdc', source_rails: null, fee: '0.50000000' });
  });
});
