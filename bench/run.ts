/**
 * `npm run bench`: Ramp against its baselines on this machine, side by side (bench/README.md says how to read it).
 * Starts its own database copy (ramp_bench_perf_<pid>, seeded through Ramp's REST API), Ramp on it and on
 * embedded PGlite, the floor server and PostGraphile V5, each in a child process on a loopback port;
 * then runs every row in interleaved rounds and prints medians. Everything it started is stopped and dropped.
 *
 * BENCH_ROUNDS (3), BENCH_SECONDS (8 per measurement), BENCH_CONNECTIONS (32), BENCH_WEBHOOKS (5000 per round),
 * BENCH_CUSTOMERS (50) and BENCH_TRANSFERS (5000, spread over them): the size of the seeded data,
 * BENCH_ONLY (comma list of rows: p1-rest,p1-graphql,p1-best,p2,console,p5,pglite,p4), BENCH_CPU_PROF=1 (a V8 CPU profile of each of Ramp's measured windows in /tmp/ramp-prof).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { customerPage, transfersBoard } from './console.js';
import { cursorCost } from './cursor-cost.js';
import { createBenchDatabase } from './database.js';
import { type Client, type LoadResult, runLoad, sleep } from './load.js';
import { POSTGRAPHILE_TRANSFERS_PAGE, TRANSFER_BY_ID, TRANSFERS_PAGE, pageSize } from './operations.js';
import { type Server, freePort, startRampServer, startServer } from './processes.js';
import { startReceiver } from './baselines/receiver.js';
import { quoteBody, seed, transferBody } from './seed.js';
import { type Measurement, type Row, printRows } from './report.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 5000);
// The independent harness measured on 50 customers and 5,000 transfers: the same size by default.
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 50);
const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 5000);
const ONLY = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const wanted = (row: string) => !ONLY || ONLY.includes(row);

const log = (line: string) => process.stderr.write(`${line}\n`);
const started: Server[] = [];
const cleanups: (() => Promise<void>)[] = [];

type Iteration = (client: Client, worker: number, n: number) => Promise<void>;
interface Target {
  server: Server;
  iteration: Iteration;
}

/** One load run against one server, with the statements it sent per iteration. */
async function measure({ server, iteration }: Target, label: string): Promise<Measurement> {
  const before = await server.sqlCount();
  const cpuBefore = server.cpuMs();
  await server.cpuProfile('start', label);
  const result: LoadResult = await runLoad({ url: server.url, connections: CONNECTIONS, seconds: SECONDS, iteration });
  await server.cpuProfile('stop', label);
  const after = await server.sqlCount();
  const cpu = server.cpuMs() - cpuBefore;
  // Statements of the warm-up and the measured window, per iteration of both: warm-up iterations are not in `iterations`.
  const total = result.iterations + result.warmupIterations;
  return {
    ...result,
    sqlPerIteration: total ? (after - before) / total : Number.NaN,
    cpuMsPerIteration: total ? cpu / total : Number.NaN,
    rssMb: server.rssMb(),
  };
}

/** Rounds of baseline and Ramp, alternating which goes first. */
async function compare(name: string, ramp: Target, baseline: Target): Promise<{ ramp: Measurement[]; baseline: Measurement[] }> {
  const out = { ramp: [] as Measurement[], baseline: [] as Measurement[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['baseline', 'ramp'] as const) : (['ramp', 'baseline'] as const);
    for (const which of order) {
      const m = await measure(which === 'ramp' ? ramp : baseline, `${name.replace(/\W+/g, '-')}-round${round + 1}-${which}`);
      out[which].push(m);
      log(
        `  ${name} round ${round + 1} ${which}: ${m.throughput.toFixed(0)}/s p50 ${m.p50.toFixed(1)} ms p99 ${m.p99.toFixed(1)} ms, ${m.sqlPerIteration.toFixed(2)} SQL, ${m.cpuMsPerIteration.toFixed(2)} ms CPU, ${m.errors} errors${m.firstError ? ` (${m.firstError})` : ''}`,
      );
      await sleep(500);
    }
  }
  return out;
}

async function main() {
  const database = await createBenchDatabase();
  cleanups.push(database.drop);
  log(`database ${database.name}`);
  const ramp = await startRampServer('ramp', { DATABASE_URL: database.url });
  started.push(ramp);
  const auth = { authorization: `Bearer ${ramp.key}` };
  log(`seeding through the REST API: ${CUSTOMERS} customers, ${TRANSFERS} on-ramp transfers`);
  const data = await seed(ramp.url, ramp.key, { customers: CUSTOMERS, transfersPerCustomer: Math.ceil(TRANSFERS / CUSTOMERS) });
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  cleanups.unshift(() => admin.end());
  const partnerId = (await admin.query('select partner_id from api_keys limit 1')).rows[0].partner_id as string;

  const pick = (n: number) => data.transfers[n % data.transfers.length]!;
  const readRest =
    (key: string, transfers = data.transfers): Iteration =>
    async (client, _w, n) => {
      const { customerId, transferId } = transfers[n % transfers.length]!;
      await client.send({ method: 'GET', path: `/v0/customers/${customerId}/onramp-transfer/${transferId}`, headers: { authorization: `Bearer ${key}` } });
    };
  const graphql =
    (query: string, variables: (n: number) => Record<string, unknown>, check?: (body: unknown) => void): Iteration =>
    async (client, _w, n) => {
      const body = await client.send({ method: 'POST', path: '/graphql', headers: auth, body: JSON.stringify({ query, variables: variables(n) }) });
      check?.(body);
    };
  const fullPage = (body: unknown) => {
    if (pageSize(body) !== 100) throw new Error(`a page of ${pageSize(body)} transfers, not 100`);
  };
  const pair: Iteration = async (client, _w, n) => {
    const customerId = data.customers[n % data.customers.length]!;
    const quote = (await client.send({ method: 'POST', path: `/v0/customers/${customerId}/onramp-transfer/quote`, headers: auth, body: quoteBody })) as {
      quote_id: string;
    };
    await client.send({ method: 'POST', path: `/v0/customers/${customerId}/onramp-transfer/quote/${quote.quote_id}`, headers: auth, body: transferBody });
  };

  const rows: Row[] = [];
  const needFloor = ['p1-rest', 'p1-graphql', 'p5'].some(wanted);
  const floor = needFloor
    ? await startServer('floor', 'bench/baselines/floor.ts', { DATABASE_URL: database.url, PORT: String(await freePort()) }, /listening on (http:\/\/\S+)/)
    : null;
  if (floor) started.push(floor);

  if (wanted('p1-rest')) {
    log('P1 REST GET /v0/customers/{id}/onramp-transfer/{id}');
    const r = await compare('P1 REST', { server: ramp, iteration: readRest(ramp.key) }, { server: floor!, iteration: readRest(ramp.key) });
    rows.push({ name: 'P1 REST GET …/onramp-transfer/{id}', unit: 'req/s', baselineName: 'floor (node:http + pg Pool 10)', goal: { ratio: 0.8 }, ...r });
  }
  if (wanted('p1-graphql')) {
    log('P1 GraphQL transfer(id)');
    const r = await compare(
      'P1 GraphQL',
      { server: ramp, iteration: graphql(TRANSFER_BY_ID, (n) => ({ id: pick(n).transferId })) },
      { server: floor!, iteration: readRest(ramp.key) },
    );
    rows.push({ name: 'P1 GraphQL transfer(id)', unit: 'req/s', baselineName: 'floor (same)', goal: { ratio: 0.7 }, ...r });
  }
  if (wanted('p1-best')) {
    // Where the limit is: the best plain service (key in memory, one prepared statement).
    const best = await startServer(
      'best',
      'bench/baselines/best.ts',
      { DATABASE_URL: database.url, PORT: String(await freePort()) },
      /listening on (http:\/\/\S+)/,
    );
    started.push(best);
    log('P1 against the best plain service (REST, then GraphQL)');
    const rest = await compare('P1 REST vs best', { server: ramp, iteration: readRest(ramp.key) }, { server: best, iteration: readRest(ramp.key) });
    rows.push({
      name: 'P1 REST GET …/onramp-transfer/{id}',
      unit: 'req/s',
      baselineName: 'best plain service (key in memory, one prepared statement)',
      goal: { ratio: 0.6 },
      ...rest,
    });
    const gql = await compare(
      'P1 GraphQL vs best',
      { server: ramp, iteration: graphql(TRANSFER_BY_ID, (n) => ({ id: pick(n).transferId })) },
      { server: best, iteration: readRest(ramp.key) },
    );
    rows.push({ name: 'P1 GraphQL transfer(id)', unit: 'req/s', baselineName: 'best plain service (same)', goal: { ratio: 0.5 }, ...gql });
    await best.stop();
  }
  const postgraphile =
    wanted('p2') || wanted('console')
      ? await startServer(
          'postgraphile',
          'bench/baselines/postgraphile.ts',
          { DATABASE_URL: database.url, PORT: String(await freePort()), NODE_ENV: 'production' },
          /listening on (http:\/\/\S+)/,
        )
      : null;
  if (postgraphile) started.push(postgraphile);
  const postgraphilePage: Target | null = postgraphile && {
    server: postgraphile,
    iteration: graphql(POSTGRAPHILE_TRANSFERS_PAGE, () => ({ partnerId }), fullPage),
  };
  if (wanted('p2')) {
    log("P2: what a page's cursors cost, in process");
    rows.push(cursorCost(ROUNDS));
    log('P2 GraphQL transfers(first: 100) with customer and quote, a cursor on every edge');
    const r = await compare('P2', { server: ramp, iteration: graphql(TRANSFERS_PAGE, () => ({}), fullPage) }, postgraphilePage!);
    rows.push({
      name: 'P2 GraphQL transfers(first:100) + customer + quote + cursors',
      unit: 'req/s',
      baselineName: 'PostGraphile V5 allTransfers',
      goal: { ratio: 1.2 },
      ...r,
    });
  }
  if (wanted('console')) {
    // No goal: printed to be watched, against the P2 baseline's page as a yardstick of one list read.
    const send = (client: Client, query: string, variables: Record<string, unknown>) =>
      client.send({ method: 'POST', path: '/graphql', headers: auth, body: JSON.stringify({ query, variables }) });
    log('Console: the Transfers board as it opens (Transfers, TransferVolume, LatestEvents at once)');
    const board = await compare('Console board', { server: ramp, iteration: transfersBoard(send) }, postgraphilePage!);
    rows.push({
      name: 'Console Transfers board (3 queries at once)',
      unit: 'boards/s',
      baselineName: 'PostGraphile V5 allTransfers (P2 page)',
      goal: {},
      ...board,
    });
    log("Console: a customer's page");
    const page = await compare('Console customer', { server: ramp, iteration: customerPage(send, data.customers) }, postgraphilePage!);
    rows.push({ name: 'Console customer page (CustomerPage)', unit: 'pages/s', baselineName: 'PostGraphile V5 allTransfers (P2 page)', goal: {}, ...page });
  }
  if (wanted('p5')) {
    log('P5 on-ramp quote + transfer over REST (pairs)');
    const r = await compare('P5', { server: ramp, iteration: pair }, { server: floor!, iteration: pair });
    rows.push({
      name: 'P5 REST on-ramp quote + transfer',
      unit: 'pairs/s',
      baselineName: 'floor (same statements, a transaction each)',
      goal: { ratio: 0.5, everyRound: true },
      ...r,
    });
  }
  if (wanted('pglite')) {
    const dir = mkdtempSync(join(tmpdir(), 'ramp-bench-pglite-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const embedded = await startRampServer('ramp-pglite', { DATA_DIR: join(dir, 'data') });
    started.push(embedded);
    log('seeding embedded PGlite: 10 customers, 50 transfers');
    const small = await seed(embedded.url, embedded.key, { customers: 10, transfersPerCustomer: 5 });
    log('PGlite: P1 REST on embedded PGlite vs Ramp on PostgreSQL');
    const r = await compare(
      'PGlite',
      { server: embedded, iteration: readRest(embedded.key, small.transfers) },
      { server: ramp, iteration: readRest(ramp.key) },
    );
    rows.push({ name: 'P1 REST on embedded PGlite', unit: 'req/s', baselineName: 'Ramp on PostgreSQL (same run)', goal: { ratio: 0.5, p99Ms: 100 }, ...r });
    await embedded.stop();
  }
  if (wanted('p4')) rows.push(await webhooks(ramp, admin, partnerId));

  // Memory that stays, apart from memory V8 merely had no reason to give back yet: idle, then a full collection.
  await sleep(2000);
  const atRest = await ramp.memoryAtRest();
  printRows(rows, { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, atRest });
}

/**
 * P4: events written straight into the outbox (a batch per round, copies of a real event's payload),
 * delivered by Ramp's dispatcher to a loopback receiver; the rate is from the batch's commit to its
 * last new arrival. Baseline: a plain keep-alive client posting the same bodies to the same receiver.
 */
async function webhooks(ramp: Server & { key: string }, admin: pg.Client, partnerId: string): Promise<Row> {
  const receiver = await startReceiver();
  cleanups.unshift(receiver.close);
  const res = await fetch(`${ramp.url}/v0/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ramp.key}`, 'content-type': 'application/json' },
    // BENCH_WEBHOOK_QUERY: a webhook defined by this subscription query (README "Webhooks defined by a subscription query").
    body: JSON.stringify({ url: receiver.url, subscription_query: process.env.BENCH_WEBHOOK_QUERY || undefined }),
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`webhook not registered: ${res.status} ${await res.text()}`);
  const sample = (await admin.query('select payload from events where partner_id = $1 order by cursor desc limit 1', [partnerId])).rows[0].payload;
  const body = JSON.stringify({ type: 'onramp_transfer.created', data: sample });
  const out = { ramp: [] as Measurement[], baseline: [] as Measurement[] };
  log(`P4 webhooks: ${WEBHOOKS} events a round`);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['baseline', 'ramp'] as const) : (['ramp', 'baseline'] as const);
    for (const which of order) {
      receiver.reset();
      let m: Measurement;
      if (which === 'ramp') {
        const before = await ramp.sqlCount();
        await ramp.cpuProfile('start', `P4-round${round + 1}-ramp`);
        const start = performance.now();
        await admin.query(
          `insert into events (id, type, entity_type, entity_id, partner_id, environment, payload, subject, created_at)
           select gen_random_uuid(), e.type, e.entity_type, e.entity_id, e.partner_id, e.environment, e.payload, e.subject, now()
           from (select * from events where partner_id = $1 order by cursor desc limit 1) e, generate_series(1, $2)`,
          [partnerId, WEBHOOKS],
        );
        await admin.query(`select pg_notify('ramp_events', (select max(cursor)::text from events))`);
        const deadline = Date.now() + 180_000;
        while (receiver.unique < WEBHOOKS && Date.now() < deadline) await sleep(20);
        const seconds = (receiver.lastArrival - start) / 1000;
        await ramp.cpuProfile('stop', `P4-round${round + 1}-ramp`);
        await sleep(1500); // late duplicates would show here
        const sql = (await ramp.sqlCount()) - before;
        m = baseMeasurement(receiver.unique / seconds, WEBHOOKS - receiver.unique, receiver.duplicates, sql / WEBHOOKS, ramp.rssMb());
      } else {
        const pool = new Pool(new URL(receiver.url).origin, { connections: 64 });
        const start = performance.now();
        let next = 0;
        await Promise.all(
          Array.from({ length: 64 }, async () => {
            while (next < WEBHOOKS) {
              const id = next++;
              const r = await pool.request({ method: 'POST', path: '/hook', headers: { 'content-type': 'application/json', 'webhook-id': `msg_${id}` }, body });
              await r.body.dump();
            }
          }),
        );
        const seconds = (performance.now() - start) / 1000;
        await pool.close();
        m = baseMeasurement(receiver.unique / seconds, WEBHOOKS - receiver.unique, receiver.duplicates, 0, Number.NaN);
      }
      out[which].push(m);
      log(
        `  P4 round ${round + 1} ${which}: ${m.throughput.toFixed(0)}/s, ${m.errors} lost, ${m.duplicates} duplicated, ${m.sqlPerIteration.toFixed(2)} SQL per delivery`,
      );
      await sleep(500);
    }
  }
  return {
    name: 'P4 webhook deliveries to a loopback receiver',
    unit: 'deliveries/s',
    baselineName: 'plain HTTP client, same bodies',
    goal: { absolute: 2000 },
    ...out,
  };
}

const baseMeasurement = (throughput: number, lost: number, duplicates: number, sqlPerIteration: number, rssMb: number): Measurement => ({
  throughput,
  p50: Number.NaN,
  p99: Number.NaN,
  iterations: 0,
  warmupIterations: 0,
  errors: lost,
  duplicates,
  sqlPerIteration,
  cpuMsPerIteration: Number.NaN,
  rssMb,
});

try {
  await main();
} finally {
  for (const server of started.reverse()) await server.stop().catch(() => undefined);
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
}
process.exit(0);
