import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyScope } from '../../src/domain/scopes.js';
import { issueApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { apiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { customerIdsWithEmail } from '../support/data/sealed.js';

/** A request whose socket is bound to `from` (loopback is all of 127.0.0.0/8), so Ramp sees it come from there. */
function sendFrom(from: string, url: string, path: string, key: string, body?: unknown) {
  const headers = { authorization: `Bearer ${key}`, 'user-agent': 'allowlist-probe/1', ...(body !== undefined && { 'content-type': 'application/json' }) };
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = request(`${url}${path}`, { method: body === undefined ? 'GET' : 'POST', localAddress: from, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
const getFrom = (from: string, url: string, path: string, key: string) => sendFrom(from, url, path, key);
const postFrom = (from: string, url: string, path: string, key: string, body: unknown) => sendFrom(from, url, path, key, body);

/**
 * What a security review asks of the keys and the log together: a key refused for its scope or its address is
 * refused before anything runs, and the refusal is in the partner's audit log with the key, the address and the client.
 */
describe('refusals of scoped and allowlisted keys, in the audit log', () => {
  let t: TestRamp;
  let admin: ReturnType<typeof apiClient>;
  let keyOf: (grant: { scopes?: KeyScope[]; allowedIps?: string[] }) => Promise<string>;
  beforeAll(async () => {
    t = await startRamp();
    const em = t.ramp.db.fork();
    const { partner } = await ensurePartner(em, 'Reviewed Partner');
    admin = apiClient(t.url, await issueApiKey(em, partner, 'sandbox', { scopes: ['admin'] }));
    keyOf = (grant) => issueApiKey(t.ramp.db.fork(), partner, 'sandbox', grant);
  });
  afterAll(() => t?.close());

  const logOf = async (query: string) => {
    const answer = await admin.get(`/v0/audit-events?${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.items as any[];
  };
  const prefixOf = (key: string) => key.slice(0, 'rk_sandbox_'.length + 8);

  it('a read-only key reads, cannot create, and its refused create is audited with its key, address and client', async () => {
    const key = await keyOf({ scopes: ['read'] });
    const client = apiClient(t.url, key);
    expect((await client.get('/v0/customers')).status).toBe(200);
    const refused = await client.post('/v0/customers', { email: 'audited-read-only@example.com', type: 'individual', first_name: 'Ada', last_name: 'L' });
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_scope']);
    expect(await customerIdsWithEmail(t, 'audited-read-only@example.com')).toEqual([]);

    const [row] = await logOf('action=customer.create');
    expect(row).toMatchObject({
      action: 'customer.create',
      outcome: 'refused',
      code: 'insufficient_scope',
      entity_id: null,
      actor: expect.objectContaining({ api_key_prefix: prefixOf(key), ip: '127.0.0.1' }),
      request_id: refused.headers.get('x-request-id'),
    });
    expect(row.actor.user_agent).toEqual(expect.any(String));
    // Its read changed nothing and is not in the log.
    expect((await logOf('')).filter((r) => r.actor.api_key_prefix === prefixOf(key))).toHaveLength(1);
  });

  it('a key allowed only from 127.0.0.1 is refused from 127.0.0.2, and the refusal is audited with the address it came from', async () => {
    const key = await keyOf({ allowedIps: ['127.0.0.1'] });
    expect((await getFrom('127.0.0.1', t.url, '/v0/customers', key)).status).toBe(200);
    const refused = await getFrom('127.0.0.2', t.url, '/v0/customers', key);
    expect([refused.status, refused.body.code]).toEqual([403, 'ip_not_allowed']);

    // Over GraphQL too, before anything runs.
    const graphql = await postFrom('127.0.0.2', t.url, '/graphql', key, { query: '{ customers(first: 1) { totalCount } }' });
    expect(graphql.status).toBe(403);
    expect(graphql.body.errors[0].extensions.code).toBe('IP_NOT_ALLOWED');

    const rows = (await logOf('')).filter((r) => r.actor.api_key_prefix === prefixOf(key));
    expect(rows).toEqual([
      expect.objectContaining({ action: 'graphql.request', outcome: 'refused', code: 'ip_not_allowed', actor: expect.objectContaining({ ip: '127.0.0.2' }) }),
      expect.objectContaining({
        action: 'read.listCustomers',
        outcome: 'refused',
        code: 'ip_not_allowed',
        actor: expect.objectContaining({ api_key_prefix: prefixOf(key), ip: '127.0.0.2', user_agent: 'allowlist-probe/1' }),
      }),
    ]);
  });
});
