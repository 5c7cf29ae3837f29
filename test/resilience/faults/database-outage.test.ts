import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import { Writable } from 'node:stream';
import WebSocket from 'ws';
import { createLogger } from '../../../src/platform/observability/logging.js';
import { createRamp, type Ramp } from '../../../src/app.js';
import { watchContract } from '../../support/clients/contract.js';
import { loadConfig } from '../../../src/config.js';
import { type Load, type LoadSample, startLoad } from '../../support/load.js';
import { type PrivatePostgres, startPrivatePostgres } from '../../support/private-postgres.js';
import { type Receiver, sleep, startReceiver, waitFor } from '../../support/clients/webhook-receiver.js';

/**
 * Ramp on a PostgreSQL cluster of the test's own, under a steady read+write load, while
 * that cluster is restarted, crashed, has its connections killed, or stays down. For each fault:
 * requests fail fast with 503 database_unavailable (never hang, never 500), /readyz tells the truth
 * within a second, Ramp serves 2xx again within 2 s of PostgreSQL accepting connections, and at the
 * end every acknowledged write and its event are there once, delivered by webhook and subscription.
 */
const ACQUIRE_TIMEOUT_MS = 1000;
const STATEMENT_TIMEOUT_MS = 3000;
/** No request may take longer than its bounded waits plus scheduling slack on a busy 2-core machine. */
const LONGEST_REQUEST_MS = ACQUIRE_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + 2000;
const RECOVERY_MS = 2000;

let cluster: PrivatePostgres;
let ramp: Ramp;
let contract: ReturnType<typeof watchContract> | undefined;
let url: string;
let key: string;
let receiver: Receiver;
let load: Load;
const readiness: { at: number; ms: number; status: number | 'hang' }[] = [];
let probing = true;
let probe: Promise<void>;
const streamed = new Map<string, number>(); // event id → times received by the subscriber
let subscriber: ReturnType<typeof createClient>;
/** Every log line at error level or above (pino level ≥ 50). */
const errorLines: { msg: string; err?: { message?: string } }[] = [];
const logSink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      const entry = JSON.parse(line);
      if (entry.level >= 50) errorLines.push(entry);
    }
    done();
  },
});

async function readyz(): Promise<number | 'hang'> {
  return fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) }).then(
    (r) => r.status,
    () => 'hang' as const,
  );
}

/** Polls /readyz every 100 ms for the whole run, recording how long each answer took. */
async function probeReadiness() {
  while (probing) {
    const at = Date.now();
    const status = await readyz();
    readiness.push({ at, ms: Date.now() - at, status });
    await sleep(100);
  }
}

/** A graphql-ws subscriber to `events` that resumes from its last cursor whenever its stream ends. */
function followEvents() {
  let last = '0';
  const client = createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: Infinity,
    retryWait: async () => void (await sleep(200)),
    shouldRetry: () => true,
  });
  const subscribeFromLast = () => {
    client.subscribe<{ events: { id: string; cursor: string } }>(
      { query: 'subscription($after: String) { events(after: $after) { id: databaseId cursor } }', variables: { after: last } },
      {
        next: ({ data }) => {
          if (!data) return;
          last = data.events.cursor;
          streamed.set(data.events.id, (streamed.get(data.events.id) ?? 0) + 1);
        },
        error: () => setTimeout(subscribeFromLast, 200),
        complete: () => setTimeout(subscribeFromLast, 200),
      },
    );
  };
  subscribeFromLast();
  return client;
}

beforeAll(async () => {
  cluster = await startPrivatePostgres();
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: cluster.url,
    DB_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_TIMEOUT_MS),
    DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    // Only the LISTEN connection may wake subscribers and the dispatcher quickly: a catch-up poll this
    // rare would show a LISTEN connection that never came back.
    EVENTS_CATCHUP_INTERVAL_MS: '60000',
    WEBHOOK_POLL_INTERVAL_MS: '200',
    WEBHOOK_RETRY_TIME_SCALE: '0.001',
    JOBS_INTERVAL_MS: '500',
  });
  ramp = await createRamp(config, { logger: createLogger('warn', logSink) });
  // The outage's 503s (and everything else under load) must keep openapi.json's contract too.
  contract = watchContract(ramp);
  url = await ramp.listen();
  key = ramp.demoKey!;
  receiver = await startReceiver();
  const endpoint = await fetch(`${url}/v0/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url }),
  });
  expect(endpoint.status).toBe(201);
  subscriber = followEvents();
  probe = probeReadiness();
  load = startLoad(url, key, { concurrency: 16, timeoutMs: LONGEST_REQUEST_MS + 5000 });
  await waitFor(() => load.acknowledged.length > 50, 20_000, 'the load to get going');
}, 120_000);

afterAll(async () => {
  probing = false;
  await load?.stop();
  await probe;
  await subscriber?.dispose();
  await ramp?.close();
  await receiver?.close();
  await cluster?.destroy();
  contract?.assertKept();
});

/** What the load saw from `from` on, and when Ramp first answered 2xx to a request started after `upAt`. */
async function outcome(from: number, upAt: number) {
  const firstSuccess = await waitFor(
    () => load.samples.find((s) => s.startedAt >= upAt && s.status >= 200 && s.status < 300),
    RECOVERY_MS + 5000,
    'a 2xx after PostgreSQL came back',
  );
  await sleep(300);
  const window = load.samples.filter((s) => s.startedAt >= from);
  return { window, recoveryMs: firstSuccess.startedAt + firstSuccess.ms - upAt };
}

function expectFailedFast(window: LoadSample[]) {
  const failures = window.filter((s) => s.status < 200 || s.status >= 300);
  // The only failure a client sees is the documented, retryable one.
  expect(failures.filter((s) => s.status !== 503 || s.code !== 'database_unavailable')).toEqual([]);
  expect(Math.max(0, ...window.map((s) => s.ms))).toBeLessThanOrEqual(LONGEST_REQUEST_MS);
}

function expectReadinessNeverHung(from: number) {
  const probes = readiness.filter((p) => p.at >= from);
  expect(probes.filter((p) => p.status === 'hang' || p.ms > 1000)).toEqual([]);
}

async function survives(fault: () => Promise<number>) {
  const from = Date.now();
  const upAt = await fault();
  const { window, recoveryMs } = await outcome(from, upAt);
  expectFailedFast(window);
  expectReadinessNeverHung(from);
  expect(recoveryMs).toBeLessThanOrEqual(RECOVERY_MS);
  expect(await readyz()).toBe(200);
}

/** The same outage answered in each face's documented shape: the Encryptus envelope, GraphQL over HTTP, graphql-ws. */
async function expectOutageInEveryShape() {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const encryptus = await fetch(`${url}/v1/partners/accountInfo`, { headers });
  expect(encryptus.status).toBe(503);
  expect(encryptus.headers.get('retry-after')).toBe('1');
  expect(await encryptus.json()).toMatchObject({ success: false, status: 503, code: 'EN-SYS-503', data: { error: 'database_unavailable' } });

  const graphql = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query: '{ customers(first: 1) { edges { node { id } } } }' }),
  });
  expect(graphql.status).toBe(503);
  const body = await graphql.json();
  expect(body.errors.map((e: { extensions?: { code?: string } }) => e.extensions?.code)).toEqual(['DATABASE_UNAVAILABLE']);

  // 1013 Try Again Later, which graphql-ws clients retry; 4403 would tell them their key is bad.
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } })));
  expect(await closed).toBe(1013);
}

describe('Ramp on a PostgreSQL that fails under load', () => {
  it('survives fast restarts (the race that once hung every request for good)', async () => {
    for (let round = 0; round < 10; round++) {
      await survives(async () => {
        await cluster.restart('fast');
        return Date.now();
      });
    }
  });

  it('survives an immediate shutdown and start', async () => {
    await survives(async () => {
      await cluster.restart('immediate');
      return Date.now();
    });
  });

  it('survives kill -9 of the postmaster', async () => {
    await survives(async () => {
      await cluster.killPostmaster();
      return Date.now();
    });
  });

  it("survives pg_terminate_backend of every one of Ramp's connections", async () => {
    for (let round = 0; round < 3; round++) {
      await survives(async () => {
        expect(await cluster.terminateClients()).toBeGreaterThan(0);
        return Date.now();
      });
    }
  });

  it('answers 503 fast and /readyz 503 while PostgreSQL stays down for 10 s, and recovers when it is back', async () => {
    await survives(async () => {
      await cluster.stop('fast');
      const downAt = Date.now();
      await sleep(10_000);
      const down = load.samples.filter((s) => s.startedAt >= downAt + 500);
      expect(down.length).toBeGreaterThan(50);
      expect(down.every((s) => s.status === 503 && s.code === 'database_unavailable')).toBe(true);
      expect(readiness.filter((p) => p.at >= downAt + 500).every((p) => p.status === 503)).toBe(true);
      // Healthy process, unready service: liveness stays 200 so a supervisor does not restart Ramp for PostgreSQL's sake.
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      await expectOutageInEveryShape();
      await cluster.start();
      return Date.now();
    });
  });

  it('logs an outage as warnings: no request, job, dispatcher or subscription logged an unexpected error', () => {
    expect(errorLines.map((line) => `${line.msg}: ${line.err?.message ?? ''}`)).toEqual([]);
  });

  it('keeps every acknowledged write and its event exactly once, delivered by webhook and subscription', async () => {
    await load.stop();
    // A write that got no answer is retried with its key, as the partner guide tells clients to (docs/api/errors.md): at most one customer each.
    const pending = [...load.unacknowledged];
    const retry = async () => {
      for (let write = pending.pop(); write; write = pending.pop()) {
        const retried = await fetch(`${url}/v0/customers`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': write.idempotencyKey },
          body: JSON.stringify({ email: write.email, type: 'individual', first_name: 'Load', last_name: 'Test' }),
        });
        expect([201, 409]).toContain(retried.status); // 409: the first attempt's claim is still being released
      }
    };
    await Promise.all(Array.from({ length: 16 }, retry));
    const acknowledged = load.acknowledged.map((w) => w.id);
    // Every customer so far is the load's (rows keep no email in clear: it is sealed, with a keyed digest beside it).
    const stored = await cluster.sql<{ id: string; events: number }>(
      `select c.id, (select count(*)::int from events e where e.entity_id = c.id and e.type = 'customer.created') as events
       from customers c`,
    );
    const byId = new Map(stored.map((row) => [row.id, row.events]));
    expect(acknowledged.filter((id) => byId.get(id) !== 1)).toEqual([]);
    expect(stored.filter((row) => row.events !== 1)).toEqual([]);
    // No email stored twice: one email, one digest under the tenant's key.
    const emails = await cluster.sql<{ email_digest: string; n: number }>(
      `select email_digest, count(*)::int as n from customers group by email_digest having count(*) > 1`,
    );
    expect(emails).toEqual([]);

    const events = await cluster.sql<{ id: string }>(`select id::text from events where type = 'customer.created'`);
    // A fresh write after the last fault must reach the subscriber through the LISTEN connection alone.
    const last = await fetch(`${url}/v0/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'after-faults@example.com', type: 'individual', first_name: 'After', last_name: 'Faults' }),
    });
    expect(last.status).toBe(201);
    const lastEventId = (await cluster.sql<{ id: string }>(`select id::text from events order by cursor desc limit 1`))[0]!.id;
    await waitFor(() => streamed.has(lastEventId), 5000, 'the subscriber to hear the newest event');
    expect(events.filter((e) => !streamed.has(e.id))).toEqual([]);
    expect([...streamed.values()].filter((n) => n > 1)).toEqual([]);

    const delivered = () => new Set(receiver.received.map((r) => r.json?.event_id));
    await waitFor(() => events.every((e) => delivered().has(e.id)), 60_000, 'every event delivered by webhook');
  });
});
