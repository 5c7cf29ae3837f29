import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyScope } from '../../src/domain/scopes.js';
import { issueApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { apiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { subscribe, wsClient } from '../support/clients/subscriptions.js';
import { customerIdsWithEmail } from '../support/data/sealed.js';

let t: TestRamp;
beforeAll(async () => {
  t = await startRamp();
});
afterAll(() => t?.close());

let partners = 0;
/** A key of a partner of its own with these scopes. */
async function keyWith(scopes: KeyScope[]): Promise<string> {
  const em = t.ramp.db.fork();
  const { partner } = await ensurePartner(em, `Scoped Partner ${++partners}`);
  return issueApiKey(em, partner, 'sandbox', { scopes });
}
/** A key of the same partner as `fullKey` (every scope), so what one creates the other can see. */
async function sibling(scopes: KeyScope[]): Promise<{ full: string; scoped: string }> {
  const em = t.ramp.db.fork();
  const { partner } = await ensurePartner(em, `Scoped Partner ${++partners}`);
  return { full: await issueApiKey(em, partner, 'sandbox'), scoped: await issueApiKey(em, partner, 'sandbox', { scopes }) };
}

const customersNamed = async (email: string) => (await customerIdsWithEmail(t, email)).length;
const CREATE_CUSTOMER = `mutation($email: String!) {
  createCustomer(input: { email: $email, type: INDIVIDUAL, firstName: "Ada", lastName: "Lovelace" }) {
    __typename ... on CreateCustomerPayload { customer { id } }
  }
}`;

describe('a read-only key', () => {
  it('reads over REST but cannot create: 403 insufficient_scope naming write, and nothing is created', async () => {
    const client = apiClient(t.url, await keyWith(['read']));
    expect((await client.get('/v0/customers')).status).toBe(200);
    const refused = await client.post('/v0/customers', { email: 'read-only@example.com', type: 'individual', first_name: 'Ada', last_name: 'Lovelace' });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body).toMatchObject({ code: 'insufficient_scope', status: 403 });
    expect(refused.body.detail).toContain('`write`');
    expect(await customersNamed('read-only@example.com')).toBe(0);
  });

  it('answers the Encryptus envelope on /v1 with the same code', async () => {
    const refused = await apiClient(t.url, await keyWith(['read'])).post('/v1/partners/forensics/whitelist/walletAddress', {
      address: '0x1111111111111111111111111111111111111111',
      coin: 'usdc',
      network: 'polygon',
      label: 'treasury',
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false });
  });

  it('queries over GraphQL, and a mutation is refused before it runs with the code', async () => {
    const client = apiClient(t.url, await keyWith(['read']));
    const read = await client.graphql('{ customers(first: 1) { totalCount } }');
    expect(read.body.errors).toBeUndefined();
    const refused = await client.graphql(CREATE_CUSTOMER, { email: 'read-only-graphql@example.com' });
    expect(refused.status).toBe(403);
    expect(refused.body.data ?? null).toBeNull();
    expect(refused.body.errors).toHaveLength(1);
    expect(refused.body.errors![0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(refused.body.errors![0].message).toContain('`write`');
    expect(await customersNamed('read-only-graphql@example.com')).toBe(0);
  });
});

describe('a write-only key', () => {
  it('creates but cannot read: GET and HEAD are 403 insufficient_scope naming read', async () => {
    const client = apiClient(t.url, await keyWith(['write']));
    const created = await client.post('/v0/customers', { email: 'write-only@example.com', type: 'individual', first_name: 'A', last_name: 'B' });
    expect(created.status).toBe(201);
    const read = await client.get(`/v0/customers/${created.body.customer_id}`);
    expect(read.status).toBe(403);
    expect(read.body.detail).toContain('`read`');
    expect((await client.request('HEAD', '/v0/customers')).status).toBe(403);
  });
});

describe('an operation with one field outside the key', () => {
  it('does nothing at all: a mutation selecting an allowed and a forbidden field creates nothing', async () => {
    const client = apiClient(t.url, await keyWith(['read', 'write']));
    const mixed = `mutation {
      createCustomer(input: { email: "mixed@example.com", type: INDIVIDUAL, firstName: "Ada", lastName: "Lovelace" }) { __typename }
      registerWebhook(input: { url: "https://example.com/hook" }) { __typename }
    }`;
    const refused = await client.graphql(mixed);
    expect(refused.status).toBe(403);
    expect(refused.body.errors![0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(refused.body.errors![0].message).toContain('`webhooks`');
    expect(await customersNamed('mixed@example.com')).toBe(0);
    expect(await t.sql('select id from webhook_endpoints where url = ?', ['https://example.com/hook'])).toEqual([]);
  });

  it('finds the forbidden field behind a fragment, and a read-only key may still run the query of a document that also holds a mutation', async () => {
    const client = apiClient(t.url, await keyWith(['read']));
    const document = `query Read { customers(first: 1) { totalCount } }
      mutation Write { ...create }
      fragment create on Mutation { createCustomer(input: { email: "fragment@example.com", type: INDIVIDUAL, firstName: "A", lastName: "B" }) { __typename } }`;
    const post = (operationName: string) => client.request('POST', '/graphql', { body: { query: document, operationName } });
    expect((await post('Write')).body.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(await customersNamed('fragment@example.com')).toBe(0);
    const read = await post('Read');
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.customers.totalCount).toBe(0);
  });
});

describe('subscriptions over graphql-ws', () => {
  it('need read: a key without it is refused, a key with it receives events', async () => {
    const { full, scoped: writeOnly } = await sibling(['write']);
    const refusedClient = wsClient(t.url, writeOnly);
    const refused = subscribe(refusedClient, 'subscription { events { type } }', {}, 'events');
    await expect.poll(() => refused.errors.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(JSON.stringify(refused.errors)).toContain('INSUFFICIENT_SCOPE');
    expect(refused.items).toEqual([]);
    await refusedClient.dispose();

    const ownReader = wsClient(t.url, (await keyWithSameAs(full, ['read'])).scoped);
    const own = subscribe(ownReader, 'subscription { events { type } }', {}, 'events');
    // Subscribed before the write: poll until the event arrives.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await apiClient(t.url, full).post('/v0/customers', { email: 'subscribed@example.com', type: 'individual', first_name: 'A', last_name: 'B' });
    await expect.poll(() => own.items.map((e) => e.type), { timeout: 5000 }).toContain('CUSTOMER_CREATED');
    expect(own.errors).toEqual([]);
    await ownReader.dispose();
  });
});

/** A second key, with these scopes, of the partner `key` belongs to. */
async function keyWithSameAs(key: string, scopes: KeyScope[]): Promise<{ scoped: string }> {
  const prefix = key.slice(0, key.lastIndexOf('_') + 9);
  const [row] = await t.sql<{ partner_id: string }>('select partner_id from api_keys where prefix = ?', [prefix]);
  const em = t.ramp.db.fork();
  const { Partner } = await import('../../src/modules/partners/entities.js');
  const partner = await em.findOneOrFail(Partner, { id: row!.partner_id });
  return { scoped: await issueApiKey(em, partner, 'sandbox', { scopes }) };
}

describe('API keys over GraphQL', () => {
  const API_KEY_FIELDS = 'id databaseId prefix scopes allowedIps createdAt lastUsedAt revokedAt';

  it('an admin key creates a key (shown once, and it works), lists, revokes it, and the revoked key gets 401', async () => {
    // It may grant read because it has read itself (test/partners/key-escalation.test.ts).
    const admin = apiClient(t.url, await keyWith(['admin', 'read']));
    const created = await admin.graphql(
      `mutation { createApiKey(input: { scopes: [READ], allowedIps: ["127.0.0.0/8", "::1"] }) {
        __typename ... on CreateApiKeyPayload { key apiKey { ${API_KEY_FIELDS} } } ... on ValidationError { fieldErrors { path code } } } }`,
    );
    expect(created.body.errors).toBeUndefined();
    const { key, apiKey } = created.body.data.createApiKey;
    expect(key).toMatch(/^rk_sandbox_[A-Za-z0-9]{40}$/);
    expect(apiKey).toMatchObject({ prefix: key.slice(0, 19), scopes: ['READ'], allowedIps: ['127.0.0.0/8', '::1'], lastUsedAt: null, revokedAt: null });
    // Hashed as always: the clear key is nowhere in the database.
    expect(JSON.stringify(await t.sql('select * from api_keys where id = ?', [apiKey.databaseId]))).not.toContain(key.slice(19));

    const newKey = apiClient(t.url, key);
    expect((await newKey.get('/v0/customers')).status).toBe(200);
    expect((await newKey.post('/v0/customers', { email: 'new-key@example.com', type: 'individual', first_name: 'A', last_name: 'B' })).status).toBe(403);

    const listed = await admin.graphql(`{ apiKeys(first: 10) { totalCount edges { node { ${API_KEY_FIELDS} } } } }`);
    expect(listed.body.errors).toBeUndefined();
    expect(listed.body.data.apiKeys.totalCount).toBe(2);
    const nodes = listed.body.data.apiKeys.edges.map((e: { node: unknown }) => e.node);
    expect(nodes).toEqual(expect.arrayContaining([expect.objectContaining({ id: apiKey.id, scopes: ['READ'] })]));
    expect(JSON.stringify(listed.body)).not.toContain(key.slice(19));

    const revoked = await admin.graphql(
      'mutation($id: ID!) { revokeApiKey(input: { id: $id }) { __typename ... on RevokeApiKeyPayload { apiKey { revokedAt } } } }',
      { id: apiKey.id },
    );
    expect(revoked.body.data.revokeApiKey.apiKey.revokedAt).toEqual(expect.any(String));
    await expect.poll(async () => (await newKey.get('/v0/customers')).status, { timeout: 5000 }).toBe(401);
  });

  it("needs admin: other keys are refused, an admin-only key reads nothing else, and another partner's key is not found", async () => {
    const allButAdmin = apiClient(t.url, await keyWith(['read', 'write', 'simulate', 'webhooks']));
    const refused = await allButAdmin.graphql('{ apiKeys(first: 5) { totalCount } }');
    expect(refused.status).toBe(403);
    expect(refused.body.errors![0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(refused.body.errors![0].message).toContain('`admin`');

    const adminOnly = apiClient(t.url, await keyWith(['admin']));
    expect((await adminOnly.get('/v0/customers')).body).toMatchObject({ code: 'insufficient_scope' });
    const [other] = await t.sql<{ id: string }>('select id from api_keys order by created_at limit 1');
    const foreign = await adminOnly.graphql('mutation($id: ID!) { revokeApiKey(input: { id: $id }) { __typename } }', { id: other!.id });
    expect(foreign.body.data.revokeApiKey.__typename).toBe('NotFoundError');
    expect(await t.sql('select revoked_at from api_keys where id = ?', [other!.id])).toEqual([{ revoked_at: null }]);
  });

  it('refuses an allowlist entry that is no address or range, naming it', async () => {
    const admin = apiClient(t.url, await keyWith(['admin']));
    const created = await admin.graphql(
      'mutation { createApiKey(input: { allowedIps: ["10.0.0.0/8", "10.0.0.300"] }) { __typename ... on ValidationError { fieldErrors { path code } } } }',
    );
    expect(created.body.data.createApiKey).toEqual({ __typename: 'ValidationError', fieldErrors: [{ path: '/allowedIps/1', code: 'invalid_ip_range' }] });
  });
});
