import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyScope } from '../../src/domain/scopes.js';
import { issueApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { apiClient, type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

/** A GraphQL request from 127.0.0.1 (the address the locked keys below allow), as the test's keys make it. */
function graphqlFrom(url: string, key: string, query: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const req = request(`${url}/graphql`, { method: 'POST', localAddress: '127.0.0.1', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ query }));
  });
}

const CREATE = (input: string) => `mutation { createApiKey(input: { ${input} }) {
  __typename ... on CreateApiKeyPayload { apiKey { scopes allowedIps } } ... on ForbiddenError { code message } } }`;

/** A key makes only keys within itself: its own scopes at most, and, when locked to addresses, an allowlist inside its own. */
describe('a key creating keys', () => {
  let t: TestRamp;
  let keyWith: (scopes: KeyScope[] | undefined, allowedIps?: string[]) => Promise<string>;
  let admin: ApiClient;
  beforeAll(async () => {
    t = await startRamp();
    const { partner } = await ensurePartner(t.ramp.db.fork(), 'Escalation Partner');
    keyWith = (scopes, allowedIps) => issueApiKey(t.ramp.db.fork(), partner, 'sandbox', { ...(scopes && { scopes }), ...(allowedIps && { allowedIps }) });
    admin = apiClient(t.url, await keyWith(['admin']));
  });
  afterAll(() => t?.close());
  const keyCount = async () => Number((await t.sql<{ n: string }>('select count(*) as n from api_keys'))[0]!.n);

  it('refuses a scope the creating key lacks, every scope included, with scope_escalation naming it, and creates nothing', async () => {
    const key = await keyWith(['admin', 'read']);
    const before = await keyCount();
    const client = apiClient(t.url, key);
    const wider = (await client.graphql(CREATE('scopes: [READ, WRITE]'))).body.data.createApiKey;
    expect(wider).toMatchObject({ __typename: 'ForbiddenError', code: 'SCOPE_ESCALATION' });
    expect(wider.message).toContain('`write`');
    const every = (await client.graphql(CREATE(''))).body.data.createApiKey;
    expect(every).toMatchObject({ __typename: 'ForbiddenError', code: 'SCOPE_ESCALATION' });
    expect(await keyCount()).toBe(before);

    const within = (await client.graphql(CREATE('scopes: [READ]'))).body.data.createApiKey;
    expect(within).toEqual({ __typename: 'CreateApiKeyPayload', apiKey: { scopes: ['READ'], allowedIps: [] } });
  });

  it('a key locked to addresses makes only keys locked inside them: no allowlist or a wider one is refused, a narrower one made', async () => {
    const key = await keyWith(undefined, ['127.0.0.0/24', '2001:db8::/32']);
    const before = await keyCount();
    const anywhere = (await graphqlFrom(t.url, key, CREATE('scopes: [READ]'))).data.createApiKey;
    expect(anywhere).toMatchObject({ __typename: 'ForbiddenError', code: 'SCOPE_ESCALATION' });
    expect(anywhere.message).toContain('anywhere');
    const wider = (await graphqlFrom(t.url, key, CREATE('allowedIps: ["127.0.0.0/8"]'))).data.createApiKey;
    expect(wider).toMatchObject({ __typename: 'ForbiddenError', code: 'SCOPE_ESCALATION' });
    expect(wider.message).toContain('127.0.0.0/8');
    expect(await keyCount()).toBe(before);

    const inside = (await graphqlFrom(t.url, key, CREATE('allowedIps: ["127.0.0.1", "2001:db8:1::/48"]'))).data.createApiKey;
    expect(inside).toMatchObject({ __typename: 'CreateApiKeyPayload', apiKey: { allowedIps: ['127.0.0.1', '2001:db8:1::/48'] } });
  });

  it('records the refusal in the audit log under api_key.create', async () => {
    const key = await keyWith(['admin']);
    await apiClient(t.url, key).graphql(CREATE('scopes: [ADMIN, WRITE]'));
    const log = await admin.get('/v0/audit-events?action=api_key.create');
    expect(log.body.items).toContainEqual(
      expect.objectContaining({ outcome: 'refused', code: 'scope_escalation', actor: expect.objectContaining({ api_key_prefix: key.slice(0, 19) }) }),
    );
  });
});
