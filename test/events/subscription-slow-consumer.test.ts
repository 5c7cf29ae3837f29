import { randomUUID } from 'node:crypto';
import type { Client } from 'graphql-ws';
import type WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/platform/messaging/outbox.js';
import { SLOW_CONSUMER, SLOW_CONSUMER_STALL_MS } from '../../src/modules/events/stream.js';
import { startRamp, type TestRamp } from '../support/ramp.js';
import { wsClient } from '../support/clients/subscriptions.js';
import { sleep, waitFor } from '../support/clients/webhook-receiver.js';
import { commitEvent, cursorsOf, subscriber } from './subscribers.js';

const BUFFER = 20;
// The payload selected, so each event is a large frame on the socket.
const EVENTS = 'subscription($after: String) { events(after: $after) { cursor payload } }';
// Enough bytes to fill the loopback socket buffers between a client that stops reading and the server.
const EVENTS_COMMITTED = 300;
const PAYLOAD = 'x'.repeat(60_000);

let t: TestRamp;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startRamp({ SUBSCRIPTION_BUFFER_EVENTS: String(BUFFER) });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t.close();
});

describe('a slow subscriber', () => {
  it('is disconnected with 4008 once it falls more than its buffer behind, while a fast one on the same tenant gets every event', async () => {
    const key = await t.keyFor('Slow reader');
    const api = t.client(key);
    await commitEvent(api, 0);
    const [tenant] = await t.sql<{ partner_id: string }>("select partner_id from events where type = 'customer.created' order by cursor desc limit 1");
    const [start] = await cursorsOf(api);

    const fast = subscriber(t.url, key, { after: start }, EVENTS);
    clients.push(fast.client);
    let socket: WebSocket | undefined;
    const slowClient = wsClient(t.url, key);
    clients.push(slowClient);
    slowClient.on('connected', (s) => (socket = s as WebSocket));
    const closed: { code?: number; reason?: string }[] = [];
    let received = 0;
    slowClient.subscribe(
      { query: EVENTS, variables: { after: start } },
      { next: () => received++, error: (e) => closed.push(e as { code: number; reason: string }), complete: () => undefined },
    );
    await waitFor(() => socket !== undefined && fast.cursors.length === 0, 5000, 'both connected');
    await sleep(300);
    // The slow client stops reading its socket: the server can hand it nothing more once the kernel's buffers are full.
    socket!.pause();

    // A burst larger than the buffer, then, once the slow client has taken nothing for longer than the stall limit, another.
    const burst = (count: number) =>
      t.ramp.db.fork().transactional(async (em) => {
        const actor = { partnerId: tenant!.partner_id, environment: 'sandbox' as const, apiKeyId: randomUUID(), apiKeyPrefix: 'rk_sandbox_test0000' };
        for (let i = 0; i < count; i++) {
          await recordEvent(em, actor, {
            type: 'customer.kycs.updated',
            entityType: 'customer',
            entityId: randomUUID(),
            customerId: null,
            payload: { note: PAYLOAD, i },
          });
        }
      });
    await burst(EVENTS_COMMITTED - BUFFER * 2);
    await waitFor(() => fast.cursors.length >= EVENTS_COMMITTED - BUFFER * 2, 60_000, 'the first burst at the fast subscriber');
    await sleep(SLOW_CONSUMER_STALL_MS + 500);
    await burst(BUFFER * 2);
    await waitFor(() => fast.cursors.length >= EVENTS_COMMITTED, 60_000, 'every event at the fast subscriber');
    expect(fast.cursors).toEqual((await cursorsOf(api)).slice(1));
    expect(fast.errors).toEqual([]);

    // Reading again, the slow client finds what the kernel held, then the server's close.
    socket!.resume();
    await waitFor(() => closed.length > 0, 30_000, 'the slow client closed');
    expect(closed[0]).toMatchObject({ code: SLOW_CONSUMER.code, reason: SLOW_CONSUMER.reason });
    expect(received).toBeLessThan(EVENTS_COMMITTED);
  }, 120_000);
});
