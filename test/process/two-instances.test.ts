import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRamp, type Ramp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { issueApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { apiClient, freshDatabaseEnv, onPostgres } from '../support/ramp.js';
import { subscribe, wsClient } from '../support/clients/subscriptions.js';
import { type Receiver, sleep, startReceiver, waitFor } from '../support/clients/webhook-receiver.js';

// Instances are stateless; PostgreSQL is the record and the job queue.
describe.runIf(onPostgres)('two instances on one PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
  let env: Record<string, string>;
  const instances: Ramp[] = [];
  const receivers: Receiver[] = [];
  const clients: Client[] = [];
  const children: ChildProcess[] = [];
  let a: Ramp;
  let b: Ramp;
  let partners = 0;

  const start = async () => {
    const ramp = await createRamp(loadConfig(env));
    await ramp.listen();
    instances.push(ramp);
    return ramp;
  };
  const keyOn = async (ramp: Ramp) => {
    const em = ramp.db.fork();
    return issueApiKey(em, (await ensurePartner(em, `Scale Partner ${++partners}`)).partner, 'sandbox');
  };
  const receiver = async (answer?: Parameters<typeof startReceiver>[0]) => {
    const r = await startReceiver(answer);
    receivers.push(r);
    return r;
  };
  const createCustomer = async (on: Ramp | string, key: string, name: string) => {
    const res = await apiClient(typeof on === 'string' ? on : on.url(), key).post('/v0/customers', {
      email: `${name}@example.com`,
      type: 'corporate',
      company_name: name,
    });
    expect(res.status).toBe(201);
    return res.body.customer_id as string;
  };
  const sql = <T>(query: string, params: unknown[] = []) => instances.at(-1)!.db.fork().execute(query, params) as Promise<T[]>;
  /** The attempt log of an endpoint's delivery, read once the delivery has succeeded. */
  const attemptsOnceDelivered = (endpointId: string) =>
    waitFor(async () => {
      const rows = await sql<{ number: number; instance: string; status_code: number | null; error: string | null; finished_at: Date | null; status: string }>(
        `select a.number, a.instance, a.status_code, a.error, a.finished_at, d.status from webhook_delivery_attempts a
         join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ? order by a.number`,
        [endpointId],
      );
      return rows.at(-1)?.status === 'succeeded' && rows;
    });

  beforeAll(async () => {
    database = await freshDatabaseEnv();
    env = {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      ...database.env,
      WEBHOOK_RETRY_TIME_SCALE: '0.001',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_TIMEOUT_MS: '1500',
      // Slow on purpose: within a second, only LISTEN/NOTIFY can carry an event across instances.
      EVENTS_CATCHUP_INTERVAL_MS: '5000',
    };
    a = await start();
    b = await start();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    for (const child of children) child.kill('SIGKILL');
    for (const ramp of instances) await ramp.close().catch(() => undefined);
    await Promise.all(receivers.map((r) => r.close()));
    await database.drop();
  });

  it('a mutation on instance A reaches a subscriber on instance B within one second', async () => {
    const key = await keyOn(a);
    const client = wsClient(b.url(), key);
    clients.push(client);
    const sub = subscribe(client, `subscription { events(after: "0") { cursor type entityId } }`, {}, 'events');
    await sleep(300); // let the subscription settle on B
    const sent = Date.now();
    const id = await createCustomer(a, key, 'crossing');
    await waitFor(() => sub.items.length >= 1, 1000, 'the event on B');
    expect(Date.now() - sent).toBeLessThan(1000);
    expect(sub.items).toEqual([expect.objectContaining({ type: 'CUSTOMER_CREATED', entityId: id })]);
  });

  it('delivers each webhook once per endpoint, not once per instance', async () => {
    const key = await keyOn(a);
    const endpoints = [await receiver(), await receiver(), await receiver()];
    for (const [i, r] of endpoints.entries()) {
      const res = await apiClient((i % 2 ? b : a).url(), key).post('/v0/webhooks', { url: r.url });
      expect(res.status).toBe(201);
    }
    const customers: string[] = [];
    for (let i = 0; i < 10; i++) customers.push(await createCustomer(i % 2 ? b : a, key, `once${i}`));
    await waitFor(() => endpoints.every((r) => r.received.length >= 10), 10_000, 'ten deliveries on each endpoint');
    await sleep(500);
    for (const r of endpoints) {
      expect(r.received).toHaveLength(10);
      expect(new Set(r.received.map((req) => req.headers['webhook-id'])).size).toBe(10);
      expect(r.received.map((req) => req.json.entity_id).sort()).toEqual([...customers].sort());
    }
    const attempts = await sql<{ n: number }>(
      `select count(*)::int as n from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id
       join webhook_endpoints w on w.id = d.endpoint_id where w.url in (?)`,
      [endpoints.map((r) => r.url)],
    );
    expect(attempts[0]!.n).toBe(30);
  });

  it('loses nothing when the instance making a delivery stops mid-attempt: the other one delivers it', async () => {
    const key = await keyOn(a);
    const r = await receiver((_, n) => (n === 0 ? 'hang' : 200));
    const { id: endpointId } = (await apiClient(a.url(), key).post('/v0/webhooks', { url: r.url })).body;
    await createCustomer(a, key, 'handover');
    await waitFor(() => r.received.length === 1, 10_000, 'the first attempt');
    const [open] = await sql<{ instance: string }>(
      `select a.instance from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ?`,
      [endpointId],
    );
    const holder = [a, b].find((ramp) => ramp.dispatcher.instance === open!.instance)!;
    const survivor = holder === a ? b : a;
    await holder.close();
    instances.splice(instances.indexOf(holder), 1);

    await waitFor(() => r.received.length === 2, 10_000, 'the delivery by the other instance');
    expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    const attempts = await attemptsOnceDelivered(endpointId);
    expect(attempts.map((x) => [x.number, x.instance, x.status_code])).toEqual([
      [1, holder.dispatcher.instance, null],
      [2, survivor.dispatcher.instance, 200],
    ]);
    expect(attempts[0]!.error).toMatch(/^interrupted/);
  });

  it('loses nothing when an instance is killed (SIGKILL) mid-delivery: another takes it over when its lease runs out', async () => {
    const key = await keyOn(instances.at(-1)!);
    const r = await receiver((_, n) => (n === 0 ? 'hang' : 200));
    const { id: endpointId } = (await apiClient(instances.at(-1)!.url(), key).post('/v0/webhooks', { url: r.url })).body;
    // Only the process about to be killed runs, so it is the one that takes the delivery.
    for (const ramp of instances.splice(0)) await ramp.close();
    const child = await spawnInstance(env);
    children.push(child.process);
    await createCustomer(child.url, key, 'killed');
    await waitFor(() => r.received.length === 1, 10_000, 'the first attempt');
    child.process.kill('SIGKILL');
    await once(child.process, 'exit');

    const successor = await start();
    await waitFor(() => r.received.length === 2, 15_000, 'the delivery after the lease ran out');
    expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    const attempts = await attemptsOnceDelivered(endpointId);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.instance.startsWith(`${hostname()}/${child.process.pid}/`)).toBe(true);
    expect(attempts[0]).toMatchObject({ number: 1, status_code: null, finished_at: null }); // it died mid-attempt
    expect(attempts[1]).toMatchObject({ number: 2, instance: successor.dispatcher.instance, status_code: 200 });
  });
});

/** Starts `src/main.ts` in a child process, as a real deployment would, and resolves with it and its address. */
async function spawnInstance(env: Record<string, string>): Promise<{ process: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /GraphQL:\s+(http:\/\/\S+)\/graphql/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`instance exited (${code}) before listening: ${out}`)));
  });
  return { process: child, url };
}
