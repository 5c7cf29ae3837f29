import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyScope } from '../../src/domain/scopes.js';
import { issueApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { apiClient, type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

/**
 * A key without `read` sees nothing but ids of what a mutation's answer reaches: otherwise a write-only key would
 * read a customer's email, transfers and bank accounts through the answer of an update that changed nothing.
 */
describe("what a key without read sees in a mutation's answer", () => {
  let t: TestRamp;
  let customerId: string;
  let keyWith: (scopes: KeyScope[]) => Promise<ApiClient>;
  let admin: ApiClient;
  beforeAll(async () => {
    t = await startRamp();
    const em = t.ramp.db.fork();
    const { partner } = await ensurePartner(em, 'Payload Partner');
    keyWith = async (scopes) => apiClient(t.url, await issueApiKey(t.ramp.db.fork(), partner, 'sandbox', { scopes }));
    admin = await keyWith(['admin']);
    const full = apiClient(t.url, await issueApiKey(em, partner, 'sandbox'));
    const created = await full.post('/v0/customers', { email: 'secret-holder@example.com', type: 'individual', first_name: 'Grace', last_name: 'Hopper' });
    customerId = created.body.customer_id;
  });
  afterAll(() => t?.close());

  const update = (selection: string) =>
    `mutation($id: ID!) { updateCustomer(input: { customerId: $id }) { __typename ... on UpdateCustomerPayload { customer { ${selection} } } } }`;

  it('refuses, before it runs, an update whose answer selects the customer’s email or transfers, and audits the refusal', async () => {
    const writeOnly = await keyWith(['write']);
    const refused = await writeOnly.graphql(update('id email transfers(first: 5) { edges { node { id } } } bankAccounts(first: 5) { totalCount }'), {
      id: customerId,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.data ?? null).toBeNull();
    expect(refused.body.errors![0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(refused.body.errors![0].message).toContain('Customer.email');
    expect(JSON.stringify(refused.body)).not.toContain('secret-holder');

    const log = await admin.get('/v0/audit-events?action=customer.update');
    expect(log.body.items).toEqual([
      expect.objectContaining({ outcome: 'refused', code: 'insufficient_scope', request_id: refused.headers.get('x-request-id') }),
    ]);
  });

  it('finds the field behind a named fragment and on a nested object reached by an allowed one', async () => {
    const writeOnly = await keyWith(['write']);
    const document = `mutation($id: ID!) { updateCustomer(input: { customerId: $id }) { ...answer } }
      fragment answer on UpdateCustomerResult { ... on UpdateCustomerPayload { customer { id ...private } } }
      fragment private on Customer { kycs { status } }`;
    const refused = await writeOnly.graphql(document, { id: customerId });
    expect(refused.body.errors![0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(refused.body.errors![0].message).toContain('Customer.kycs');
  });

  it('answers the ids and the failure’s own fields to a key without read', async () => {
    const writeOnly = await keyWith(['write']);
    const ids = await writeOnly.graphql(update('__typename id databaseId'), { id: customerId });
    expect(ids.body.errors).toBeUndefined();
    expect(ids.body.data.updateCustomer.customer).toMatchObject({ __typename: 'Customer', databaseId: customerId });

    const failed = await writeOnly.graphql(
      `mutation($id: ID!) { updateCustomer(input: { customerId: $id, email: "not an email" }) {
        __typename ... on ValidationError { code message fieldErrors { path code message } } } }`,
      { id: customerId },
    );
    expect(failed.body.errors).toBeUndefined();
    expect(failed.body.data.updateCustomer).toMatchObject({ __typename: 'ValidationError', fieldErrors: [expect.objectContaining({ path: '/email' })] });
  });

  it('answers the whole customer to a key with read and write', async () => {
    const readWrite = await keyWith(['read', 'write']);
    const answer = await readWrite.graphql(update('email'), { id: customerId });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.updateCustomer.customer.email).toBe('secret-holder@example.com');
  });

  it('answers a webhooks key without read the whole endpoint it registered, its secret included', async () => {
    const webhooksOnly = await keyWith(['webhooks']);
    const registered = await webhooksOnly.graphql(
      'mutation { registerWebhook(input: { url: "http://127.0.0.1:9/payload-scopes" }) { __typename ... on RegisterWebhookPayload { secret webhookEndpoint { url status } } } }',
    );
    expect(registered.body.errors).toBeUndefined();
    expect(registered.body.data.registerWebhook).toMatchObject({
      secret: expect.stringMatching(/^whsec_/),
      webhookEndpoint: { url: 'http://127.0.0.1:9/payload-scopes', status: 'ENABLED' },
    });
  });

  it('answers an admin key without read the whole key it made: managing keys is seeing them', async () => {
    const created = await admin.graphql(
      'mutation { createApiKey(input: { scopes: [ADMIN] }) { __typename ... on CreateApiKeyPayload { key apiKey { prefix scopes allowedIps } } } }',
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createApiKey.apiKey).toMatchObject({ scopes: ['ADMIN'], allowedIps: [] });
  });
});
