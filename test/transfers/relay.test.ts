import { encodeGlobalID as globalIdOf } from '@pothos/plugin-relay';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, TestRamp } from '../support/ramp.js';
import { createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody, useTransferFixture, wallet } from '../support/data/transfers.js';

/** For quotes and transfers: Relay identity, one TransferConnection, per-mutation result unions. */
const fixture = useTransferFixture();
let t: TestRamp;
let api: ApiClient;
let customerId: string;
beforeAll(() => {
  ({ t, api, customerId } = fixture);
});

/** An on-ramp and an off-ramp transfer of `customer`, made through REST, by their REST ids. */
async function restTransfers(customer = customerId) {
  const onrampQuote = await api.post(`/v0/customers/${customer}/onramp-transfer/quote`, onrampQuoteBody());
  const onramp = await api.post(`/v0/customers/${customer}/onramp-transfer/quote/${onrampQuote.body.quote_id}`, { destination_address: wallet() });
  const offramp = await api.post(
    `/v0/customers/${customer}/offramp-transfer/quote`,
    offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'family' }),
    idempotencyKey(),
  );
  expect([onramp.status, offramp.status], JSON.stringify([onramp.body, offramp.body])).toEqual([201, 201]);
  return {
    onrampQuote: onrampQuote.body.quote_id as string,
    onramp: onramp.body.id as string,
    offrampQuote: offramp.body.quote_id as string,
    offramp: offramp.body.transfer_id as string,
  };
}

const NODE = `query ($id: ID!) { node(id: $id) { __typename id ... on Quote { databaseId } ... on Transfer { databaseId } } }`;
const node = async (id: string, client = api) => (await client.graphql(NODE, { id })).body;

describe('Relay identity of quotes and transfers', () => {
  it('round-trips Quote, OnrampTransfer and OfframpTransfer through node(id:), their REST ids as databaseId', async () => {
    const ids = await restTransfers();
    const read = await api.graphql(
      `query ($on: ID!, $off: ID!, $onQuote: ID!, $offQuote: ID!) {
        on: transfer(id: $on) { __typename id databaseId quote { id databaseId } }
        off: transfer(id: $off) { __typename id databaseId quote { id databaseId } }
        onQuote: quote(id: $onQuote) { id databaseId }
        offQuote: quote(id: $offQuote) { id databaseId }
      }`,
      { on: ids.onramp, off: ids.offramp, onQuote: ids.onrampQuote, offQuote: ids.offrampQuote },
    );
    const { on, off, onQuote, offQuote } = read.body.data;
    expect(on).toMatchObject({ __typename: 'OnrampTransfer', databaseId: ids.onramp, quote: onQuote });
    expect(off).toMatchObject({ __typename: 'OfframpTransfer', databaseId: ids.offramp, quote: offQuote });
    expect([onQuote.databaseId, offQuote.databaseId]).toEqual([ids.onrampQuote, ids.offrampQuote]);
    for (const [object, typename] of [
      [on, 'OnrampTransfer'],
      [off, 'OfframpTransfer'],
      [onQuote, 'Quote'],
      [offQuote, 'Quote'],
    ] as const) {
      expect(object.id).not.toContain(object.databaseId);
      expect(await node(object.id)).toEqual({ data: { node: { __typename: typename, id: object.id, databaseId: object.databaseId } } });
    }
    const many = await api.graphql(`query ($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on Transfer { databaseId } ... on Quote { databaseId } } }`, {
      ids: [off.id, 'nonsense', onQuote.id, on.id],
    });
    expect(many.body.data.nodes).toEqual([
      { __typename: 'OfframpTransfer', databaseId: ids.offramp },
      null,
      { __typename: 'Quote', databaseId: ids.onrampQuote },
      { __typename: 'OnrampTransfer', databaseId: ids.onramp },
    ]);
  });

  it('transfer(id:) takes either type’s global id or the REST id; a global id of the other direction names nothing', async () => {
    const ids = await restTransfers();
    const TRANSFER = `query ($id: ID!) { transfer(id: $id) { __typename databaseId } }`;
    for (const [databaseId, typename] of [
      [ids.onramp, 'OnrampTransfer'],
      [ids.offramp, 'OfframpTransfer'],
    ] as const) {
      for (const id of [databaseId, databaseId.toUpperCase(), globalIdOf(typename, databaseId)]) {
        expect((await api.graphql(TRANSFER, { id })).body).toEqual({ data: { transfer: { __typename: typename, databaseId } } });
      }
    }
    const crossed = [globalIdOf('OfframpTransfer', ids.onramp), globalIdOf('OnrampTransfer', ids.offramp), globalIdOf('Quote', ids.onramp)];
    for (const id of crossed) {
      expect((await api.graphql(TRANSFER, { id })).body, id).toEqual({ data: { transfer: null } });
      expect(await node(id), id).toEqual({ data: { node: null } });
    }
    expect((await api.graphql(`query ($id: ID!) { quote(id: $id) { id } }`, { id: globalIdOf('OnrampTransfer', ids.onrampQuote) })).body).toEqual({
      data: { quote: null },
    });
    // A mutation answers NotFoundError for an id of the wrong direction, and touches nothing.
    const cancel = await api.graphql(`mutation ($id: ID!) { cancelTransfer(input: { transferId: $id }) { __typename } }`, {
      id: globalIdOf('OfframpTransfer', ids.onramp),
    });
    expect(cancel.body.data.cancelTransfer.__typename).toBe('NotFoundError');
    const complete = await api.graphql(
      `mutation ($id: ID!) { completeOfframpTransfer(input: { transferId: $id, depositTransactionHash: "0x00" }) { __typename } }`,
      { id: globalIdOf('OnrampTransfer', ids.onramp) },
    );
    expect(complete.body.data.completeOfframpTransfer.__typename).toBe('NotFoundError');
    expect((await api.get(`/v0/customers/${customerId}/onramp-transfer/${ids.onramp}`)).body.status).toBe('pending');
  });

  it("reads another partner's or another environment's quotes and transfers as null", async () => {
    const ids = await restTransfers();
    const read = await api.graphql(`query ($a: ID!, $b: ID!, $q: ID!) { a: transfer(id: $a) { id } b: transfer(id: $b) { id } q: quote(id: $q) { id } }`, {
      a: ids.onramp,
      b: ids.offramp,
      q: ids.onrampQuote,
    });
    const globalIds = [read.body.data.a.id, read.body.data.b.id, read.body.data.q.id];
    const other = t.client(await t.keyFor('Other Partner'));
    const production = t.client(await t.keyFor('Demo Partner', 'production'));
    for (const client of [other, production]) {
      for (const id of globalIds) expect(await node(id, client)).toEqual({ data: { node: null } });
      expect((await client.graphql(`query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: globalIds })).body).toEqual({
        data: { nodes: [null, null, null] },
      });
      for (const id of [globalIds[0], ids.onramp, globalIds[1], ids.offramp]) {
        expect((await client.graphql(`query ($id: ID!) { transfer(id: $id) { id } }`, { id })).body).toEqual({ data: { transfer: null } });
      }
      for (const id of [globalIds[2], ids.onrampQuote]) {
        expect((await client.graphql(`query ($id: ID!) { quote(id: $id) { id } }`, { id })).body).toEqual({ data: { quote: null } });
      }
    }
  });
});

describe('mutations without redundant parent ids', () => {
  it('creates an on-ramp transfer from the quote alone, replaying it for the same idempotencyKey', async () => {
    const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    const CREATE = `mutation ($input: CreateOnrampTransferInput!) { createOnrampTransfer(input: $input) {
      __typename ... on CreateOnrampTransferPayload { transfer { databaseId status customer { databaseId } } } ... on Error { code } } }`;
    const input = { quoteId: globalIdOf('Quote', quote.body.quote_id), destinationAddress: wallet(), idempotencyKey: randomUUID() };
    const first = (await api.graphql(CREATE, { input })).body.data.createOnrampTransfer;
    expect(first).toMatchObject({ __typename: 'CreateOnrampTransferPayload', transfer: { status: 'PENDING', customer: { databaseId: customerId } } });
    expect((await api.graphql(CREATE, { input })).body.data.createOnrampTransfer).toEqual(first);
    const reused = (await api.graphql(CREATE, { input: { ...input, destinationAddress: wallet('polygon', 'elsewhere') } })).body.data.createOnrampTransfer;
    expect(reused).toEqual({ __typename: 'UnprocessableError', code: 'IDEMPOTENCY_KEY_REUSED' });
    const transfers = await t.sql<{ id: string }>('select id from transfers where quote_id = ?', [quote.body.quote_id]);
    expect(transfers.map((row) => row.id)).toEqual([first.transfer.databaseId]);
  });

  it("does not create a transfer from another partner's quote", async () => {
    const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    const other = t.client(await t.keyFor('Other Partner'));
    const res = await other.graphql(
      `mutation ($q: ID!, $a: String!) { createOnrampTransfer(input: { quoteId: $q, destinationAddress: $a }) { __typename ... on Error { code } } }`,
      { q: quote.body.quote_id, a: wallet() },
    );
    expect(res.body.data.createOnrampTransfer).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    expect(await t.sql('select id from transfers where quote_id = ?', [quote.body.quote_id])).toEqual([]);
  });
});

describe('mutation results', () => {
  /** Each mutation's `<VerbNoun>Result` union: its payload and only the errors it can return. */
  const RESULTS: Record<string, string[]> = {
    createOnrampQuote: ['CreateOnrampQuotePayload', 'ValidationError', 'NotFoundError', 'ConflictError', 'UnprocessableError'],
    createOfframpQuote: ['CreateOfframpQuotePayload', 'ValidationError', 'NotFoundError', 'ConflictError', 'UnprocessableError', 'ForbiddenError'],
    createOnrampTransfer: ['CreateOnrampTransferPayload', 'ValidationError', 'NotFoundError', 'ConflictError', 'UnprocessableError', 'ForbiddenError'],
    createOfframpTransfer: ['CreateOfframpTransferPayload', 'ValidationError', 'NotFoundError', 'ConflictError', 'UnprocessableError', 'ForbiddenError'],
    completeOfframpTransfer: ['CompleteOfframpTransferPayload', 'ValidationError', 'NotFoundError', 'ConflictError', 'UnprocessableError'],
    cancelTransfer: ['CancelTransferPayload', 'NotFoundError', 'ConflictError'],
    simulateFiatDeposit: ['SimulateFiatDepositPayload', 'ValidationError', 'NotFoundError', 'ForbiddenError', 'ConflictError', 'UnprocessableError'],
    simulateVirtualAccountDeposit: ['SimulateVirtualAccountDepositPayload', 'ValidationError', 'NotFoundError', 'ForbiddenError', 'UnprocessableError'],
    simulateTransferSettlement: ['SimulateTransferSettlementPayload', 'NotFoundError', 'ForbiddenError', 'ConflictError'],
    simulateTransferFailure: ['SimulateTransferFailurePayload', 'ValidationError', 'NotFoundError', 'ForbiddenError', 'ConflictError'],
    simulateTransferRefund: ['SimulateTransferRefundPayload', 'NotFoundError', 'ForbiddenError', 'ConflictError', 'UnprocessableError'],
  };
  const FIELD = { Quote: 'quote', Transfer: 'transfer' } as const;

  it.each(Object.entries(RESULTS))('%s takes one required input and returns its payload or only its errors', async (mutation, members) => {
    const verbNoun = mutation[0]!.toUpperCase() + mutation.slice(1);
    const res = await api.graphql(
      `query ($result: String!, $payload: String!) {
        __schema { mutationType { fields { name type { kind ofType { name } } args { name type { kind ofType { name } } } } } }
        result: __type(name: $result) { kind possibleTypes { name } }
        payload: __type(name: $payload) { fields { name type { kind name ofType { name } } } }
      }`,
      { result: `${verbNoun}Result`, payload: `${verbNoun}Payload` },
    );
    const field = res.body.data.__schema.mutationType.fields.find((f: { name: string }) => f.name === mutation);
    expect(field.type).toEqual({ kind: 'NON_NULL', ofType: { name: `${verbNoun}Result` } });
    expect(field.args).toEqual([{ name: 'input', type: { kind: 'NON_NULL', ofType: { name: `${verbNoun}Input` } } }]);
    expect(res.body.data.result.kind).toBe('UNION');
    expect(res.body.data.result.possibleTypes.map((m: { name: string }) => m.name).sort()).toEqual([...members].sort());
    const node = mutation.endsWith('Quote') ? 'Quote' : 'Transfer';
    expect(res.body.data.payload.fields).toEqual([{ name: FIELD[node], type: { kind: 'NON_NULL', name: null, ofType: { name: node } } }]);
  });

  it('takes idempotencyKey, optional, on every creating mutation, and no customerId where the quote or transfer names it', async () => {
    const fieldsOf = async (name: string) =>
      (await api.graphql(`query ($name: String!) { __type(name: $name) { inputFields { name type { kind name } } } }`, { name })).body.data.__type.inputFields;
    for (const input of [
      'CreateOnrampQuoteInput',
      'CreateOfframpQuoteInput',
      'CreateOnrampTransferInput',
      'CreateOfframpTransferInput',
      'CompleteOfframpTransferInput',
    ]) {
      expect(await fieldsOf(input), input).toContainEqual({ name: 'idempotencyKey', type: { kind: 'SCALAR', name: 'String' } });
    }
    for (const input of ['CreateOnrampTransferInput', 'CreateOfframpTransferInput', 'CompleteOfframpTransferInput']) {
      expect(
        (await fieldsOf(input)).map((f: { name: string }) => f.name),
        input,
      ).not.toContain('customerId');
    }
  });
});

describe('TransferConnection', () => {
  it('is the one connection type of Query.transfers and Customer.transfers', async () => {
    const res = await api.graphql(`{
      query: __type(name: "Query") { fields { name type { name } } }
      customer: __type(name: "Customer") { fields { name type { name } } }
    }`);
    // Nullable (a refused page nulls the connection alone): the field's type is the connection itself.
    const typeOf = (fields: { name: string; type: { name: string | null } }[]) => fields.find((f) => f.name === 'transfers')?.type.name;
    expect([typeOf(res.body.data.query.fields), typeOf(res.body.data.customer.fields)]).toEqual(['TransferConnection', 'TransferConnection']);
  });

  it('counts every transfer the filters match, across pages, whatever the page size', async () => {
    const customer = await createCustomer(api);
    const ids = [await restTransfers(customer), await restTransfers(customer)];
    await api.post(`/v0/customers/${customer}/onramp-transfer/simulate`, { action: 'fiat_deposit', transfer_id: ids[0]!.onramp });
    const customerGlobalId = (await api.graphql(`query ($id: ID!) { customer(id: $id) { id } }`, { id: customer })).body.data.customer.id;
    const QUERY = `query ($c: ID, $d: TransferDirection, $s: TransferStatus, $first: Int) {
      transfers(customerId: $c, direction: $d, status: $s, first: $first) { totalCount edges { node { databaseId } } pageInfo { hasNextPage } } }`;
    const page = async (variables: Record<string, unknown>) => (await api.graphql(QUERY, { c: customerGlobalId, ...variables })).body.data.transfers;
    expect(await page({})).toMatchObject({ totalCount: 4, pageInfo: { hasNextPage: false } });
    const one = await page({ first: 1 });
    expect(one).toMatchObject({ totalCount: 4, pageInfo: { hasNextPage: true } });
    expect(one.edges).toHaveLength(1);
    expect((await page({ first: 0 })).totalCount).toBe(4);
    expect((await page({ d: 'OFFRAMP' })).totalCount).toBe(2);
    expect(await page({ d: 'ONRAMP', s: 'PROCESSING' })).toEqual({
      totalCount: 1,
      edges: [{ node: { databaseId: ids[0]!.onramp } }],
      pageInfo: { hasNextPage: false },
    });
    expect((await page({ s: 'PENDING' })).totalCount).toBe(3);
    expect((await page({ c: 'not-a-customer-id' })).totalCount).toBe(0);
    const viaCustomer = await api.graphql(
      `query ($id: ID!) { customer(id: $id) { transfers(direction: ONRAMP, first: 1) { totalCount edges { node { databaseId } } } } }`,
      {
        id: customerGlobalId,
      },
    );
    expect(viaCustomer.body.data.customer.transfers).toEqual({ totalCount: 2, edges: [{ node: { databaseId: ids[0]!.onramp } }] });
    const foreign = t.client(await t.keyFor('Other Partner'));
    expect((await foreign.graphql(QUERY, { c: customer })).body.data.transfers.totalCount).toBe(0);
  });
});
