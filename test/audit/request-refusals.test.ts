import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_ALIASES } from '../../src/graphql/guards/limits.js';
import { issueApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { auditRowsOfKey } from '../support/audit-rows.js';
import { apiClient, startRamp, type TestRamp } from '../support/ramp.js';

/**
 * A request refused for its shape (a GraphQL document that is not a trusted one, a document over a limit, a REST read
 * whose parameters are refused) is a refusal of the key that sent it: one refused row, with the code, the key, the
 * address, the client and the request, over REST, GraphQL over HTTP and graphql-ws alike.
 */
describe('refusals of a request’s shape, in the audit log', () => {
  let t: TestRamp;
  let admin: ReturnType<typeof apiClient>;
  let newKey: () => Promise<string>;
  beforeAll(async () => {
    t = await startRamp();
    const em = t.ramp.db.fork();
    const { partner } = await ensurePartner(em, 'Request Shape Partner');
    admin = apiClient(t.url, await issueApiKey(em, partner, 'sandbox', { scopes: ['admin'] }, 'cli'));
    newKey = () => issueApiKey(t.ramp.db.fork(), partner, 'sandbox', {}, 'cli');
  });
  afterAll(() => t?.close());

  const rowsOf = (key: string) => auditRowsOfKey(admin, key);
  const post = (key: string, body: unknown) => apiClient(t.url, key).request('POST', '/graphql', { body, headers: { 'user-agent': 'shape-probe/1' } });
  const refusedRow = (action: string, code: string, requestId: unknown, userAgent: string) =>
    expect.objectContaining({
      action,
      outcome: 'refused',
      code,
      actor: { type: 'api_key', api_key_prefix: expect.any(String), ip: expect.stringMatching(/127\.0\.0\.1$/), user_agent: userAgent },
      request_id: requestId,
    });
  const unknownHash = 'a'.repeat(64);
  const aliases = Array.from({ length: MAX_ALIASES + 1 }, (_, i) => `a${i}: __typename`).join(' ');
  const aliased = `{ ${aliases} }`;

  it('GraphQL over HTTP: a document id that is not a trusted document is refused and audited', async () => {
    const key = await newKey();
    const refused = await post(key, { documentId: `sha256:${unknownHash}` });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
    expect(await rowsOf(key)).toEqual([refusedRow('graphql.request', 'persisted_query_not_in_list', refused.headers.get('x-request-id'), 'shape-probe/1')]);
  });

  it('GraphQL over HTTP: a document over the alias limit is refused and audited', async () => {
    const key = await newKey();
    const refused = await post(key, { query: aliased });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].extensions.code).toBe('QUERY_ALIASES');
    expect(await rowsOf(key)).toEqual([refusedRow('graphql.request', 'query_aliases', refused.headers.get('x-request-id'), 'shape-probe/1')]);
  });

  it('GraphQL over HTTP: a field refused while it runs is recorded once, as the field’s refusal, not also as the request’s', async () => {
    const key = await newKey();
    const ids = JSON.stringify(Array.from({ length: 101 }, (_, i) => `id-${i}`));
    const refused = await post(key, { query: `{ nodes(ids: ${ids}) { id } }` });
    // A non-null root field refused: the answer has no data, as a request refused before it ran has none.
    expect(refused.body).toMatchObject({ data: null, errors: [{ path: ['nodes'], extensions: { code: 'VALIDATION_FAILED' } }] });
    expect(await rowsOf(key)).toEqual([refusedRow('read.nodes', 'validation_failed', refused.headers.get('x-request-id'), 'shape-probe/1')]);
  });

  it('GraphQL over HTTP: the same refusal with no key or a wrong key is not recorded (no tenant to file it under)', async () => {
    const before = (await admin.get('/v0/audit-events?limit=100')).body.items.length;
    const refused = await apiClient(t.url, 'rk_sandbox_nottherightkey').request('POST', '/graphql', { body: { query: aliased } });
    expect(refused.body.errors[0].extensions.code).toBe('QUERY_ALIASES');
    expect((await admin.get('/v0/audit-events?limit=100')).body.items).toHaveLength(before);
  });

  it('REST: a read whose parameters are refused is audited as a refusal of that read', async () => {
    const key = await newKey();
    const refused = await apiClient(t.url, key).request('GET', '/v0/customers?limit=not-a-number', { headers: { 'user-agent': 'shape-probe/1' } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation_failed');
    expect(await rowsOf(key)).toEqual([refusedRow('read.listCustomers', 'validation_failed', refused.headers.get('x-request-id'), 'shape-probe/1')]);
  });

  describe('graphql-ws', () => {
    /** A graphql-ws client whose upgrade request names its client, as a browser's or an SDK's does. */
    const client = (key: string): Client => {
      class Named extends WebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols, { headers: { 'user-agent': 'ws-shape-probe/1' } });
        }
      }
      return createClient({
        url: `${t.url.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: Named,
        connectionParams: { authorization: `Bearer ${key}` },
        retryAttempts: 0,
      });
    };
    /** The errors a subscribe is answered with. */
    const refusalOf = (ws: Client, payload: { query: string; extensions?: Record<string, unknown> }) =>
      new Promise<unknown>((resolve) => {
        ws.subscribe(payload, { next: (result) => resolve(result.errors), error: resolve, complete: () => undefined });
      });

    it('a subscription naming a document that is not a trusted one is refused and audited', async () => {
      const key = await newKey();
      const ws = client(key);
      const errors = await refusalOf(ws, { query: '', extensions: { persistedQuery: { version: 1, sha256Hash: unknownHash } } });
      await ws.dispose();
      expect(JSON.stringify(errors)).toContain('PERSISTED_QUERY_NOT_IN_LIST');
      expect(await rowsOf(key)).toEqual([refusedRow('graphql.request', 'persisted_query_not_in_list', expect.any(String), 'ws-shape-probe/1')]);
    });

    it('a subscription over the alias limit is refused and audited', async () => {
      const key = await newKey();
      const ws = client(key);
      const errors = await refusalOf(ws, { query: `subscription { events { ${aliases} } }` });
      await ws.dispose();
      expect(JSON.stringify(errors)).toContain('QUERY_ALIASES');
      expect(await rowsOf(key)).toEqual([refusedRow('graphql.request', 'query_aliases', expect.any(String), 'ws-shape-probe/1')]);
    });
  });
});
