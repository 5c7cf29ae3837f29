import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventCursors } from '../../src/modules/events/cursors.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { type Receiver, type ReceivedRequest, sleep, startReceiver, waitFor } from '../support/clients/webhook-receiver.js';

let t: TestRamp;
const receivers: Receiver[] = [];
let partners = 0;

beforeAll(async () => {
  t = await startRamp({
    WEBHOOK_RETRY_TIME_SCALE: '0.001',
    WEBHOOK_POLL_INTERVAL_MS: '50',
    WEBHOOK_TIMEOUT_MS: '1500',
    EVENTS_CATCHUP_INTERVAL_MS: '200',
  });
});
afterAll(async () => {
  await t.close();
  await Promise.all(receivers.map((r) => r.close()));
});

/** Each test is its own partner, so its webhooks see only its own events. */
async function newPartner(environment: 'sandbox' | 'production' = 'sandbox'): Promise<ApiClient> {
  return t.client(await t.keyFor(`Webhook Partner ${++partners}`, environment));
}
async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}
const createCustomer = async (api: ApiClient, name = 'Acme') =>
  (await api.post('/v0/customers', { email: `${name.toLowerCase().replace(/\W/g, '')}${Math.random()}@example.com`, type: 'corporate', company_name: name }))
    .body.customer_id as string;

/** Verifies a delivery as a partner would: Standard Webhooks signature and Align's x-hmac-signature. */
function verify(request: ReceivedRequest, secret: string) {
  const payload = new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  expect(request.headers['x-hmac-signature']).toBe(createHmac('sha256', key).update(request.body).digest('hex'));
  return payload as any;
}

const DELIVERIES = `query($endpointId: ID, $status: WebhookDeliveryStatus) {
  webhookDeliveries(endpointId: $endpointId, status: $status, first: 50) { edges { node {
    id databaseId eventId eventType status attemptCount lastStatusCode lastError redelivery
    attempts { number statusCode latencyMs error finishedAt }
  } } } }`;
const deliveriesOf = async (api: ApiClient, endpointId: string, status?: string) =>
  (await api.graphql(DELIVERIES, { endpointId, status })).body.data.webhookDeliveries.edges.map((e: any) => e.node);

describe('POST /v0/webhooks', () => {
  it('registers a webhook: 201 with id, url, status enabled, created_at and a whsec_ secret shown only here', async () => {
    const api = await newPartner();
    const res = await api.post('/v0/webhooks', { url: 'http://127.0.0.1:9/hooks' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'id', 'secret', 'status', 'url']);
    expect(res.body).toMatchObject({ url: 'http://127.0.0.1:9/hooks', status: 'enabled' });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await api.get('/v0/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([{ id: res.body.id, url: res.body.url, status: 'enabled', created_at: res.body.created_at }]);
  });

  it('stores the signing secret encrypted, never in clear', async () => {
    const api = await newPartner();
    const res = await api.post('/v0/webhooks', { url: 'http://127.0.0.1:9/enc' });
    const [row] = await t.sql<{ secret_encrypted: string }>('select secret_encrypted from webhook_endpoints where id = ?', [res.body.id]);
    expect(row!.secret_encrypted).toMatch(/^v1:/);
    expect(row!.secret_encrypted).not.toContain(res.body.secret.slice(6));
    const stored = await t.sql<{ response_body: unknown }>('select response_body from idempotency_keys');
    expect(JSON.stringify(stored)).not.toContain(res.body.secret.slice(6));
  });

  it('replays a registration for a repeated Idempotency-Key, with the same webhook and secret', async () => {
    const api = await newPartner();
    const first = await api.post('/v0/webhooks', { url: 'http://127.0.0.1:9/idem' }, { 'idempotency-key': 'wh-1' });
    const again = await api.post('/v0/webhooks', { url: 'http://127.0.0.1:9/idem' }, { 'idempotency-key': 'wh-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await api.get('/v0/webhooks')).body.items).toHaveLength(1);
  });

  it('answers 409 for a URL the partner already registered', async () => {
    const api = await newPartner();
    expect((await api.post('/v0/webhooks', { url: 'http://127.0.0.1:9/dup' })).status).toBe(201);
    const again = await api.post('/v0/webhooks', { url: 'http://127.0.0.1:9/dup' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('webhook_url_taken');
  });

  it.each([
    [{}, 'required'],
    [{ url: 'not a url' }, 'invalid_url'],
    [{ url: 'ftp://example.com/hooks' }, 'invalid_url'],
    [{ url: 'https://user:pass@example.com/hooks' }, 'invalid_url'],
  ])('refuses %j with 400', async (body, code) => {
    const api = await newPartner();
    const res = await api.post('/v0/webhooks', body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ pointer: '/url', code }));
  });

  describe('with a production key', () => {
    it.each([
      ['http://93.184.215.14/hooks', 'url_not_https'],
      ['https://127.0.0.1/hooks', 'url_not_public'],
      ['https://localhost/hooks', 'url_not_public'],
      ['https://10.1.2.3/hooks', 'url_not_public'],
      ['https://192.168.0.10/hooks', 'url_not_public'],
      ['https://169.254.169.254/latest/meta-data', 'url_not_public'],
      ['https://100.64.0.1/hooks', 'url_not_public'],
      ['https://[::1]/hooks', 'url_not_public'],
      ['https://[fd00::1]/hooks', 'url_not_public'],
      ['https://[::ffff:10.0.0.1]/hooks', 'url_not_public'],
    ])('refuses %s with 400 %s', async (url, code) => {
      const api = await newPartner('production');
      const res = await api.post('/v0/webhooks', { url });
      expect(res.status).toBe(400);
      expect(res.body.errors).toContainEqual(expect.objectContaining({ pointer: '/url', code }));
    });

    it('accepts an https URL on a public address', async () => {
      const api = await newPartner('production');
      const res = await api.post('/v0/webhooks', { url: 'https://93.184.215.14/hooks' });
      expect(res.status).toBe(201);
    });
  });
});

describe('webhook limits and orphans', () => {
  it('never lets concurrent registrations overrun the 20-webhook limit', async () => {
    const api = await newPartner();
    const responses = await Promise.all(Array.from({ length: 25 }, (_, i) => api.post('/v0/webhooks', { url: `http://127.0.0.1:9/hooks/${i}` })));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(20);
    expect(responses.filter((r) => r.status === 409).every((r) => r.body.code === 'webhook_endpoint_limit')).toBe(true);
    expect((await api.get('/v0/webhooks')).body.items).toHaveLength(20);
  });

  it('cancels a pending delivery whose endpoint was deleted meanwhile, instead of leaving it pending for ever', async () => {
    const api = await newPartner();
    const endpoint = (await api.post('/v0/webhooks', { url: 'http://127.0.0.1:9/orphan' })).body;
    await createCustomer(api, 'Orphan');
    await waitFor(async () => (await t.sql('select 1 from webhook_deliveries where endpoint_id = ?', [endpoint.id])).length > 0, 5_000, 'the fan-out');
    // The race: the fan-out committed after the delete had canceled what it could see.
    await t.sql(`update webhook_endpoints set deleted_at = now() where id = ?`, [endpoint.id]);
    await t.sql(`update webhook_deliveries set status = 'pending', leased_until = null, next_attempt_at = now() + interval '1 hour' where endpoint_id = ?`, [
      endpoint.id,
    ]);
    t.ramp.dispatcher.wake();
    await waitFor(
      async () =>
        (await t.sql<{ status: string }>('select status from webhook_deliveries where endpoint_id = ?', [endpoint.id])).every((d) => d.status === 'canceled'),
      5_000,
      'the cancel',
    );
  });
});

describe('DELETE /v0/webhooks/{webhookId}', () => {
  it("answers 204, then 404; and 404 for an unknown, malformed or another partner's webhook", async () => {
    const api = await newPartner();
    const other = await newPartner();
    const id = (await api.post('/v0/webhooks', { url: 'http://127.0.0.1:9/del' })).body.id;
    expect((await other.delete(`/v0/webhooks/${id}`)).status).toBe(404);
    const res = await api.delete(`/v0/webhooks/${id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect((await api.delete(`/v0/webhooks/${id}`)).status).toBe(404);
    expect((await api.delete('/v0/webhooks/5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e')).status).toBe(404);
    expect((await api.delete('/v0/webhooks/nope')).status).toBe(404);
    expect((await api.get('/v0/webhooks')).body.items).toEqual([]);
  });
});

describe('delivery', () => {
  it('delivers every event signed, verifiable with standardwebhooks and x-hmac-signature, with the documented payload', async () => {
    const api = await newPartner();
    const r = await receiver();
    const { secret } = (await api.post('/v0/webhooks', { url: r.url })).body;
    const customerId = await createCustomer(api, 'Signed');
    await api.put(`/v0/customers/${customerId}`, { identifying_information: { tax_number: 'TX-1' } });
    await waitFor(() => r.received.length >= 2, 10_000, 'two deliveries');

    const payloads = r.received.map((request) => verify(request, secret));
    expect(payloads.map((p) => p.event_type)).toEqual(['customer.created', 'customer.kycs.updated']);
    const events = (await api.get('/v0/events')).body.items;
    for (const [i, request] of r.received.entries()) {
      expect(request.headers['webhook-id']).toBe(events[i].event_id);
      expect(request.headers['content-type']).toBe('application/json');
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(Object.keys(payloads[i]).sort()).toEqual(['created_at', 'entity_id', 'entity_type', 'event_id', 'event_payload', 'event_type']);
      expect(payloads[i]).toMatchObject({ event_id: events[i].event_id, entity_id: customerId, entity_type: 'customer', created_at: events[i].created_at });
    }
    expect(payloads[1].event_payload).toEqual((await api.get(`/v0/customers/${customerId}`)).body);
  });

  it('does not verify with another secret, or when the body was changed', async () => {
    const api = await newPartner();
    const r = await receiver();
    const { secret } = (await api.post('/v0/webhooks', { url: r.url })).body;
    await createCustomer(api, 'Tamper');
    await waitFor(() => r.received.length >= 1);
    const request = r.received[0]!;
    const other = (await api.post('/v0/webhooks', { url: `${r.url}/other` })).body.secret;
    expect(() => new Webhook(other).verify(request.body, request.headers as Record<string, string>)).toThrow();
    expect(() => new Webhook(secret).verify(request.body.replace('Tamper', 'Tamp3r'), request.headers as Record<string, string>)).toThrow();
  });

  it('retries a failing receiver on the schedule and delivers later with the same webhook-id, logging every attempt', async () => {
    const api = await newPartner();
    const r = await receiver((_, n) => (n < 2 ? 500 : 200));
    const { id, secret } = (await api.post('/v0/webhooks', { url: r.url })).body;
    await createCustomer(api, 'Retry');
    await waitFor(() => r.received.length >= 3, 10_000, 'three attempts');
    const ids = r.received.map((req) => req.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    for (const req of r.received) verify(req, secret);

    const [delivery] = await waitFor(async () => {
      const found = await deliveriesOf(api, id);
      return found[0]?.status === 'SUCCEEDED' && found;
    });
    expect(delivery).toMatchObject({ eventId: ids[0], eventType: 'CUSTOMER_CREATED', attemptCount: 3, lastStatusCode: 200, lastError: null });
    expect(delivery.attempts.map((a: any) => [a.number, a.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    for (const attempt of delivery.attempts) {
      expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
      expect(attempt.finishedAt).toBeTruthy();
    }
  });

  it('gives up after the eighth attempt and marks the delivery failed', async () => {
    const api = await newPartner();
    const r = await receiver(() => 503);
    const { id } = (await api.post('/v0/webhooks', { url: r.url })).body;
    await createCustomer(api, 'Exhausted');
    // 0, 5 ms, 300 ms, 1.8 s, 7.2 s, ... at scale 0.001: only the first four come quickly.
    await waitFor(() => r.received.length >= 4, 10_000, 'four attempts');
    await t.sql(`update webhook_deliveries set next_attempt_at = now() where endpoint_id = ? and status = 'pending'`, [id]);
    for (let n = 5; n <= 8; n++) {
      await waitFor(() => r.received.length >= n, 10_000, `attempt ${n}`);
      await waitFor(async () => (await deliveriesOf(api, id))[0].attempts.every((a: any) => a.finishedAt));
      await t.sql(`update webhook_deliveries set next_attempt_at = now() where endpoint_id = ? and status = 'pending'`, [id]);
    }
    const [delivery] = await waitFor(async () => {
      const found = await deliveriesOf(api, id);
      return found[0]?.status === 'FAILED' && found;
    });
    expect(delivery.attemptCount).toBe(8);
    expect(delivery.lastError).toBe('the receiver answered 503');
    await sleep(300);
    expect(r.received).toHaveLength(8);
  });

  it('disables a webhook whose receiver answers 410 Gone, and sends it nothing more', async () => {
    const api = await newPartner();
    const r = await receiver(() => 410);
    const { id } = (await api.post('/v0/webhooks', { url: r.url })).body;
    await createCustomer(api, 'Gone');
    await waitFor(async () => (await api.get('/v0/webhooks')).body.items[0].status === 'disabled', 10_000, 'disabled');
    const gql = await api.graphql(`{ webhookEndpoints { edges { node { databaseId status disabledReason } } } }`);
    expect(gql.body.data.webhookEndpoints.edges.map((e: any) => e.node)).toEqual([{ databaseId: id, status: 'DISABLED', disabledReason: 'ENDPOINT_GONE' }]);
    expect((await deliveriesOf(api, id))[0]).toMatchObject({ status: 'FAILED', attemptCount: 1, lastStatusCode: 410 });
    await createCustomer(api, 'Gone Again');
    await sleep(500);
    expect(r.received).toHaveLength(1);
  });

  it('sends nothing more to a deleted webhook, while another webhook of the partner still receives', async () => {
    const api = await newPartner();
    const deleted = await receiver();
    const kept = await receiver();
    const { id } = (await api.post('/v0/webhooks', { url: deleted.url })).body;
    await api.post('/v0/webhooks', { url: kept.url });
    await createCustomer(api, 'Before');
    await waitFor(() => deleted.received.length === 1 && kept.received.length === 1);
    expect((await api.delete(`/v0/webhooks/${id}`)).status).toBe(204);
    await createCustomer(api, 'After');
    await waitFor(() => kept.received.length === 2);
    await sleep(300);
    expect(deleted.received).toHaveLength(1);
  });

  it('cancels the pending retries of a webhook when it is deleted', async () => {
    const api = await newPartner();
    const r = await receiver(() => 500);
    const { id } = (await api.post('/v0/webhooks', { url: r.url })).body;
    await createCustomer(api, 'Cancel');
    await waitFor(() => r.received.length >= 3, 10_000, 'three attempts'); // the fourth waits 1.8 s
    expect((await api.delete(`/v0/webhooks/${id}`)).status).toBe(204);
    const [row] = await t.sql<{ status: string; last_error: string }>('select status, last_error from webhook_deliveries where endpoint_id = ?', [id]);
    expect(row).toEqual({ status: 'canceled', last_error: 'endpoint deleted' });
    const seen = r.received.length;
    await sleep(2_200);
    expect(r.received).toHaveLength(seen);
  });

  it('delivers only to webhooks of the same partner and environment', async () => {
    const api = await newPartner();
    const mine = await receiver();
    const theirs = await receiver();
    await api.post('/v0/webhooks', { url: mine.url });
    await (await newPartner()).post('/v0/webhooks', { url: theirs.url });
    await createCustomer(api, 'Tenant');
    await waitFor(() => mine.received.length === 1);
    await sleep(300);
    expect(theirs.received).toHaveLength(0);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const api = await newPartner();
    const target = await receiver();
    const r = await receiver(() => 302);
    const { id } = (await api.post('/v0/webhooks', { url: r.url })).body;
    await createCustomer(api, 'Redirect');
    await waitFor(async () => (await deliveriesOf(api, id))[0]?.attempts.some((a: any) => a.statusCode === 302));
    expect(target.received).toHaveLength(0);
    expect((await deliveriesOf(api, id))[0]).toMatchObject({ status: 'PENDING', lastStatusCode: 302, lastError: 'the receiver answered 302' });
  });

  it('counts a receiver that does not answer within the timeout as a failed attempt', async () => {
    const api = await newPartner();
    const r = await receiver((_, n) => (n === 0 ? 'hang' : 200));
    const { id } = (await api.post('/v0/webhooks', { url: r.url })).body;
    await createCustomer(api, 'Slow');
    const [delivery] = await waitFor(async () => {
      const found = await deliveriesOf(api, id);
      return found[0]?.status === 'SUCCEEDED' && found;
    });
    expect(delivery.attempts[0]).toMatchObject({ number: 1, statusCode: null, error: expect.stringMatching(/^timeout/) });
    expect(delivery.attempts[0].latencyMs).toBeGreaterThanOrEqual(1400);
    expect(delivery.attempts[1]).toMatchObject({ number: 2, statusCode: 200 });
  });
});

describe('webhooks over GraphQL', () => {
  const REGISTER = `mutation($url: String!) { registerWebhook(input: { url: $url }) {
    __typename ... on RegisterWebhookPayload { secret webhookEndpoint { id databaseId url status } }
    ... on ValidationError { fieldErrors { path code } } } }`;

  it('registers, lists, disables and enables a webhook; a disabled webhook receives nothing', async () => {
    const api = await newPartner();
    const r = await receiver();
    const registered = (await api.graphql(REGISTER, { url: r.url })).body.data.registerWebhook;
    expect(registered.__typename).toBe('RegisterWebhookPayload');
    expect(registered.secret).toMatch(/^whsec_/);
    const id = registered.webhookEndpoint.id;
    const listed = (await api.graphql(`{ webhookEndpoints { totalCount edges { node { id url status } } } }`)).body.data.webhookEndpoints;
    expect(listed).toEqual({ totalCount: 1, edges: [{ node: { id, url: r.url, status: 'ENABLED' } }] });
    const disabled = await api.graphql(
      `mutation($id: ID!) { disableWebhook(input: { id: $id }) { ... on DisableWebhookPayload { webhookEndpoint { status disabledReason } } } }`,
      { id },
    );
    expect(disabled.body.data.disableWebhook.webhookEndpoint).toEqual({ status: 'DISABLED', disabledReason: 'DISABLED_BY_PARTNER' });
    await createCustomer(api, 'While Disabled');
    await sleep(400);
    expect(r.received).toHaveLength(0);
    // A REST id works as well as the global id.
    const enabled = await api.graphql(
      `mutation($id: ID!) { enableWebhook(input: { id: $id }) { ... on EnableWebhookPayload { webhookEndpoint { status disabledReason } } } }`,
      { id: registered.webhookEndpoint.databaseId },
    );
    expect(enabled.body.data.enableWebhook.webhookEndpoint).toEqual({ status: 'ENABLED', disabledReason: null });
    await createCustomer(api, 'Enabled Again');
    await waitFor(() => r.received.length === 1);
    expect(r.received[0]!.json.event_payload.company_name).toBe('Enabled Again');
  });

  it('refuses a non-https URL for a production key with a typed ValidationError', async () => {
    const api = await newPartner('production');
    const res = await api.graphql(REGISTER, { url: 'http://93.184.215.14/hooks' });
    expect(res.body.data.registerWebhook).toEqual({ __typename: 'ValidationError', fieldErrors: [{ path: '/url', code: 'url_not_https' }] });
  });

  it('rotates the secret: deliveries then verify with the new secret and, for a while, the old one', async () => {
    const api = await newPartner();
    const r = await receiver();
    const { id, secret: old } = (await api.post('/v0/webhooks', { url: r.url })).body;
    const rotated = await api.graphql(
      `mutation($id: ID!) { rotateWebhookSecret(input: { id: $id }) { ... on RotateWebhookSecretPayload { secret webhookEndpoint { databaseId } } } }`,
      { id },
    );
    expect(rotated.body.data.rotateWebhookSecret.webhookEndpoint.databaseId).toBe(id);
    const fresh = rotated.body.data.rotateWebhookSecret.secret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    await createCustomer(api, 'Rotated');
    await waitFor(() => r.received.length === 1);
    const request = r.received[0]!;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    verify(request, fresh);
    expect(new Webhook(old).verify(request.body, request.headers as Record<string, string>)).toBeTruthy();
  });

  it('redelivers an event with the same webhook-id, as a new delivery', async () => {
    const api = await newPartner();
    const r = await receiver();
    const { id } = (await api.post('/v0/webhooks', { url: r.url })).body;
    await createCustomer(api, 'Redeliver');
    await waitFor(() => r.received.length === 1);
    const eventId = r.received[0]!.headers['webhook-id'];
    const res = await api.graphql(
      `mutation($eventId: ID!, $endpointId: ID!) { redeliverEvent(input: { eventId: $eventId, endpointId: $endpointId }) {
        __typename ... on RedeliverEventPayload { delivery { eventId redelivery status } } ... on Error { code } } }`,
      { eventId, endpointId: id },
    );
    expect(res.body.data.redeliverEvent).toMatchObject({ __typename: 'RedeliverEventPayload', delivery: { eventId, redelivery: true } });
    await waitFor(() => r.received.length === 2);
    expect(r.received[1]!.headers['webhook-id']).toBe(eventId);
    expect((await deliveriesOf(api, id, 'SUCCEEDED')).map((d: any) => d.redelivery).sort()).toEqual([false, true]);
  });

  it("answers NotFoundError when redelivering another partner's event or to another partner's webhook", async () => {
    const api = await newPartner();
    const other = await newPartner();
    const mine = (await api.post('/v0/webhooks', { url: 'http://127.0.0.1:9/mine' })).body.id;
    const theirs = (await other.post('/v0/webhooks', { url: 'http://127.0.0.1:9/theirs' })).body.id;
    await createCustomer(api, 'Mine');
    await createCustomer(other, 'Theirs');
    const myEvent = (await api.get('/v0/events')).body.items[0].event_id;
    const theirEvent = (await other.get('/v0/events')).body.items[0].event_id;
    const REDELIVER = `mutation($e: ID!, $w: ID!) { redeliverEvent(input: { eventId: $e, endpointId: $w }) { __typename ... on Error { code } } }`;
    expect((await api.graphql(REDELIVER, { e: theirEvent, w: mine })).body.data.redeliverEvent).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    expect((await api.graphql(REDELIVER, { e: myEvent, w: theirs })).body.data.redeliverEvent).toEqual({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    const deliveries = await api.graphql(DELIVERIES, { endpointId: theirs });
    expect(deliveries.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('events API', () => {
  it('lists the partner’s events after a cursor, filtered by type, with next_cursor to resume from', async () => {
    const api = await newPartner();
    const a = await createCustomer(api, 'Ev A');
    await api.put(`/v0/customers/${a}`, { identifying_information: { tax_number: 'TX-1' } });
    const b = await createCustomer(api, 'Ev B');
    const all = await api.get('/v0/events');
    expect(all.status).toBe(200);
    expect(all.body.items.map((e: any) => [e.event_type, e.entity_id])).toEqual([
      ['customer.created', a],
      ['customer.kycs.updated', a],
      ['customer.created', b],
    ]);
    expect(all.body).toMatchObject({ has_more: false, next_cursor: all.body.items[2].cursor });
    const page = await api.get('/v0/events?limit=2');
    expect(page.body.items).toHaveLength(2);
    expect(page.body.has_more).toBe(true);
    const rest = await api.get(`/v0/events?after=${page.body.next_cursor}`);
    expect(rest.body.items.map((e: any) => e.entity_id)).toEqual([b]);
    const created = await api.get('/v0/events?types=customer.created');
    expect(created.body.items.map((e: any) => e.entity_id)).toEqual([a, b]);
    const none = await api.get(`/v0/events?after=${all.body.next_cursor}`);
    expect(none.body).toEqual({ items: [], has_more: false, next_cursor: all.body.next_cursor });
  });

  it('refuses a malformed cursor, an unknown type and a limit over 100 with 400', async () => {
    const api = await newPartner();
    for (const [query, pointer] of [
      ['after=abc', '/after'],
      ['types=customer.deleted', '/types/0'],
      ['limit=101', '/limit'],
    ] as const) {
      const res = await api.get(`/v0/events?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].pointer).toBe(pointer);
    }
    expect((await api.get('/v0/events?after=abc')).body.errors[0].code).toBe('invalid_cursor');
    const all = await api.get('/v0/events?after=abc&types=customer.created,customer.deleted&limit=x');
    expect(all.status).toBe(400);
    expect(all.body.errors.map((e: any) => `${e.pointer} ${e.code}`).sort()).toEqual([
      '/after invalid_cursor',
      '/limit invalid_type',
      '/types/1 invalid_enum_value',
    ]);
  });

  it('refuses a cursor past the newest event (never handed out) instead of silently skipping events', async () => {
    const api = await newPartner();
    const id = await createCustomer(api, 'Past');
    const [row] = await t.sql<{ head: string; partner_id: string }>(
      'select (select max(cursor) from events)::text as head, partner_id from events where entity_id = ?',
      [id],
    );
    // Sealed with this deployment's key, as another deployment sharing it (or a database reset) would have.
    const sealed = (position: bigint) =>
      eventCursors(t.ramp.config.eventCursorKey).seal({ partnerId: row!.partner_id, environment: 'sandbox' }, String(position));
    const past = await api.get(`/v0/events?after=${sealed(BigInt(row!.head) + 1000n)}`);
    expect(past.status).toBe(400);
    expect(past.body.errors[0]).toMatchObject({ pointer: '/after', code: 'invalid_cursor' });
    expect((await api.get(`/v0/events?after=${sealed(BigInt(row!.head))}`)).status).toBe(200);
  });

  it('pages the same events over GraphQL', async () => {
    const api = await newPartner();
    const ids = [await createCustomer(api, 'G1'), await createCustomer(api, 'G2'), await createCustomer(api, 'G3')];
    const Q = `query($after: String) { events(first: 2, after: $after, types: [CUSTOMER_CREATED]) {
      edges { cursor node { cursor id databaseId type entityType entityId createdAt payload } } pageInfo { hasNextPage endCursor } } }`;
    const first = (await api.graphql(Q)).body.data.events;
    expect(first.edges.map((e: any) => e.node.entityId)).toEqual(ids.slice(0, 2));
    expect(first.edges[0].cursor).toBe(first.edges[0].node.cursor);
    expect(first.edges[0].node).toMatchObject({ type: 'CUSTOMER_CREATED', entityType: 'CUSTOMER', payload: { customer_id: ids[0], company_name: 'G1' } });
    const rest = (await api.get('/v0/events?types=customer.created')).body.items;
    expect(first.edges.map((e: any) => e.node.databaseId)).toEqual(rest.slice(0, 2).map((e: any) => e.event_id));
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await api.graphql(Q, { after: first.pageInfo.endCursor })).body.data.events;
    expect(second.edges.map((e: any) => e.node.entityId)).toEqual([ids[2]]);
    expect(second.pageInfo.hasNextPage).toBe(false);
  });
});

describe('on a deployment started with NODE_ENV=production', () => {
  it('refuses a private or link-local URL from a sandbox key, while loopback receivers stay allowed', async () => {
    const api = await newPartner();
    for (const url of ['http://10.0.0.5/hooks', 'http://169.254.169.254/latest/meta-data', 'http://[fe80::1]/x']) {
      const res = await api.post('/v0/webhooks', { url });
      expect(res.status, url).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ pointer: '/url', code: 'url_not_public' });
    }
  });

  it('requires a public https URL even from a sandbox key', async () => {
    const production = await startRamp({
      NODE_ENV: 'production',
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 9).toString('base64'),
      ENCRYPTION_MASTER_KEY: Buffer.alloc(32, 8).toString('base64'),
    });
    try {
      const api = production.client(production.key);
      const http = await api.post('/v0/webhooks', { url: 'http://93.184.215.14/hooks' });
      expect(http.status).toBe(400);
      expect(http.body.errors[0]).toMatchObject({ pointer: '/url', code: 'url_not_https' });
      const loopback = await api.post('/v0/webhooks', { url: 'https://127.0.0.1:8443/hooks' });
      expect(loopback.status).toBe(400);
      expect(loopback.body.errors[0]).toMatchObject({ pointer: '/url', code: 'url_not_public' });
      expect((await api.post('/v0/webhooks', { url: 'https://93.184.215.14/hooks' })).status).toBe(201);
    } finally {
      await production.close();
    }
  });
});
