import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../support/data/transfers.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t?.close());

const NODE = `query ($id: ID!) { node(id: $id) { __typename id ... on Customer { databaseId email } } }`;

describe('Relay identity', () => {
  it('a customer has an opaque global id that node(id:) refetches, and its REST id as databaseId', async () => {
    const databaseId = await createCustomer(api);
    const found = await api.graphql(`query ($id: ID!) { customer(id: $id) { id databaseId } }`, { id: databaseId });
    const { id } = found.body.data.customer;
    expect(found.body.data.customer.databaseId).toBe(databaseId);
    expect(id).not.toContain(databaseId);
    const node = await api.graphql(NODE, { id });
    expect(node.body).toEqual({ data: { node: expect.objectContaining({ __typename: 'Customer', id, databaseId }) } });
    const byGlobalId = await api.graphql(`query ($id: ID!) { customer(id: $id) { databaseId } }`, { id });
    expect(byGlobalId.body.data.customer.databaseId).toBe(databaseId);
  });

  it("another partner's, another environment's, a malformed or another type's id reads as null", async () => {
    const databaseId = await createCustomer(api);
    const { id } = (await api.graphql(`query ($id: ID!) { customer(id: $id) { id } }`, { id: databaseId })).body.data.customer;
    const other = t.client(await t.keyFor('Other Partner'));
    const production = t.client(await t.keyFor('Demo Partner', 'production'));
    for (const client of [other, production]) {
      expect((await client.graphql(NODE, { id })).body).toEqual({ data: { node: null } });
      expect((await client.graphql(`query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [id] })).body).toEqual({ data: { nodes: [null] } });
      expect((await client.graphql(`query ($id: ID!) { customer(id: $id) { id } }`, { id })).body).toEqual({ data: { customer: null } });
    }
    for (const bad of ['nonsense', Buffer.from(`Quote:${databaseId}`).toString('base64'), Buffer.from('Customer:not-a-uuid').toString('base64')]) {
      expect((await api.graphql(`query ($id: ID!) { customer(id: $id) { id } }`, { id: bad })).body).toEqual({ data: { customer: null } });
    }
  });

  it('nodes(ids:) answers in the order asked, null where unknown', async () => {
    const [a, b] = [await createCustomer(api), await createCustomer(api)];
    const ids = await Promise.all(
      [a, b].map(async (c) => (await api.graphql(`query ($id: ID!) { customer(id: $id) { id } }`, { id: c })).body.data.customer.id),
    );
    const res = await api.graphql(`query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Customer { databaseId } } }`, { ids: [ids[1], 'nonsense', ids[0]] });
    expect(res.body).toEqual({ data: { nodes: [{ databaseId: b }, null, { databaseId: a }] } });
  });
});

describe('Connections', () => {
  it('an empty page has null cursors and says whether anything follows; first:0 is an empty page', async () => {
    const empty = await api.graphql(
      `{ customers(email: "nobody@example.com") { totalCount edges { cursor } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } } }`,
    );
    expect(empty.body.data.customers).toEqual({
      totalCount: 0,
      edges: [],
      pageInfo: { startCursor: null, endCursor: null, hasNextPage: false, hasPreviousPage: false },
    });
    await createCustomer(api);
    const zero = await api.graphql(`{ customers(first: 0) { edges { cursor } pageInfo { startCursor endCursor hasNextPage } } }`);
    expect(zero.body.data.customers).toEqual({ edges: [], pageInfo: { startCursor: null, endCursor: null, hasNextPage: true } });
  });

  it('totalCount counts every match across pages; first and last together take the last of the first', async () => {
    const all = await api.graphql(`{ customers(first: 100) { totalCount edges { node { databaseId } } } }`);
    const { totalCount, edges } = all.body.data.customers;
    expect(totalCount).toBe(edges.length);
    expect(totalCount).toBeGreaterThanOrEqual(3);
    const page = await api.graphql(`{ customers(first: 3, last: 2) { totalCount edges { node { databaseId } } pageInfo { hasPreviousPage hasNextPage } } }`);
    expect(page.body.data.customers.totalCount).toBe(totalCount);
    expect(page.body.data.customers.edges.map((e: { node: { databaseId: string } }) => e.node.databaseId)).toEqual(
      edges.slice(1, 3).map((e: { node: { databaseId: string } }) => e.node.databaseId),
    );
    expect(page.body.data.customers.pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: totalCount > 3 });
  });
});

describe('request errors', () => {
  it('names an unknown field once, where graphql-js finds it', async () => {
    const res = await api.graphql('{ customers { nope } }');
    expect(res.body.errors).toEqual([expect.objectContaining({ message: 'Cannot query field "nope" on type "CustomerConnection".' })]);
  });

  it('answers a refused argument of a query with the ErrorCode spelling and FieldError fields', async () => {
    const res = await api.graphql('{ customers(first: 500) { totalCount } }');
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        extensions: { code: 'VALIDATION_FAILED', fieldErrors: [{ path: '/first', code: 'out_of_range', message: 'must be between 0 and 100' }] },
      }),
    ]);
  });
});
