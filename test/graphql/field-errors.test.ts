import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { createCustomer } from '../support/data/transfers.js';

/**
 * A field's failure is that field's error: it names the field by `path` and `locations`,
 * and the fields beside it keep their data. Connections are nullable so that a refused page nulls
 * the connection alone, never its parent or the whole answer.
 */
let t: TestRamp;
let api: ApiClient;
let customerId: string;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
  customerId = await createCustomer(api);
  await createCustomer(api);
});
afterAll(() => t.close());

describe('a failing field', () => {
  it('keeps its siblings’ data when its cursor is bogus, and names itself by path and location', async () => {
    const res = await api.graphql(`{
  partner { id }
  transfers(first: 1, after: "bogus") { edges { cursor } }
}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ partner: { id: expect.any(String) }, transfers: null });
    expect(res.body.errors).toEqual([
      {
        message: expect.any(String),
        path: ['transfers'],
        locations: [{ line: 3, column: 3 }],
        extensions: { code: 'VALIDATION_FAILED', fieldErrors: [{ path: '/after', code: 'invalid_cursor', message: expect.any(String) }] },
      },
    ]);
  });

  it('refuses a page size out of range on a nested connection on that connection, and keeps its parent', async () => {
    const query = 'query ($id: ID!) { customer(id: $id) { databaseId email transfers(first: 500) { totalCount } } }';
    const res = await api.graphql(query, { id: customerId });
    expect(res.body.data).toEqual({ customer: { databaseId: customerId, email: expect.any(String), transfers: null } });
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        path: ['customer', 'transfers'],
        locations: [{ line: 1, column: query.indexOf('transfers(') + 1 }],
        extensions: { code: 'VALIDATION_FAILED', fieldErrors: [{ path: '/first', code: 'out_of_range', message: 'must be between 0 and 100' }] },
      }),
    ]);
  });

  it('names the list item whose nested page failed, and keeps the other items', async () => {
    const res = await api.graphql('{ customers(first: 2) { edges { node { databaseId transfers(last: -1) { totalCount } } } } }');
    const edges = res.body.data.customers.edges as { node: { databaseId: string; transfers: unknown } }[];
    expect(edges).toHaveLength(2);
    expect(edges.every((e) => e.node.databaseId && e.node.transfers === null)).toBe(true);
    expect(res.body.errors?.map((e: { path: unknown[] }) => e.path)).toEqual([
      ['customers', 'edges', 0, 'node', 'transfers'],
      ['customers', 'edges', 1, 'node', 'transfers'],
    ]);
  });

  it('keeps path and locations when it masks an unexpected failure, and hides the internals', async () => {
    const masked = await startRamp();
    try {
      const own = masked.client(masked.key);
      // A table gone from under the app: a failure no client can cause, so it must not be told.
      await masked.sql('alter table webhook_endpoints rename to webhook_endpoints_gone');
      const res = await own.graphql('{ partner { id }\n  webhookEndpoints(first: 1) { edges { cursor } } }');
      expect(res.body.data).toEqual({ partner: { id: expect.any(String) }, webhookEndpoints: null });
      expect(res.body.errors).toEqual([
        {
          message: 'Unexpected error.',
          path: ['webhookEndpoints'],
          locations: [{ line: 2, column: 3 }],
          extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: res.headers.get('x-request-id') },
        },
      ]);
      expect(JSON.stringify(res.body)).not.toMatch(/webhook_endpoints|relation|select/i);
    } finally {
      await masked.close();
    }
  });

  it('keeps request-level refusals request-level: no data, no path', async () => {
    const res = await api.graphql('{ partner { id } transfers(first: 1) { edges { nope } } }');
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0]).not.toHaveProperty('path');
    expect(res.body.errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
