import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDLE_CONNECTION_MS } from '../../src/modules/webhooks/delivery.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { waitFor } from '../support/clients/webhook-receiver.js';

/**
 * A stock Node receiver (keep-alive 5 s) failed a delivery with ECONNRESET on a reused connection, and the
 * delivery then waited for the retry schedule's 5 s. Real receivers here, plain node:http servers.
 */
let t: TestRamp;
let partners = 0;
const servers: Server[] = [];

beforeAll(async () => {
  // The real retry schedule (0, 5 s, …): a failed attempt would wait 5 s for the next one.
  t = await startRamp({ WEBHOOK_RETRY_TIME_SCALE: '1', WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_TIMEOUT_MS: '3000' });
});
afterAll(async () => {
  await t.close();
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

interface Receiver {
  url: string;
  /** Each connection the receiver accepted: when it was opened, when it closed and which side closed it first. */
  connections: { opened: number; answeredAt?: number; closed?: number; closedByClient?: boolean; requests: number }[];
  answered: number;
}

/** A stock node:http receiver; `onRequest` may reset the connection instead of answering. */
async function receiver(options: { keepAliveTimeout: number; reset?: (requestOnConnection: number) => boolean }): Promise<Receiver> {
  const state: Receiver = { url: '', connections: [], answered: 0 };
  const bySocket = new Map<Socket, Receiver['connections'][number]>();
  const server = createServer({ keepAliveTimeout: options.keepAliveTimeout }, (req, res) => {
    const connection = bySocket.get(req.socket)!;
    connection.requests++;
    req.resume();
    req.on('end', () => {
      // The receiver's idle timer and Ramp's reuse crossing: the connection is gone before an answer.
      if (options.reset?.(connection.requests)) return req.socket.resetAndDestroy();
      state.answered++;
      connection.answeredAt = performance.now();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.on('connection', (socket: Socket) => {
    const connection: Receiver['connections'][number] = { opened: performance.now(), requests: 0 };
    state.connections.push(connection);
    bySocket.set(socket, connection);
    socket.on('end', () => (connection.closedByClient ??= true)); // the client's FIN arrived first
    socket.on('close', () => {
      connection.closedByClient ??= false;
      connection.closed = performance.now();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return state;
}

async function endpoint(url: string): Promise<ApiClient> {
  const api = t.client(await t.keyFor(`Keep-alive Partner ${++partners}`));
  expect((await api.post('/v0/webhooks', { url })).status).toBe(201);
  return api;
}
const createCustomer = async (api: ApiClient) =>
  expect((await api.post('/v0/customers', { email: `ka${Math.random()}@example.com`, type: 'corporate', company_name: 'Keep' })).status).toBe(201);

const DELIVERIES = `{ webhookDeliveries(first: 10) { edges { node { status attemptCount attempts { statusCode error } } } } }`;
const deliveries = async (api: ApiClient) => (await api.graphql(DELIVERIES)).body.data.webhookDeliveries.edges.map((e: any) => e.node);

describe('webhook connections kept alive', () => {
  it(`are let go after ${IDLE_CONNECTION_MS} ms idle, before a receiver that keeps them longer would close them`, async () => {
    expect(IDLE_CONNECTION_MS).toBeLessThan(5_000); // a stock Node server's keep-alive
    const r = await receiver({ keepAliveTimeout: 10_000 });
    const api = await endpoint(r.url);
    await createCustomer(api);
    await waitFor(() => r.answered === 1, 10_000, 'the delivery');
    const [connection] = r.connections;
    await waitFor(() => connection!.closed, 9_000, 'the idle connection to close');
    expect(connection!.closedByClient).toBe(true);
    expect(connection!.closed! - connection!.answeredAt!).toBeLessThan(IDLE_CONNECTION_MS + 1_500);
  }, 20_000);

  it('send again at once, on a new connection, what a receiver reset on a reused one, instead of failing the attempt', async () => {
    // Every second request on a connection is reset before an answer, as when the receiver's idle timer fires as
    // Ramp reuses the connection.
    const r = await receiver({ keepAliveTimeout: 5_000, reset: (n) => n === 2 });
    const api = await endpoint(r.url);
    await createCustomer(api);
    await waitFor(() => r.answered === 1, 10_000, 'the first delivery');
    const started = performance.now();
    await createCustomer(api);
    await waitFor(() => r.answered === 2, 10_000, 'the second delivery');
    // Well before the retry schedule's 5 s.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(r.connections.map((c) => c.requests)).toEqual([2, 1]);
    const all = await waitFor(async () => {
      const list = await deliveries(api);
      return list.length === 2 && list.every((d: any) => d.status === 'SUCCEEDED') && list;
    });
    for (const delivery of all) expect(delivery).toMatchObject({ attemptCount: 1, attempts: [{ statusCode: 200, error: null }] });
  });
});
