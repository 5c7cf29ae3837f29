import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { KeyScope } from '../../src/domain/scopes.js';
import { issueApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { auditRowsOfKey, prefixOf } from '../support/audit-rows.js';
import { apiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { subscribe, wsClient } from '../support/clients/subscriptions.js';

/**
 * A refusal of a key is in its partner's audit log whichever face refused it: GraphQL over HTTP before execution
 * (a mutation or a read outside the key's scopes) and during it (an object the key may not see), and graphql-ws at
 * connection_init (an address the key's allowlist leaves out) and at subscribe (a scope the key lacks), each with
 * the same fields as a refused REST call: the action, the code, the key, the address, the client and the request.
 */
describe('refusals over GraphQL and graphql-ws, in the audit log', () => {
  let t: TestRamp;
  let admin: ReturnType<typeof apiClient>;
  let adminKeyId: string;
  let keyOf: (grant: { scopes?: KeyScope[]; allowedIps?: string[] }) => Promise<string>;
  beforeAll(async () => {
    t = await startRamp();
    const em = t.ramp.db.fork();
    const { partner } = await ensurePartner(em, 'GraphQL Reviewed Partner');
    const adminKey = await issueApiKey(em, partner, 'sandbox', { scopes: ['admin'] });
    admin = apiClient(t.url, adminKey);
    [{ id: adminKeyId }] = (await t.sql<{ id: string }>('select id from api_keys where prefix = ?', [prefixOf(adminKey)])) as [{ id: string }];
    keyOf = (grant) => issueApiKey(t.ramp.db.fork(), partner, 'sandbox', grant);
  });
  afterAll(() => t?.close());

  const rowsOf = (key: string) => auditRowsOfKey(admin, key);
  const post = (key: string, query: string) =>
    apiClient(t.url, key).request('POST', '/graphql', { body: { query }, headers: { 'user-agent': 'graphql-probe/1' } });

  it('a mutation refused for its scope before it runs is audited under its action, with the key, address, client and request', async () => {
    const key = await keyOf({ scopes: ['read'] });
    const refused = await post(
      key,
      'mutation { createCustomer(input: { email: "gql-refused@example.com", type: INDIVIDUAL, firstName: "A", lastName: "B" }) { __typename } }',
    );
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(await rowsOf(key)).toEqual([
      expect.objectContaining({
        action: 'customer.create',
        outcome: 'refused',
        code: 'insufficient_scope',
        actor: { type: 'api_key', api_key_prefix: prefixOf(key), ip: expect.stringMatching(/127\.0\.0\.1$/), user_agent: 'graphql-probe/1' },
        request_id: refused.headers.get('x-request-id'),
      }),
    ]);
  });

  it('a read refused for its scope before it runs (apiKeys with a read-only key) is audited as read.apiKeys', async () => {
    const key = await keyOf({ scopes: ['read'] });
    const refused = await post(key, '{ apiKeys(first: 1) { totalCount } }');
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(await rowsOf(key)).toEqual([
      expect.objectContaining({
        action: 'read.apiKeys',
        outcome: 'refused',
        code: 'insufficient_scope',
        actor: expect.objectContaining({ ip: expect.stringMatching(/127\.0\.0\.1$/), user_agent: 'graphql-probe/1' }),
        request_id: refused.headers.get('x-request-id'),
      }),
    ]);
  });

  it('a refusal during execution (node(id:) naming an API key, with a read-only key) is audited as read.node', async () => {
    const key = await keyOf({ scopes: ['read'] });
    const refused = await post(key, `{ node(id: "${Buffer.from(`ApiKey:${adminKeyId}`).toString('base64')}") { id } }`);
    expect(refused.body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(await rowsOf(key)).toEqual([
      expect.objectContaining({
        action: 'read.node',
        outcome: 'refused',
        code: 'insufficient_scope',
        actor: expect.objectContaining({ ip: expect.stringMatching(/127\.0\.0\.1$/), user_agent: 'graphql-probe/1' }),
        request_id: refused.headers.get('x-request-id'),
      }),
    ]);
  });

  it('graphql-ws: a key connecting from an address its allowlist leaves out is closed 4403 and audited as graphql.connection', async () => {
    const key = await keyOf({ allowedIps: ['127.0.0.1'] });
    /** A WebSocket whose socket is bound to 127.0.0.2 (loopback is all of 127.0.0.0/8), with a user agent of its own. */
    class FromElsewhere extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { localAddress: '127.0.0.2', headers: { 'user-agent': 'ws-probe/1' } });
      }
    }
    const client = createClient({
      url: `${t.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: FromElsewhere,
      connectionParams: { authorization: `Bearer ${key}` },
      retryAttempts: 0,
      lazy: false,
    });
    const closed = await new Promise<number>((resolve) => client.on('closed', (event) => resolve((event as { code: number }).code)));
    expect(closed).toBe(4403);
    await client.dispose();
    expect(await rowsOf(key)).toEqual([
      expect.objectContaining({
        action: 'graphql.connection',
        outcome: 'refused',
        code: 'ip_not_allowed',
        actor: { type: 'api_key', api_key_prefix: prefixOf(key), ip: '127.0.0.2', user_agent: 'ws-probe/1' },
        request_id: expect.any(String),
      }),
    ]);
  });

  it('graphql-ws: a subscription refused for its scope is audited under the field it asked for', async () => {
    const key = await keyOf({ scopes: ['write'] });
    const client = wsClient(t.url, key);
    const refused = subscribe(client, 'subscription { events { type } }', {}, 'events');
    await expect.poll(() => refused.errors.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(JSON.stringify(refused.errors)).toContain('INSUFFICIENT_SCOPE');
    await client.dispose();
    expect(await rowsOf(key)).toEqual([
      expect.objectContaining({
        action: 'read.events',
        outcome: 'refused',
        code: 'insufficient_scope',
        actor: expect.objectContaining({ api_key_prefix: prefixOf(key), ip: expect.stringMatching(/127\.0\.0\.1$/) }),
        request_id: expect.any(String),
      }),
    ]);
  });
});
