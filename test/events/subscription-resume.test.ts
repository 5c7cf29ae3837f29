import { type Socket, createServer, connect as tcpConnect } from 'node:net';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumableSubscription } from '../../examples/subscriptions/resumable-subscription.js';
import { startRamp, type TestRamp } from '../support/ramp.js';
import { waitFor } from '../support/clients/webhook-receiver.js';
import { EVENTS, commitEvent, cursorsOf } from './subscribers.js';

let t: TestRamp;

beforeAll(async () => {
  t = await startRamp({ EVENTS_CATCHUP_INTERVAL_MS: '200' });
});
afterAll(async () => {
  await t.close();
});

/** A TCP relay in front of Ramp whose open connections can be cut, as a network failure would. */
async function relay(target: URL) {
  const open = new Set<Socket>();
  const server = createServer((inbound) => {
    const outbound = tcpConnect(Number(target.port), target.hostname);
    for (const s of [inbound, outbound]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => undefined);
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}/graphql`,
    cut: () => {
      for (const s of open) s.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a graphql-ws client with its default retries', () => {
  it('processes every event exactly once across connection cuts, resuming with the last processed cursor', async () => {
    const key = await t.keyFor('Resuming reader');
    const api = t.client(key);
    await commitEvent(api, 0);
    const proxy = await relay(new URL(t.url));
    // Default retry settings: 5 attempts with randomised exponential backoff.
    const client = createClient({ url: proxy.url, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` } });
    let connections = 0;
    client.on('connected', () => connections++);
    const processed: string[] = [];
    const errors: unknown[] = [];
    const subscription = resumableSubscription<{ cursor: string }>(client, {
      query: EVENTS,
      field: 'events',
      after: '0',
      onEvent: (event) => processed.push(event.cursor),
      onError: (error) => errors.push(error),
    });

    let n = 1;
    for (let cut = 0; cut < 3; cut++) {
      await waitFor(() => connections === cut + 1, 20_000, `connection ${cut + 1}`);
      for (let i = 0; i < 3; i++) await commitEvent(api, n++);
      // Cut mid-stream: events committed just before and while the client is away.
      proxy.cut();
      for (let i = 0; i < 3; i++) await commitEvent(api, n++);
    }
    await waitFor(() => connections === 4, 20_000, 'the last reconnection');
    await commitEvent(api, n++);
    const expected = await cursorsOf(api);
    await waitFor(() => processed.length >= expected.length, 20_000, 'every event processed');
    expect(processed).toEqual(expected);
    expect(new Set(processed).size).toBe(processed.length);
    expect(subscription.lastCursor()).toBe(expected.at(-1));
    expect(errors).toEqual([]);
    subscription.stop();
    await client.dispose();
    await proxy.close();
  }, 90_000);
});
