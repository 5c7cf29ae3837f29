import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let customerId: string;

beforeAll(async () => {
  t = await startRamp();
  customerId = (await t.client(t.key).post('/v0/customers', { email: 'owner@example.com', type: 'corporate', company_name: 'Owner' })).body.customer_id;
});
afterAll(() => t.close());

describe('API keys', () => {
  it('answers 401 problem+json without a key and with a wrong key', async () => {
    for (const key of [null, 'rk_sandbox_AAAAAAAAbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'garbage']) {
      const res = await apiClient(t.url, key).get(`/v0/customers/${customerId}`);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 401, code: 'unauthenticated' });
    }
  });

  it('accepts the bare key as well as the Bearer form', async () => {
    const res = await apiClient(t.url, null).get(`/v0/customers/${customerId}`, { authorization: t.key });
    expect(res.status).toBe(200);
  });

  it('answers 401 in the Encryptus envelope on /v1', async () => {
    const res = await apiClient(t.url, null).get('/v1/partners/accountInfo');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, status: 401, code: 'EN-AUTH-001' });
  });

  it('answers 401 to GraphQL operations without a valid key, but serves introspection', async () => {
    const anonymous = apiClient(t.url, null);
    const res = await anonymous.graphql(`{ customer(id: "${customerId}") { id } }`);
    expect(res.status).toBe(401);
    expect(res.body.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');
    const mistyped = apiClient(t.url, 'rk_sandbox_AAAAAAAAbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb');
    const wrong = await mistyped.graphql(`{ customer(id: "${customerId}") { id } }`);
    expect(wrong.status).toBe(401);
    const schema = await anonymous.graphql('{ __schema { queryType { name } } }');
    expect(schema.body.data.__schema.queryType.name).toBe('Query');
    // The standard introspection query (fragments and all), as codegen and GraphiQL send it, with no key or a wrong one.
    for (const client of [anonymous, mistyped]) {
      const full = await client.graphql(getIntrospectionQuery());
      expect(full.status).toBe(200);
      expect(full.body.data.__schema.queryType.name).toBe('Query');
    }
  });

  it('stores keys only as hashes', async () => {
    const rows = await t.sql<{ prefix: string; secret_hash: string }>('select prefix, secret_hash from api_keys');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.secret_hash).not.toContain(t.key.slice(row.prefix.length));
      expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});

describe('tenant isolation', () => {
  it("answers 404 to another partner asking for this partner's customer, over REST and GraphQL", async () => {
    const other = t.client(await t.keyFor('Other Partner'));
    const rest = await other.get(`/v0/customers/${customerId}`);
    expect(rest.status).toBe(404);
    expect(rest.body.code).toBe('not_found');
    const put = await other.put(`/v0/customers/${customerId}`, { company_name: 'Hijacked' });
    expect(put.status).toBe(404);
    const gql = await other.graphql(`query($id: ID!) { customer(id: $id) { id } }`, { id: customerId });
    expect(gql.body.data.customer).toBeNull();
    const list = await other.graphql('{ customers { edges { node { id } } } }');
    expect(list.body.data.customers.edges).toEqual([]);
  });

  it('keeps sandbox data invisible to a production key of the same partner', async () => {
    const production = t.client(await t.keyFor('Demo Partner', 'production'));
    expect((await production.get(`/v0/customers/${customerId}`)).status).toBe(404);
    const list = await production.graphql('{ customers { edges { node { id } } } }');
    expect(list.body.data.customers.edges).toEqual([]);
    // The same email may exist once per environment.
    const created = await production.post('/v0/customers', { email: 'owner@example.com', type: 'corporate', company_name: 'Owner Live' });
    expect(created.status).toBe(201);
    expect(created.body.customer_id).not.toBe(customerId);
  });
});
