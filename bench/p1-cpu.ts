/**
 * `npm run bench:p1-cpu`: what one P1 read costs each server in CPU, the figure a shared machine disturbs least.
 * Throughput on 2 cores shared with the load generator, PostgreSQL and other work moves from run to run; the CPU
 * time a server's own process used per request (/proc, user + system) moves much less, and it is what stands
 * between Ramp and the best plain service (bench/baselines/best.ts): both send one statement per read.
 *
 * Rows: the best plain service (REST path), the same read on bare Fastify and on bare Yoga in Fastify (best-fastify.ts:
 * what the frameworks alone cost), Ramp REST `GET …/onramp-transfer/{id}` and Ramp GraphQL `transfer(id)`;
 * with BENCH_AGAINST=<another checkout> (e.g. /work/main), that checkout's Ramp too, on the same database and key,
 * so a change is measured against the code before it in one run. After a warm-up of each, BENCH_ROUNDS (3) interleaved rounds of
 * BENCH_SECONDS (5) at BENCH_CONNECTIONS (32), medians.
 */
import { createBenchDatabase } from './database.js';
import { type Client, runLoad } from './load.js';
import { TRANSFER_BY_ID } from './operations.js';
import { type Server, builtRamp, freePort, startRampServer, startServer } from './processes.js';
import { seed } from './seed.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const AGAINST = process.env.BENCH_AGAINST;
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
    const best = await startServer(
      'best',
      'bench/baselines/best.ts',
      { DATABASE_URL: database.url, PORT: String(await freePort()) },
      /listening on (http:\/\/\S+)/,
    );
    started.push(best);
    const frameworks = await startServer(
      'best-fastify',
      'bench/baselines/best-fastify.ts',
      { DATABASE_URL: database.url, PORT: String(await freePort()) },
      /listening on (http:\/\/\S+)/,
    );
    started.push(frameworks);
    const rows: { name: string; server: Server; iteration: Iteration }[] = [
      { name: 'best plain service, REST', server: best, iteration: rest },
      { name: 'the same on bare Fastify, REST', server: frameworks, iteration: rest },
      { name: 'the same on bare Yoga in Fastify, GraphQL', server: frameworks, iteration: graphql },
      { name: 'Ramp REST', server: ramp, iteration: rest },
      { name: 'Ramp GraphQL', server: ramp, iteration: graphql },
    ];
    if (AGAINST) {
      // The other checkout's Ramp on the same database: its migrations are there already, the seeded key works.
      const port = await freePort();
      const env = { DATABASE_URL: database.url, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
      const before = await startServer(
        'ramp-against',
        builtRamp(AGAINST),
        {
          ...env,
          RATE_LIMIT_PER_MINUTE: '0',
          GRAPHQL_COST_BUCKET_SIZE: '0',
          SANDBOX_CHAIN: 'simulated',
          GRAPHQL_INTROSPECTION: 'false',
          BOOTSTRAP_DEMO_PARTNER: 'false',
        },
        /GraphQL:\s+(http:\/\/\S+)\/graphql/,
      );
      started.push(before);
      rows.push({ name: `${AGAINST} REST`, server: before, iteration: rest }, { name: `${AGAINST} GraphQL`, server: before, iteration: graphql });
    }
    // Every server's code warmed (JIT, pools, caches) before anything is counted.
    for (const row of rows) await runLoad({ url: row.server.url, connections: CONNECTIONS, seconds: 2, warmupSeconds: 0, iteration: row.iteration });
    const figures = new Map(rows.map((row) => [row.name, { cpu: [] as number[], rate: [] as number[], errors: 0 }]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? rows : [...rows].reverse();
      for (const row of order) {
        const cpuBefore = row.server.cpuMs();
        const result = await runLoad({ url: row.server.url, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: 1, iteration: row.iteration });
        const cpu = row.server.cpuMs() - cpuBefore;
        const reads = result.iterations + result.warmupIterations;
        const f = figures.get(row.name)!;
        f.cpu.push((1000 * cpu) / reads);
        f.rate.push(result.throughput);
        f.errors += result.errors;
        log(
          `  round ${round + 1} ${row.name}: ${result.throughput.toFixed(0)}/s, ${((1000 * cpu) / reads).toFixed(0)} µs CPU per read, ${result.errors} errors${result.firstError ? ` (${result.firstError})` : ''}`,
        );
      }
    }
    const bestCpu = median(figures.get('best plain service, REST')!.cpu);
    const lines = ['| server | CPU per read (µs, median) | best ÷ it | reads/s (median) | errors |', '|---|---|---|---|---|'];
    for (const [name, f] of figures) {
      lines.push(`| ${name} | ${median(f.cpu).toFixed(0)} | ${(bestCpu / median(f.cpu)).toFixed(2)} | ${median(f.rate).toFixed(0)} | ${f.errors} |`);
    }
    process.stdout.write(
      `\n# P1 CPU per read — ${new Date().toISOString()}, ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections\n\n${lines.join('\n')}\n`,
    );
  } finally {
    for (const server of started.reverse()) await server.stop();
    await database.drop();
  }
}

await main();
process.exit(0);
