import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRamp, type TestRamp } from '../support/ramp.js';
import { subscribe, wsClient } from '../support/clients/subscriptions.js';
import { waitFor } from '../support/clients/webhook-receiver.js';

let t: TestRamp;
beforeAll(async () => {
  t = await startRamp();
});
afterAll(() => t.close());

const SUBSCRIPTION = 'subscription { events(after: "0") { cursor type } }';

/** A subscription over plain HTTP; an answer that does not end within two seconds fails the test. */
async function overHttp(method: 'GET' | 'POST', accept?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${t.key}`, ...(accept && { accept }) };
  const url = method === 'GET' ? `${t.url}/graphql?query=${encodeURIComponent(SUBSCRIPTION)}` : `${t.url}/graphql`;
  if (method === 'GET') headers['x-graphql-yoga-csrf'] = '1';
  else headers['content-type'] = 'application/json';
  const body = method === 'POST' ? JSON.stringify({ query: SUBSCRIPTION }) : undefined;
  const response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(2_000) });
  return { status: response.status, contentType: response.headers.get('content-type'), body: JSON.parse(await response.text()) };
}

describe('a subscription sent over HTTP', () => {
  for (const method of ['POST', 'GET'] as const) {
    for (const accept of [undefined, 'text/event-stream', 'multipart/mixed', 'application/json', 'application/graphql-response+json', '*/*']) {
      it(`is refused at once, pointing to graphql-ws, and opens no stream (${method}, Accept: ${accept ?? 'none'})`, async () => {
        const res = await overHttp(method, accept);
        expect(res.status).toBe(400);
        expect(res.contentType).toMatch(/^application\/(graphql-response\+)?json/);
        expect(res.body.errors).toHaveLength(1);
        expect(res.body.errors[0].extensions.code).toBe('SUBSCRIPTIONS_REQUIRE_WEBSOCKET');
        expect(res.body.errors[0].message).toContain('graphql-ws');
      });
    }
  }

  it('is refused every time, so many on one key hold nothing open', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => overHttp('POST', 'text/event-stream')));
    expect(answers.every((a) => a.body.errors[0].extensions.code === 'SUBSCRIPTIONS_REQUIRE_WEBSOCKET')).toBe(true);
  });

  it('still works over graphql-ws on the same path', async () => {
    await t.client(t.key).post('/v0/customers', { email: 'ws@example.com', type: 'corporate', company_name: 'WS' });
    const client = wsClient(t.url, t.key);
    try {
      const sub = subscribe(client, SUBSCRIPTION, {}, 'events');
      await waitFor(() => sub.items.length > 0);
      expect(sub.errors).toEqual([]);
    } finally {
      await client.dispose();
    }
  });

  it('leaves queries over HTTP answered as one JSON document, whatever the Accept header', async () => {
    const response = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: '{ customers(first: 1) { edges { node { id } } } }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await response.json()).data.customers.edges).toBeDefined();
  });
});
