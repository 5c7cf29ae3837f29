/**
 * `npm run bench:cpu`: what one request costs each server in CPU, the figure a shared machine disturbs least.
 * Throughput on 2 cores shared with the load generator, PostgreSQL and other work moves from run to run; the CPU
 * time a server's own process used per request (/proc, user + system) moves much less, and it is what stands
 * between Ramp and its baselines.
 *
 * BENCH_PATH=p1 (default): P1, one transfer by id. Rows: the best plain service (REST path), the same read on bare
 * Fastify and on bare Yoga in Fastify (best-fastify.ts: what the frameworks alone cost), Ramp REST
 * `GET …/onramp-transfer/{id}` and Ramp GraphQL `transfer(id)`; ratios against the best plain service.
 * BENCH_PATH=p2: P2, a page of 100 transfers with customer, quote and cursors. Rows: PostGraphile V5's page and Ramp's;
 * ratios against PostGraphile.
 * With BENCH_AGAINST=<another checkout> (e.g. /work/main), that checkout's Ramp too, on the same database and key,
 * so a change is measured against the code before it in one run. After a warm-up of each, BENCH_ROUNDS (3) interleaved
 * rounds of BENCH_SECONDS (5) at BENCH_CONNECTIONS (32), medians. BENCH_CPU_PROF=1: a V8 CPU profile of each Ramp row's
 * last round, in /tmp/ramp-prof (BENCH_PROF_DIR).
 */
import pg from 'pg';
import { createBenchDatabase } from './database.js';
import { type Client, runLoad } from './load.js';
import { POSTGRAPHILE_TRANSFERS_PAGE, TRANSFER_BY_ID, TRANSFERS_PAGE, pageSize } from './operations.js';
import { RAMP_SETTINGS, type Server, builtRamp, freePort, startRampServer, startServer } from './processes.js';
import { seed } from './seed.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const AGAINST = process.env.BENCH_AGAINST;
const PATH = process.env.BENCH_PATH ?? 'p1';
if (PATH !== 'p1' && PATH !== 'p2') throw new Error(`BENCH_PATH is p1 or p2, not ${PATH}`);
const log = (line: string) => process.stderr.write(`${line}\n`);
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
};

type Iteration = (client: Client, worker: number, n: number) => Promise<void>;

async function main() {
  const database = await createBenchDatabase();
  const started: Server[] = [];
  try {
    const ramp = await startRampServer('ramp', { DATABASE_URL: database.url });
    started.push(ramp);
    log('seeding 10 customers, 100 transfers');
    const data = await seed(ramp.url, ramp.key, { customers: 10, transfersPerCustomer: 10 });
    const auth = { authorization: `Bearer ${ramp.key}` };
    const rest: Iteration = async (client, _w, n) => {
      const { customerId, transferId } = data.transfers[n % data.transfers.length]!;
      await client.send({ method: 'GET', path: `/v0/customers/${customerId}/onramp-transfer/${transferId}`, headers: auth });
    };
    const graphql: Iteration = async (client, _w, n) => {
      const { transferId } = data.transfers[n % data.transfers.length]!;
      const body = JSON.stringify({ query: TRANSFER_BY_ID, variables: { id: transferId } });
      await client.send({ method: 'POST', path: '/graphql', headers: auth, body });
    };
    const p2: Iteration = async (client) => {
      const body = await client.send({ method: 'POST', path: '/graphql', headers: auth, body: JSON.stringify({ query: TRANSFERS_PAGE }) });
      if (pageSize(body) !== 100) throw new Error(`a page of ${pageSize(body)} transfers, not 100`);
    };
    const rows: { name: string; server: Server; iteration: Iteration }[] = [];
    const startBaseline = async (name: string, script: string, env: Record<string, string> = {}) => {
      const server = await startServer(name, script, { DATABASE_URL: database.url, PORT: String(await freePort()), ...env }, /listening on (http:\/\/\S+)/);
      started.push(server);
      return server;
    };
    if (PATH === 'p1') {
      const best = await startBaseline('best', 'bench/baselines/best.ts');
      const frameworks = await startBaseline('best-fastify', 'bench/baselines/best-fastify.ts');
      rows.push(
        { name: 'best plain service, REST', server: best, iteration: rest },
        { name: 'the same on bare Fastify, REST', server: frameworks, iteration: rest },
        { name: 'the same on bare Yoga in Fastify, GraphQL', server: frameworks, iteration: graphql },
        { name: 'Ramp REST', server: ramp, iteration: rest },
        { name: 'Ramp GraphQL', server: ramp, iteration: graphql },
      );
    } else {
      const postgraphile = await startBaseline('postgraphile', 'bench/baselines/postgraphile.ts', { NODE_ENV: 'production' });
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      const partnerId = (await admin.query('select partner_id from api_keys limit 1')).rows[0].partner_id as string;
      await admin.end();
      const page: Iteration = async (client) => {
        const body = await client.send({
          method: 'POST',
          path: '/graphql',
          headers: {},
          body: JSON.stringify({ query: POSTGRAPHILE_TRANSFERS_PAGE, variables: { partnerId } }),
        });
        if (pageSize(body) !== 100) throw new Error(`a page of ${pageSize(body)} transfers, not 100`);
      };
      rows.push({ name: 'PostGraphile V5 P2', server: postgraphile, iteration: page }, { name: 'Ramp P2', server: ramp, iteration: p2 });
    }
    if (AGAINST) {
      // The other checkout's Ramp on the same database: its migrations are there already, the seeded key works.
      const port = await freePort();
      const before = await startServer(
        'ramp-against',
        builtRamp(AGAINST),
        { ...RAMP_SETTINGS, DATABASE_URL: database.url, PORT: String(port), BOOTSTRAP_DEMO_PARTNER: 'false' },
        /GraphQL:\s+(http:\/\/\S+)\/graphql/,
      );
      started.push(before);
      if (PATH === 'p1')
        rows.push({ name: `${AGAINST} REST`, server: before, iteration: rest }, { name: `${AGAINST} GraphQL`, server: before, iteration: graphql });
      else rows.push({ name: `${AGAINST} P2`, server: before, iteration: p2 });
    }
    // Every server's code warmed (JIT, pools, caches) before anything is counted.
    for (const row of rows) await runLoad({ url: row.server.url, connections: CONNECTIONS, seconds: 2, warmupSeconds: 0, iteration: row.iteration });
    const figures = new Map(rows.map((row) => [row.name, { cpu: [] as number[], rate: [] as number[], errors: 0 }]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? rows : [...rows].reverse();
      for (const row of order) {
        // With BENCH_CPU_PROF, Ramp's profile of each of its rows' last round (/tmp/ramp-prof/cpu-<row>.cpuprofile).
        const label = `cpu-${row.name.replace(/[^A-Za-z0-9]+/g, '-')}`;
        const profiled = round === ROUNDS - 1;
        if (profiled) await row.server.cpuProfile('start', label);
        const cpuBefore = row.server.cpuMs();
        const result = await runLoad({ url: row.server.url, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: 1, iteration: row.iteration });
        const cpu = row.server.cpuMs() - cpuBefore;
        if (profiled) await row.server.cpuProfile('stop', label);
        const reads = result.iterations + result.warmupIterations;
        const f = figures.get(row.name)!;
        f.cpu.push((1000 * cpu) / reads);
        f.rate.push(result.throughput);
        f.errors += result.errors;
        log(
          `  round ${round + 1} ${row.name}: ${result.throughput.toFixed(0)}/s, ${((1000 * cpu) / reads).toFixed(0)} µs CPU per request, ${result.errors} errors${result.firstError ? ` (${result.firstError})` : ''}`,
        );
      }
    }
    const bestCpu = median(figures.get(rows[0]!.name)!.cpu);
    const lines = [`| server | CPU per request (µs, median) | ${rows[0]!.name} ÷ it | requests/s (median) | errors |`, '|---|---|---|---|---|'];
    for (const [name, f] of figures) {
      lines.push(`| ${name} | ${median(f.cpu).toFixed(0)} | ${(bestCpu / median(f.cpu)).toFixed(2)} | ${median(f.rate).toFixed(0)} | ${f.errors} |`);
    }
    process.stdout.write(
      `\n# ${PATH.toUpperCase()} CPU per request — ${new Date().toISOString()}, ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections\n\n${lines.join('\n')}\n`,
    );
  } finally {
    for (const server of started.reverse()) await server.stop();
    await database.drop();
  }
}

await main();
process.exit(0);
