import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRamp, type TestRamp } from '../support/ramp.js';

/**
 * One endpoint may have a share of the dispatcher's slots in flight (3/4 of WEBHOOK_CONCURRENCY, 96 by default), and
 * it gets as many connections. With fewer connections than slots, a delivery past the socket limit waited in Node's
 * agent while its timeout ran, and was failed for Ramp's own queue. The receiver here answers only once 55 deliveries
 * are in flight at once (or after 4 s): more than the 50 connections an endpoint had before.
 */
const EVENTS = 60;
const TOGETHER = 55;
const HOLD_MS = 4_000;
const TIMEOUT_MS = 6_000;

let t: TestRamp;
let server: Server;
let url = '';
let inFlight = 0;
let mostAtOnce = 0;
const waiting: (() => void)[] = [];

beforeAll(async () => {
  t = await startRamp({ WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_POLL_INTERVAL_MS: '50' });
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      inFlight++;
      mostAtOnce = Math.max(mostAtOnce, inFlight);
      const answer = () => {
        clearTimeout(timer);
        inFlight--;
        res.writeHead(200).end('ok');
      };
      const timer = setTimeout(answer, HOLD_MS);
      waiting.push(answer);
      // Enough at once: everyone held so far is answered.
      if (inFlight >= TOGETHER) for (const release of waiting.splice(0)) release();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await t?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const DELIVERIES = `{ webhookDeliveries(first: 100) { edges { node { status attemptCount } } } }`;

describe('many deliveries to one endpoint at once', () => {
  it('are all in flight together, each on a connection of its own, and none is failed for waiting on Ramp', async () => {
    const api = t.client(await t.keyFor('Many In Flight Partner'));
    expect((await api.post('/v0/webhooks', { url })).status).toBe(201);
    const created = await Promise.all(
      Array.from({ length: EVENTS }, (_, i) => api.post('/v0/customers', { email: `flight${i}@example.com`, type: 'corporate', company_name: 'Flight' })),
    );
    expect(created.map((r) => r.status)).toEqual(Array(EVENTS).fill(201));

    let nodes: { status: string; attemptCount: number }[] = [];
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      nodes = (await api.graphql(DELIVERIES)).body.data.webhookDeliveries.edges.map((e: { node: (typeof nodes)[number] }) => e.node);
      if (nodes.length === EVENTS && nodes.every((n) => n.status !== 'PENDING')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(mostAtOnce).toBeGreaterThanOrEqual(TOGETHER);
    expect(nodes).toHaveLength(EVENTS);
    expect(
      nodes.every((n) => n.status === 'SUCCEEDED' && n.attemptCount === 1),
      JSON.stringify(nodes),
    ).toBe(true);
  }, 60_000);
});
