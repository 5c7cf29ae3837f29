import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

describe('GraphQL hygiene', () => {
  it('refuses a GET query without a CSRF-safe header', async () => {
    const res = await api.get(`/graphql?query=${encodeURIComponent('{ __typename }')}`);
    expect(res.status).toBe(403);
    const allowed = await api.get(`/graphql?query=${encodeURIComponent('{ __typename }')}`, { 'x-graphql-yoga-csrf': '1' });
    expect(allowed.status).toBe(200);
  });

  it('refuses a query wider than the breadth limit before running it', async () => {
    const wide = `{ ${Array.from({ length: 250 }, (_, i) => `c${i}: customer(id: "${i}") { id }`).join(' ')} }`;
    const res = await api.graphql(wide);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors?.[0]?.message).toMatch(/breadth/i);
  });

  it('refuses a query whose cost exceeds the complexity limit', async () => {
    const costly = `{ ${Array.from({ length: 20 }, (_, i) => `c${i}: customers(first: 100) { edges { node { kycs { statusBreakdown { status currency paymentRails } } } } }`).join(' ')} }`;
    const res = await api.graphql(costly);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors?.[0]?.message).toMatch(/complexity/i);
  });

  it('checks the cost of one document with each request’s own page sizes and ids (the check is kept per document and those values)', async () => {
    const costly = `query ($n: Int, $deep: Boolean!, $id: ID!) { customer(id: $id) { id } ${Array.from({ length: 20 }, (_, i) => `c${i}: customers(first: $n) { edges { node { kycs @include(if: $deep) { statusBreakdown { status currency paymentRails } } } } }`).join(' ')} }`;
    const run = (n: number, deep: boolean, id: string) => api.graphql(costly, { n, deep, id });
    const complexity = (res: Awaited<ReturnType<typeof run>>) => res.body.errors?.some((e: { message: string }) => /complexity/i.test(e.message)) ?? false;
    expect(complexity(await run(1, true, 'a'))).toBe(false);
    expect(complexity(await run(1, true, 'b'))).toBe(false); // another id: the same cost
    expect(complexity(await run(100, true, 'a'))).toBe(true);
    expect(complexity(await run(100, true, 'c'))).toBe(true);
    const ids = (count: number) => Array.from({ length: count }, (_, i) => `id${i}`);
    const nodes = 'query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on Customer { transfers(first: 100) { edges { cursor } } } } }';
    expect(complexity(await api.graphql(nodes, { ids: ids(1) }))).toBe(false);
    expect(complexity(await api.graphql(nodes, { ids: ids(100) }))).toBe(true);
    // Refused text in a variable is checked on every request, whatever was kept for the document.
    const text = await api.graphql('query ($id: ID!) { customer(id: $id) { id } }', { id: 'x\u0000' });
    expect(text.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('names the failing argument of a query in extensions.fieldErrors', async () => {
    const res = await api.graphql('{ customers(after: "not-a-cursor") { edges { cursor } } }');
    expect(res.body.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: [expect.objectContaining({ path: '/after', code: 'invalid_cursor' })],
    });
  });

  it('refuses forged cursors and negative page sizes as validation errors, never as internal errors', async () => {
    const forged = [
      Buffer.from('2020-01-01T00:00:00Z|abc').toString('base64url'),
      Buffer.from(`-271821-04-20T00:00:00Z|${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`).toString('base64url'),
    ];
    for (const after of forged) {
      const res = await api.graphql('query($after: String) { customers(after: $after) { edges { cursor } } }', { after });
      expect(res.body.errors?.[0]?.extensions?.code, after).toBe('VALIDATION_FAILED');
    }
    const negative = await api.graphql('{ customers(first: -5) { edges { cursor } } }');
    expect(negative.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect(negative.body.errors?.[0]?.extensions?.fieldErrors?.[0]).toMatchObject({ path: '/first', message: expect.stringMatching(/between 0 and 100/) });
  });

  it('refuses a DateTime PostgreSQL cannot hold as a bad argument, not an internal error', async () => {
    const res = await api.graphql('{ transfers(createdAfter: "-271821-04-20T00:00:00Z") { edges { cursor } } }');
    expect(res.body.errors?.[0]?.message).toMatch(/DateTime must be an ISO 8601 string/);
    expect(res.body.errors?.[0]?.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
  });

  it("answers GraphiQL's full introspection query within the limits", async () => {
    const res = await api.graphql(getIntrospectionQuery());
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });

  it('serves GraphiQL outside production', async () => {
    const res = await api.get('/graphql', { accept: 'text/html' });
    expect(res.status).toBe(200);
    expect(String(res.body)).toContain('GraphiQL');
  });
});
