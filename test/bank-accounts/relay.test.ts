import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxIban } from '../../src/domain/identifiers/bank.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { createCustomer } from '../support/data/transfers.js';

/**
 * For external and virtual accounts, KYB and KYC import: Relay identity of BankAccount and
 * VirtualAccount, the customer's accounts as connections, and each mutation's payload and errors.
 */
let t: TestRamp;
let api: ApiClient;
let n = 0;
const unique = () => `${Date.now()}-${++n}`;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t?.close());

const newCustomer = (client = api) => createCustomer(client, { approved: false });

/** An IBAN account registered over REST; its REST id. */
async function bankAccount(customerId: string, client = api): Promise<string> {
  const res = await client.post(
    `/v0/customers/${customerId}/external-accounts`,
    {
      bank_name: 'Deutsche Bank',
      account_holder_type: 'individual',
      account_holder_first_name: 'Ada',
      account_holder_last_name: 'Lovelace',
      account_holder_address: { country: 'DE', city: 'Berlin', street_line_1: 'Unter den Linden 1', postal_code: '10117' },
      account_type: 'iban',
      iban: { bic: 'DEUTDEFF', iban_number: sandboxIban('DE', unique()) },
    },
    { 'idempotency-key': `relay-${unique()}` },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** A USD virtual account opened over REST (one per network for the same customer); its REST id. */
async function virtualAccount(customerId: string, network = 'polygon', client = api): Promise<string> {
  const res = await client.post(`/v0/customers/${customerId}/virtual-account`, { source_currency: 'usd', destination_network: network });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const NODE = `query ($id: ID!) { node(id: $id) { __typename id
  ... on BankAccount { databaseId accountType customer { databaseId } }
  ... on VirtualAccount { databaseId status sourceCurrency customer { databaseId } } } }`;
const NODES = `query ($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on BankAccount { databaseId } ... on VirtualAccount { databaseId } } }`;

/** The global id of an account, as its own query shows it (looked up by the REST id). */
async function globalIdOf(field: 'bankAccount' | 'virtualAccount', databaseId: string): Promise<string> {
  const res = await api.graphql(`query ($id: ID!) { ${field}(id: $id) { id databaseId } }`, { id: databaseId });
  expect(res.body.data[field].databaseId).toBe(databaseId);
  return res.body.data[field].id;
}

describe('Relay identity of accounts', () => {
  it('a bank account has an opaque global id that node(id:) refetches, with its REST id as databaseId', async () => {
    const customerId = await newCustomer();
    const databaseId = await bankAccount(customerId);
    const id = await globalIdOf('bankAccount', databaseId);
    expect(id).not.toContain(databaseId);
    const node = await api.graphql(NODE, { id });
    expect(node.body).toEqual({ data: { node: { __typename: 'BankAccount', id, databaseId, accountType: 'IBAN', customer: { databaseId: customerId } } } });
    expect((await api.graphql(`query ($id: ID!) { bankAccount(id: $id) { databaseId } }`, { id })).body.data.bankAccount).toEqual({ databaseId });
  });

  it('a virtual account has an opaque global id that node(id:) refetches, with its REST id as databaseId', async () => {
    const customerId = await newCustomer();
    const databaseId = await virtualAccount(customerId);
    const id = await globalIdOf('virtualAccount', databaseId);
    expect(id).not.toContain(databaseId);
    const node = await api.graphql(NODE, { id });
    expect(node.body).toEqual({
      data: { node: { __typename: 'VirtualAccount', id, databaseId, status: 'ACTIVE', sourceCurrency: 'USD', customer: { databaseId: customerId } } },
    });
    expect((await api.graphql(`query ($id: ID!) { virtualAccount(id: $id) { databaseId } }`, { id })).body.data.virtualAccount).toEqual({ databaseId });
  });

  it('nodes(ids:) loads both kinds in the order asked, null where unknown', async () => {
    const customerId = await newCustomer();
    const [bank, virtual] = [await bankAccount(customerId), await virtualAccount(customerId)];
    const ids = [await globalIdOf('virtualAccount', virtual), 'nonsense', await globalIdOf('bankAccount', bank)];
    expect((await api.graphql(NODES, { ids })).body).toEqual({
      data: { nodes: [{ __typename: 'VirtualAccount', databaseId: virtual }, null, { __typename: 'BankAccount', databaseId: bank }] },
    });
  });

  it("reads another partner's and the production environment's ids as null, by global id and by databaseId", async () => {
    const customerId = await newCustomer();
    const accounts = {
      bankAccount: await bankAccount(customerId),
      virtualAccount: await virtualAccount(customerId),
    };
    const other = t.client(await t.keyFor('Accounts Relay Other'));
    const production = t.client(await t.keyFor('Demo Partner', 'production'));
    for (const [field, databaseId] of Object.entries(accounts) as ['bankAccount' | 'virtualAccount', string][]) {
      const id = await globalIdOf(field, databaseId);
      for (const client of [other, production]) {
        expect((await client.graphql(NODE, { id })).body).toEqual({ data: { node: null } });
        expect((await client.graphql(NODES, { ids: [id] })).body).toEqual({ data: { nodes: [null] } });
        for (const byId of [id, databaseId]) {
          const one = await client.graphql(`query ($id: ID!) { ${field}(id: $id) { id } }`, { id: byId });
          expect(one.body).toEqual({ data: { [field]: null } });
        }
      }
    }
  });

  it("reads another type's global id, or a malformed one, as null", async () => {
    const customerId = await newCustomer();
    const bank = await bankAccount(customerId);
    const virtual = await virtualAccount(customerId);
    const asOtherType = (typename: string, id: string) => Buffer.from(`${typename}:${id}`).toString('base64');
    for (const [field, id] of [
      ['bankAccount', asOtherType('VirtualAccount', bank)],
      ['bankAccount', asOtherType('BankAccount', 'not-a-uuid')],
      ['virtualAccount', asOtherType('BankAccount', virtual)],
      ['virtualAccount', 'nonsense'],
    ] as const) {
      expect((await api.graphql(`query ($id: ID!) { ${field}(id: $id) { id } }`, { id })).body).toEqual({ data: { [field]: null } });
    }
  });
});

describe("a customer's accounts as connections", () => {
  const PAGE = `query ($id: ID!, $first: Int, $after: String) { customer(id: $id) {
    bankAccounts(first: $first, after: $after) { totalCount edges { cursor node { databaseId } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }
    virtualAccounts(first: $first, after: $after) { totalCount edges { cursor node { databaseId } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }
  } }`;
  type Page = { totalCount: number; edges: { cursor: string; node: { databaseId: string } }[]; pageInfo: Record<string, unknown> };
  const ids = (page: Page) => page.edges.map((e) => e.node.databaseId);

  it('counts every account of the customer across pages, oldest first, and only its own', async () => {
    const customerId = await newCustomer();
    const banks = [await bankAccount(customerId), await bankAccount(customerId), await bankAccount(customerId)];
    const virtuals = [await virtualAccount(customerId, 'polygon'), await virtualAccount(customerId, 'base'), await virtualAccount(customerId, 'arbitrum')];
    const someoneElse = await newCustomer();
    await bankAccount(someoneElse);
    await virtualAccount(someoneElse);

    const first = (await api.graphql(PAGE, { id: customerId, first: 2 })).body.data.customer;
    for (const [page, all] of [
      [first.bankAccounts, banks],
      [first.virtualAccounts, virtuals],
    ] as [Page, string[]][]) {
      expect(page.totalCount).toBe(3);
      expect(ids(page)).toEqual(all.slice(0, 2));
      expect(page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    }
    const rest = (await api.graphql(PAGE, { id: customerId, first: 2, after: first.bankAccounts.pageInfo.endCursor })).body.data.customer;
    expect(rest.bankAccounts.totalCount).toBe(3);
    expect(ids(rest.bankAccounts)).toEqual(banks.slice(2));
    expect(rest.bankAccounts.pageInfo.hasNextPage).toBe(false);
    const restVirtual = (await api.graphql(PAGE, { id: customerId, first: 2, after: first.virtualAccounts.pageInfo.endCursor })).body.data.customer;
    expect(ids(restVirtual.virtualAccounts)).toEqual(virtuals.slice(2));
  });

  it('answers a customer without accounts with totalCount 0 and null cursors', async () => {
    const customer = (await api.graphql(PAGE, { id: await newCustomer() })).body.data.customer;
    const empty = { totalCount: 0, edges: [], pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null } };
    expect(customer).toEqual({ bankAccounts: empty, virtualAccounts: empty });
  });

  it('reuses one named connection type per node', async () => {
    // Nullable (a refused page nulls the connection alone): the field's type is the connection itself.
    const res = await api.graphql(`{ __type(name: "Customer") { fields { name type { name } } } }`);
    const typeOf = (name: string) => res.body.data.__type.fields.find((f: { name: string }) => f.name === name)?.type.name;
    expect([typeOf('bankAccounts'), typeOf('virtualAccounts')]).toEqual(['BankAccountConnection', 'VirtualAccountConnection']);
  });
});

describe('mutations of accounts, KYB and KYC import', () => {
  const MUTATIONS: Record<string, { payload: string; field: string; errors: string[]; creates: boolean }> = {
    addBankAccount: {
      payload: 'AddBankAccount',
      field: 'bankAccount',
      errors: ['ValidationError', 'NotFoundError', 'ConflictError', 'UnprocessableError'],
      creates: true,
    },
    createVirtualAccount: {
      payload: 'CreateVirtualAccount',
      field: 'virtualAccount',
      errors: ['ValidationError', 'NotFoundError', 'ConflictError', 'UnprocessableError', 'ForbiddenError'],
      creates: true,
    },
    simulateVirtualAccountIssuance: {
      payload: 'SimulateVirtualAccountIssuance',
      field: 'virtualAccount',
      // ConflictError: an account already active (virtual_account_already_active, a state conflict).
      errors: ['ValidationError', 'NotFoundError', 'ConflictError', 'ForbiddenError'],
      creates: false,
    },
    submitBusinessBasicDetails: { payload: 'SubmitBusinessBasicDetails', field: 'businessProfile', errors: ['ValidationError'], creates: false },
    submitBusinessAddress: { payload: 'SubmitBusinessAddress', field: 'businessProfile', errors: ['ValidationError'], creates: false },
    submitBusinessLegalRepresentative: { payload: 'SubmitBusinessLegalRepresentative', field: 'businessProfile', errors: ['ValidationError'], creates: false },
    importKyc: {
      payload: 'ImportKyc',
      field: 'customer',
      errors: ['ValidationError', 'ConflictError', 'UnprocessableError', 'ForbiddenError'],
      creates: true,
    },
  };

  it.each(Object.entries(MUTATIONS))('%s returns its payload or only the errors it can return', async (_, { payload, errors }) => {
    const res = await api.graphql(`query ($name: String!) { __type(name: $name) { kind possibleTypes { name } } }`, { name: `${payload}Result` });
    expect(res.body.data.__type.kind).toBe('UNION');
    const members = res.body.data.__type.possibleTypes.map((m: { name: string }) => m.name).sort();
    expect(members).toEqual([`${payload}Payload`, ...errors].sort());
  });

  it.each(Object.entries(MUTATIONS))('%s takes one required input and names what it returns', async (name, { payload, field, creates }) => {
    const res = await api.graphql(`{
      mutation: __type(name: "Mutation") { fields { name args { name type { kind ofType { name } } } } }
      payload: __type(name: "${payload}Payload") { fields { name } }
      input: __type(name: "${payload}Input") { inputFields { name type { kind } } }
    }`);
    const mutation = res.body.data.mutation.fields.find((f: { name: string }) => f.name === name);
    expect(mutation.args).toEqual([{ name: 'input', type: { kind: 'NON_NULL', ofType: { name: `${payload}Input` } } }]);
    expect(res.body.data.payload.fields).toEqual([{ name: field }]);
    const key = res.body.data.input.inputFields.find((f: { name: string }) => f.name === 'idempotencyKey');
    // A creating mutation takes an optional key; the others (upserts, a simulation) none.
    expect(key ?? null).toEqual(creates ? { name: 'idempotencyKey', type: { kind: 'SCALAR' } } : null);
  });

  it('names idempotencyKey of the input when the key is refused', async () => {
    const res = await api.graphql(
      `mutation ($input: CreateVirtualAccountInput!) { createVirtualAccount(input: $input) {
        __typename ... on ValidationError { fieldErrors { path argumentPath code } } } }`,
      { input: { customerId: await newCustomer(), sourceCurrency: 'USD', destinationNetwork: 'BASE', idempotencyKey: 'k'.repeat(1000) } },
    );
    expect(res.body.data.createVirtualAccount).toEqual({
      __typename: 'ValidationError',
      fieldErrors: [{ path: '/idempotencyKey', argumentPath: ['input', 'idempotencyKey'], code: 'too_long' }],
    });
  });

  it('simulateVirtualAccountIssuance needs no customer: the account names it', async () => {
    const res = await api.graphql(`{ __type(name: "SimulateVirtualAccountIssuanceInput") { inputFields { name } } }`);
    expect(res.body.data.__type.inputFields).toEqual([{ name: 'virtualAccountId' }]);
  });
});
