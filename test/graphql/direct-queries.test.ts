import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { auditRowsOfKey } from '../support/audit-rows.js';
import { createCustomer } from '../support/data/transfers.js';
import { type ApiClient, apiClient, startRamp, type TestRamp } from '../support/ramp.js';

/**
 * A plain query POSTed as JSON is answered without Yoga's Fetch-API layer (graphql/direct-queries.ts); the same
 * operation sent as a GET goes through Yoga whole. Both must give the same answer, byte for byte where nothing
 * differs by request: status, media type and body, for data, a field's error, a variable of the wrong type, a
 * refusal by scope (audited once, not once per path) and either JSON media type a client accepts.
 */
describe('a plain query answered directly', () => {
  let t: TestRamp;
  let admin: ApiClient;
  let full: string;
  let writeOnly: string;
  beforeAll(async () => {
    t = await startRamp();
    const em = t.ramp.db.fork();
    const { partner } = await ensurePartner(em, 'Direct Query Partner');
    admin = apiClient(t.url, await issueApiKey(em, partner, 'sandbox', { scopes: ['admin'] }, 'cli'));
    full = await issueApiKey(t.ramp.db.fork(), partner, 'sandbox', {}, 'cli');
    writeOnly = await issueApiKey(t.ramp.db.fork(), partner, 'sandbox', { scopes: ['write'] }, 'cli');
    await createCustomer(apiClient(t.url, full));
    await createCustomer(apiClient(t.url, full));
  });
  afterAll(() => t?.close());

  /** The operation as POST (direct) and as GET (Yoga's path), with the same key and Accept header. */
  async function both(key: string, query: string, variables?: Record<string, unknown>, accept = 'application/json') {
    const client = apiClient(t.url, key);
    const posted = await client.request('POST', '/graphql', { body: { query, variables }, headers: { accept } });
    const search = new URLSearchParams({ query, ...(variables && { variables: JSON.stringify(variables) }) });
    // A GET needs one of the CSRF-prevention headers (graphql/server.ts).
    const got = await client.request('GET', `/graphql?${search}`, { headers: { accept, 'apollo-require-preflight': 'true' } });
    return { posted, got };
  }
  const sameAnswer = ({ posted, got }: Awaited<ReturnType<typeof both>>) => {
    expect(posted.status).toBe(got.status);
    expect(posted.headers.get('content-type')).toBe(got.headers.get('content-type'));
    expect(posted.body).toEqual(got.body);
  };

  it('answers data, with cursors, as Yoga does', async () => {
    const answers = await both(full, 'query Page($first: Int) { customers(first: $first) { totalCount edges { cursor node { id email } } } }', {
      first: 2,
    });
    sameAnswer(answers);
    expect(answers.posted.status).toBe(200);
    expect(answers.posted.body.data.customers.edges).toHaveLength(2);
  });

  it('answers a field’s error with its path, locations and code, as Yoga does', async () => {
    const answers = await both(full, '{ partner { id }\n  transfers(first: 1, after: "bogus") { edges { cursor } } }');
    sameAnswer(answers);
    expect(answers.posted.body.errors[0]).toMatchObject({ path: ['transfers'], locations: [{ line: 2, column: 3 }] });
  });

  it('refuses a variable of the wrong type with a code, as Yoga does', async () => {
    const answers = await both(full, 'query Page($first: Int) { customers(first: $first) { totalCount } }', { first: 'two' });
    sameAnswer(answers);
    expect(answers.posted.body.errors[0].extensions.code).toEqual(expect.any(String));
  });

  it('answers the media type the client accepts, as Yoga does', async () => {
    const answers = await both(full, '{ partner { id } }', undefined, 'application/graphql-response+json');
    sameAnswer(answers);
    expect(answers.posted.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
  });

  it('refuses a read the key has no scope for with 403, as Yoga does, and audits each refusal once', async () => {
    const answers = await both(writeOnly, '{ customers(first: 1) { totalCount } }');
    sameAnswer(answers);
    expect(answers.posted.status).toBe(403);
    expect(answers.posted.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    const rows = await auditRowsOfKey(admin, writeOnly);
    expect(rows.map((row) => [row.outcome, row.code, row.request_id]).sort()).toEqual(
      [
        ['refused', 'insufficient_scope', answers.posted.headers.get('x-request-id')],
        ['refused', 'insufficient_scope', answers.got.headers.get('x-request-id')],
      ].sort(),
    );
  });
});
