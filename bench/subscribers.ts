import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { entities } from '../src/features.js';
import { issueApiKey } from '../src/modules/partners/api-keys.js';
import { ensurePartner } from '../src/modules/partners/service.js';
import { openDatabase } from '../src/platform/db/database.js';
import { startRampServer } from './processes.js';

/**
 * npm run bench:subscribers [-- --sizes=1000,2000 --stretch]
 *
 * For each N: Ramp on a fresh PostgreSQL database of its own (ramp_bench_subs_*), in a child process;
 * N graphql-ws subscribers in worker processes (one connection and one `events` subscription each,
 * spread over PARTNERS partners, half of them filtered to customer.created); then events committed
 * through Ramp's REST API at a steady rate. Prints, per N, the latency from each API request's start
 * to each matching subscriber (an upper bound of commit→client), the server's RSS, its SQL
 * statements per committed event, and lost / duplicated / wrong-partner deliveries. BENCH_CPU_PROF=1 writes
 * Ramp's CPU profile of each measured window to /tmp/ramp-prof/subscribers-<N>.cpuprofile.
 */
const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PARTNERS = 10;
const PER_WORKER = 2500;
const RATE = Number(process.env.BENCH_RATE ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const GOALS = { p99Ms: 200, rssMb: 1024 };

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}`));
/** This process's descriptor limit, which the server child inherits (npm run raises it to the hard limit). */
const openFilesLimit = Number(/Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? Number.POSITIVE_INFINITY);
// The server needs a descriptor per connection and some of its own (database pool, files, listeners).
const stretch = Math.min(20_000, Math.floor((openFilesLimit - 300) / 100) * 100);
const sizes = arg('sizes') ? arg('sizes')!.split('=')[1]!.split(',').map(Number) : [1000, 2000, 5000, 10_000, ...(arg('stretch') ? [stretch] : [])];
const worker = fileURLToPath(new URL('./subscribers-client.ts', import.meta.url));
const print = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function freshDatabase() {
  const name = `ramp_bench_subs_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** Sandbox keys of PARTNERS partners, issued straight in the bench's database. */
async function partnerKeys(databaseUrl: string): Promise<string[]> {
  const db = await openDatabase({ ...loadConfig({ DATABASE_URL: databaseUrl, NODE_ENV: 'development' }), entities });
  try {
    const keys: string[] = [];
    for (let i = 0; i < PARTNERS; i++) {
      const em = db.fork();
      const { partner } = await ensurePartner(em, `Bench subscriber partner ${i}`);
      keys.push(await issueApiKey(em, partner, 'sandbox'));
    }
    return keys;
  } finally {
    await db.close();
  }
}

function ask<T>(child: ChildProcess, message: object, field: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (reply: Record<string, unknown>) => {
      if (!(field in reply)) return;
      child.off('message', onMessage);
      resolve(reply[field] as T);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/** A new customer (one customer.created event); a 503 (the pool busy while thousands subscribe) is retried with the same Idempotency-Key for up to 30 s. */
async function createCustomer(url: string, key: string): Promise<string> {
  const idempotencyKey = randomBytes(16).toString('hex');
  const body = JSON.stringify({ email: `sub-${randomBytes(6).toString('hex')}@example.com`, type: 'individual', first_name: 'Ada', last_name: 'Lovelace' });
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${url}/v0/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body,
    });
    const answer = (await res.json()) as { customer_id?: string };
    if (res.status === 201 && answer.customer_id) return answer.customer_id;
    if (res.status !== 503 || attempt === 30) throw new Error(`customer not created: ${res.status} ${JSON.stringify(answer)}`);
    await sleep(1000);
  }
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN);

async function run(n: number) {
  const database = await freshDatabase();
  const server = await startRampServer('ramp', { DATABASE_URL: database.url, DB_POOL_MAX: '20' });
  const workers: ChildProcess[] = [];
  try {
    const idleRssMb = server.rssMb();
    const keys = await partnerKeys(database.url);
    const specs = Array.from({ length: n }, (_, i) => ({ key: keys[i % PARTNERS]!, partner: i % PARTNERS, createdOnly: i % 2 === 1 }));
    const count = Math.max(2, Math.ceil(n / PER_WORKER));
    for (let w = 0; w < count; w++) workers.push(fork(worker, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    const opening = Date.now();
    const opened = await Promise.all(
      workers.map((child, w) => ask<{ failures: number }>(child, { cmd: 'open', url: server.url, specs: specs.filter((_, i) => i % count === w) }, 'opened')),
    );
    const refused = opened.reduce((a, o) => a + o.failures, 0);
    if (refused) print(`${refused} of ${n} connections failed to open; measuring the rest`);

    // Warm-up: every subscriber has joined once it has received an event committed after it subscribed.
    const probes: string[] = [];
    for (;;) {
      probes.push(...(await Promise.all(keys.map((key) => createCustomer(server.url, key)))));
      await sleep(1000);
      const ready = (await Promise.all(workers.map((child) => ask<number>(child, { cmd: 'ready', ids: probes }, 'ready')))).reduce((a, b) => a + b, 0);
      if (ready >= n - refused) break;
      if (Date.now() - opening > 300_000) throw new Error(`only ${ready} of ${n} subscribers ready after 5 minutes`);
    }
    const readyAfterS = (Date.now() - opening) / 1000;

    const commits: Record<string, { partner: number; at: number }> = {};
    let failedCommits = 0;
    let rssMax = server.rssMb();
    const sampler = setInterval(() => (rssMax = Math.max(rssMax, server.rssMb())), 250);
    const sqlBefore = await server.sqlCount();
    await server.cpuProfile('start', `subscribers-${n}`);
    const total = RATE * SECONDS;
    const started = Date.now();
    const pending: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      await sleep(Math.max(0, started + (i * 1000) / RATE - Date.now()));
      const partner = i % PARTNERS;
      const at = Date.now();
      pending.push(
        createCustomer(server.url, keys[partner]!).then(
          (id) => {
            commits[id] = { partner, at };
          },
          () => void failedCommits++,
        ),
      );
    }
    await Promise.all(pending);
    await sleep(3000);
    await server.cpuProfile('stop', `subscribers-${n}`);
    clearInterval(sampler);
    const sqlPerEvent = ((await server.sqlCount()) - sqlBefore) / total;

    const reports = await Promise.all(
      workers.map((child) => ask<{ latencies: number[]; lost: number; duplicated: number; wrongPartner: number }>(child, { cmd: 'report', commits }, 'report')),
    );
    const latencies = reports.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const sum = (field: 'lost' | 'duplicated' | 'wrongPartner') => reports.reduce((a, r) => a + r[field], 0);
    return {
      n,
      deliveries: latencies.length,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? Number.NaN,
      rssMb: Math.round(rssMax),
      idleRssMb: Math.round(idleRssMb),
      rssPerSubscriberKb: Math.round(((rssMax - idleRssMb) * 1024) / n),
      sqlPerEvent: Number(sqlPerEvent.toFixed(1)),
      failedCommits,
      lost: sum('lost'),
      duplicated: sum('duplicated'),
      wrongPartner: sum('wrongPartner'),
      readyAfterS,
      refused,
    };
  } finally {
    await Promise.all(
      workers.map(
        (child) =>
          new Promise((resolve) => {
            child.once('exit', resolve);
            child.send({ cmd: 'close' });
          }),
      ),
    );
    await server.stop();
    await database.drop();
  }
}

const rows = [];
if (arg('stretch') && stretch < 20_000) {
  print(`stretch: ${stretch} subscribers, not 20,000: one server process holds at most ${openFilesLimit} descriptors here (ulimit -Hn)`);
}
print(`subscribers bench: ${PARTNERS} partners, ${RATE} events/s for ${SECONDS} s, goals p99 ≤ ${GOALS.p99Ms} ms and RSS ≤ ${GOALS.rssMb} MB at 10k`);
for (const n of sizes) {
  const row = await run(n);
  rows.push(row);
  print(JSON.stringify(row));
}
const show = (value: number, goal: number) => `${value}${value <= goal ? ' ✓' : ' ✗'}`;
print(
  '\n| subscribers | deliveries | p50 ms | p99 ms (≤ 200) | max ms | server RSS MB (≤ 1024) | KB / subscriber | SQL / event | lost | duplicated | wrong partner |',
);
print('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  print(
    `| ${r.n} | ${r.deliveries} | ${r.p50} | ${show(r.p99, GOALS.p99Ms)} | ${r.max} | ${show(r.rssMb, GOALS.rssMb)} | ${r.rssPerSubscriberKb} | ${r.sqlPerEvent} | ${r.lost} | ${r.duplicated} | ${r.wrongPartner} |`,
  );
}
process.exit(rows.every((r) => r.lost === 0 && r.duplicated === 0 && r.wrongPartner === 0) ? 0 : 1);
