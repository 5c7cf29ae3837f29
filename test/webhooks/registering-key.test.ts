import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyScope } from '../../src/domain/scopes.js';
import { issueApiKey, revokeApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { type ApiClient, apiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { type Receiver, sleep, startReceiver, waitFor } from '../support/clients/webhook-receiver.js';

/**
 * A webhook's subscription query runs with the scopes of the key that registered it, as they are at each delivery:
 * a key that may not read cannot register one, and a key narrowed or revoked since stops reading through it, on
 * the dispatcher's deliveries and on a redelivery alike.
 */
const CUSTOMER_QUERY = `subscription { events(types: [CUSTOMER_CREATED]) {
  id subject { __typename ... on CustomerSnapshot { email live { transfers(first: 5) { totalCount } } } } } }`;
const REGISTER = `mutation ($url: String!, $query: String) {
  registerWebhook(input: { url: $url, subscriptionQuery: $query }) { __typename ... on RegisterWebhookPayload { secret webhookEndpoint { id } } } }`;
const REDELIVER = `mutation ($eventId: ID!, $endpointId: ID!) {
  redeliverEvent(input: { eventId: $eventId, endpointId: $endpointId }) { __typename } }`;

let t: TestRamp;
const receivers: Receiver[] = [];
let partners = 0;

beforeAll(async () => {
  t = await startRamp({ WEBHOOK_RETRY_TIME_SCALE: '0.001', WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_TIMEOUT_MS: '1500' });
});
afterAll(async () => {
  await t?.close();
  await Promise.all(receivers.map((r) => r.close()));
});

/** A partner of its own, with a key of every scope and a key maker for the scopes a test names. */
async function partner(): Promise<{ full: ApiClient; keyWith: (scopes: KeyScope[]) => Promise<{ key: string; client: ApiClient }> }> {
  const em = t.ramp.db.fork();
  const { partner } = await ensurePartner(em, `Registering Key Partner ${++partners}`);
  const keyWith = async (scopes: KeyScope[]) => {
    const key = await issueApiKey(t.ramp.db.fork(), partner, 'sandbox', { scopes });
    return { key, client: apiClient(t.url, key) };
  };
  return { full: apiClient(t.url, await issueApiKey(em, partner, 'sandbox')), keyWith };
}
async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}
const createCustomer = (api: ApiClient, email: string) => api.post('/v0/customers', { email, type: 'individual', first_name: 'Ada', last_name: 'L' });
const prefixOf = (key: string) => key.slice(0, 'rk_sandbox_'.length + 8);

describe("a webhook's subscription query", () => {
  it('cannot be registered by a key without read, over GraphQL or REST, and nothing is stored', async () => {
    const { keyWith } = await partner();
    const { client: webhooksOnly } = await keyWith(['webhooks']);
    const r = await receiver();
    const refused = await webhooksOnly.graphql(REGISTER, { url: r.url, query: CUSTOMER_QUERY });
    expect(refused.body.errors![0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(refused.body.errors![0].message).toContain('`read`');
    const overRest = await webhooksOnly.post('/v0/webhooks', { url: r.url, subscription_query: CUSTOMER_QUERY });
    expect([overRest.status, overRest.body.code]).toEqual([403, 'insufficient_scope']);
    expect(await t.sql('select id from webhook_endpoints where url = ?', [r.url])).toEqual([]);
    // Without a query, registering is webhook administration alone.
    expect((await webhooksOnly.post('/v0/webhooks', { url: r.url })).status).toBe(201);
  });

  it('runs as the key that registered it, and stops reading once that key loses read: deliveries fail, a redelivery is refused', async () => {
    const { full, keyWith } = await partner();
    const registering = await keyWith(['read', 'webhooks']);
    const r = await receiver();
    const registered = (await registering.client.graphql(REGISTER, { url: r.url, query: CUSTOMER_QUERY })).body.data.registerWebhook;
    expect(registered.__typename).toBe('RegisterWebhookPayload');
    const [stored] = await t.sql<{ api_key_id: string }>('select api_key_id from webhook_endpoints where url = ?', [r.url]);
    const [key] = await t.sql<{ id: string }>('select id from api_keys where prefix = ?', [prefixOf(registering.key)]);
    expect(stored!.api_key_id).toBe(key!.id);

    await createCustomer(full, 'delivered@example.com');
    const [delivery] = await waitFor(() => r.received.length && r.received, 10_000, 'the customer delivery');
    const body = new Webhook(registered.secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as any;
    expect(body.data.events.subject.email).toBe('delivered@example.com');

    // Narrowed to webhooks alone: the query no longer runs, on a new event or a redelivery.
    await t.sql("update api_keys set scopes = '{webhooks}' where id = ?", [key!.id]);
    await createCustomer(full, 'not-delivered@example.com');
    await waitFor(
      async () =>
        (
          await t.sql<{ last_error: string | null }>(
            "select last_error from webhook_deliveries where event_type = 'customer.created' and last_error is not null",
          )
        ).length,
      10_000,
      'the failed attempt',
    );
    const [failed] = await t.sql<{ last_error: string }>('select last_error from webhook_deliveries where last_error is not null');
    expect(failed!.last_error).toContain('`read`');
    const redelivered = await registering.client.graphql(REDELIVER, { eventId: body.data.events.id, endpointId: registered.webhookEndpoint.id });
    expect(redelivered.body.errors![0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    await sleep(200);
    expect(r.received).toHaveLength(1);
    expect(JSON.stringify(r.received.map((request) => request.body))).not.toContain('not-delivered@example.com');
  });

  it('is not redelivered once the key that registered it is revoked, whoever asks', async () => {
    const { full, keyWith } = await partner();
    const registering = await keyWith(['read', 'webhooks']);
    const r = await receiver();
    const registered = (await registering.client.graphql(REGISTER, { url: r.url, query: CUSTOMER_QUERY })).body.data.registerWebhook;
    await createCustomer(full, 'revoked-reader@example.com');
    const [delivery] = await waitFor(() => r.received.length && r.received, 10_000, 'the customer delivery');
    const eventId = JSON.parse(delivery!.body).data.events.id;

    await revokeApiKey(t.ramp.db.fork(), prefixOf(registering.key));
    const redelivered = await full.graphql(REDELIVER, { eventId, endpointId: registered.webhookEndpoint.id });
    expect(redelivered.body.errors![0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(redelivered.body.errors![0].message).toContain('revoked');
    await sleep(200);
    expect(r.received).toHaveLength(1);
  });
});

/**
 * A webhook without a query carries the event's object only when the key that registered it reads, as it is at each
 * delivery: a webhooks-only key would otherwise receive every customer's data it may not read. Without `read` a
 * delivery is a thin event (its ids and type), as Stripe's thin events are.
 */
describe('a webhook without a subscription query', () => {
  const thin = (eventId: string, entityId: string) => ({
    event_id: eventId,
    event_type: 'customer.created',
    entity_id: entityId,
    entity_type: 'customer',
    created_at: expect.any(String),
  });

  it('delivers thin events to a webhook a key without read registered, signed as any delivery', async () => {
    const { full, keyWith } = await partner();
    const r = await receiver();
    const registered = await (await keyWith(['webhooks'])).client.post('/v0/webhooks', { url: r.url });
    expect(registered.status).toBe(201);
    const customer = await createCustomer(full, 'thin-event@example.com');
    const [delivery] = await waitFor(() => r.received.length && r.received, 10_000, 'the customer delivery');
    const body = new Webhook(registered.body.secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as any;
    expect(body).toEqual(thin(body.event_id, customer.body.customer_id));
    expect(delivery!.body).not.toContain('thin-event@example.com');
  });

  it('carries the object while the registering key reads, and thin events once it no longer does, on a redelivery too', async () => {
    const { full, keyWith } = await partner();
    const registering = await keyWith(['read', 'webhooks']);
    const r = await receiver();
    const registered = await registering.client.post('/v0/webhooks', { url: r.url });
    await createCustomer(full, 'read-while-it-could@example.com');
    const [first] = await waitFor(() => r.received.length && r.received, 10_000, 'the first delivery');
    const whole = JSON.parse(first!.body);
    expect(whole.event_payload).toMatchObject({ email: 'read-while-it-could@example.com' });

    const [key] = await t.sql<{ id: string }>('select id from api_keys where prefix = ?', [prefixOf(registering.key)]);
    await t.sql("update api_keys set scopes = '{webhooks}' where id = ?", [key!.id]);
    const later = await createCustomer(full, 'no-longer-read@example.com');
    await waitFor(() => r.received.length >= 2, 10_000, 'the second delivery');
    expect(JSON.parse(r.received[1]!.body)).toEqual(thin(expect.any(String), later.body.customer_id));

    const redelivered = await full.graphql(REDELIVER, { eventId: whole.event_id, endpointId: registered.body.id });
    expect(redelivered.body.errors).toBeUndefined();
    await waitFor(() => r.received.length >= 3, 10_000, 'the redelivery');
    expect(JSON.parse(r.received[2]!.body)).toEqual(thin(whole.event_id, whole.entity_id));
    expect(JSON.stringify(r.received.slice(1).map((request) => request.body))).not.toContain('@example.com');
  });
});
