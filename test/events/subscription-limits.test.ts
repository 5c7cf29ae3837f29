import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRamp, type TestRamp } from '../support/ramp.js';
import { type Subscription, subscribe, wsClient } from '../support/clients/subscriptions.js';
import { waitFor } from '../support/clients/webhook-receiver.js';
import { commitEvent } from './subscribers.js';

let t: TestRamp;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startRamp({ SUBSCRIPTIONS_PER_KEY: '3' });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t.close();
});

const EVENTS = 'subscription { events { cursor } }';

function connection(key: string) {
  const client = wsClient(t.url, key);
  clients.push(client);
  return client;
}

/** Commits events until each subscription holds one (it is running), or fails if one was refused. */
async function running(key: string, subs: Subscription<unknown>[]) {
  for (let n = 0; !subs.every((s) => s.items.length > 0); n++) {
    for (const s of subs) expect(s.errors).toEqual([]);
    await commitEvent(t.client(key), n);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const refusedPerKey = async (sub: Subscription<unknown>) => {
  await waitFor(() => sub.errors.length > 0, 5000, 'the refusal');
  expect(JSON.stringify(sub.errors)).toContain('TOO_MANY_SUBSCRIPTIONS');
  expect(JSON.stringify(sub.errors)).toContain('per API key');
};

describe('subscriptions per API key (SUBSCRIPTIONS_PER_KEY)', () => {
  it('refuses a key more subscriptions than its limit over all its connections, counts each key apart, and frees a place when one ends', async () => {
    const key = await t.keyFor('Limited');
    const [a, b] = [connection(key), connection(key)];
    const held = [subscribe(a, EVENTS, {}, 'events'), subscribe(a, EVENTS, {}, 'events'), subscribe(b, EVENTS, {}, 'events')];
    await running(key, held);

    // A fourth, on either connection or a new one: refused with the per-key code, the others go on.
    await refusedPerKey(subscribe(b, EVENTS, {}, 'events'));
    await refusedPerKey(subscribe(connection(key), EVENTS, {}, 'events'));

    // Another key of the same partner has its own count.
    const otherKey = await t.keyFor('Limited');
    const other = subscribe(connection(otherKey), EVENTS, {}, 'events');
    await running(otherKey, [other]);

    // Completing one frees its place; closing a connection frees all of its.
    held[0]!.stop();
    await new Promise((r) => setTimeout(r, 300));
    const replacing = subscribe(b, EVENTS, {}, 'events');
    await running(key, [replacing]);
    await refusedPerKey(subscribe(b, EVENTS, {}, 'events'));
    await a.dispose();
    await new Promise((r) => setTimeout(r, 300));
    const afterClose = subscribe(connection(key), EVENTS, {}, 'events');
    await running(key, [afterClose]);
    expect(held[2]!.errors).toEqual([]);
  });
});
