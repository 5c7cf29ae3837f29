/**
 * `BENCH_AGAINST=<another checkout> npm run bench:inject`: the CPU one P1 read costs this checkout's Ramp against
 * another's, both built (`npm run build`) and running in this one process on the same database and key, each read
 * sent through Fastify's `inject` (no sockets, no load generator in another process). The two alternate in batches
 * of BENCH_BATCH (1,000) reads, 32 at a time, for BENCH_ROUNDS (20) rounds per row; each batch's CPU time is this
 * process's own (`process.cpuUsage`). A neighbour that slows the machine slows both sides of a round alike, so the
 * per-round ratio holds where `bench:cpu`'s absolute figures move by half from round to round on this 2-core machine.
 * Reads through inject cost more than over a socket (light-my-request builds each request and answer), so the ratio
 * understates a change: compare ratios, not microseconds, with `bench:cpu`. BENCH_CPU_PROF=1 adds a V8 profile of
 * this checkout's reads of each row (/tmp/ramp-prof/inject-<row>.cpuprofile, BENCH_PROF_DIR elsewhere).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBenchDatabase } from './database.js';
import { TRANSFER_BY_ID } from './operations.js';
import { RAMP_SETTINGS, builtRamp } from './processes.js';
import type { Ramp } from '../src/app.js';
import { seed } from './seed.js';

const AGAINST = process.env.BENCH_AGAINST;
if (!AGAINST) throw new Error('BENCH_AGAINST names the checkout to compare with (git worktree add /tmp/before <rev>)');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const BATCH = Number(process.env.BENCH_BATCH ?? 1000);
const PROFILE_DIR = process.env.BENCH_PROF_DIR ?? '/tmp/ramp-prof';
const log = (line: string) => process.stderr.write(`${line}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** What this bench uses of a checkout's Ramp, typed as this checkout declares it (only these members are used of the other's). */
type Instance = Pick<Ramp, 'http' | 'demoKey' | 'listen' | 'close'>;

/** A checkout's built Ramp in this process, as `bench/processes.ts` configures the one it starts. */
async function start(checkout: string, databaseUrl: string): Promise<Instance> {
  const dist = join(builtRamp(checkout), '..');
  const { loadConfig } = await import(join(dist, 'config.js'));
  const { createRamp } = await import(join(dist, 'app.js'));
  const { createLogger } = await import(join(dist, 'platform/observability/logging.js'));
  const config = loadConfig({ ...RAMP_SETTINGS, DATABASE_URL: databaseUrl, PORT: '0' });
  return createRamp(config, { logger: createLogger('warn') });
}

async function main() {
  const database = await createBenchDatabase();
  const here = await start(fileURLToPath(new URL('..', import.meta.url)), database.url);
  const before = await start(AGAINST!, database.url);
  const session = new Session();
  try {
    const url = await here.listen();
    const key = here.demoKey!;
    log('seeding 10 customers, 100 transfers');
    const data = await seed(url, key, { customers: 10, transfersPerCustomer: 10 });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const rows: Record<string, (ramp: Instance, n: number) => Promise<{ statusCode: number }>> = {
      'P1 REST': (ramp, n) => {
        const { customerId, transferId } = data.transfers[n % data.transfers.length]!;
        return ramp.http.app.inject({ method: 'GET', url: `/v0/customers/${customerId}/onramp-transfer/${transferId}`, headers });
      },
      'P1 GraphQL': (ramp, n) => {
        const { transferId } = data.transfers[n % data.transfers.length]!;
        return ramp.http.app.inject({
          method: 'POST',
          url: '/graphql',
          headers,
          payload: JSON.stringify({ query: TRANSFER_BY_ID, variables: { id: transferId } }),
        });
      },
    };
    /** CPU µs per read of `count` reads, 32 in flight. */
    const batch = async (ramp: Instance, row: string, count: number) => {
      const cpu = process.cpuUsage();
      let sent = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (sent < count) {
            const answer = await rows[row]!(ramp, sent++);
            if (answer.statusCode !== 200) throw new Error(`${row}: ${answer.statusCode}`);
          }
        }),
      );
      const used = process.cpuUsage(cpu);
      return (used.user + used.system) / count;
    };
    if (process.env.BENCH_CPU_PROF) {
      session.connect();
      await session.post('Profiler.enable');
    }
    const lines = [`| row | ${AGAINST} (µs CPU a read) | this checkout | this ÷ that, median of rounds (min–max) |`, '|---|---:|---:|---|'];
    for (const row of Object.keys(rows)) {
      // Warm: both sides' code compiled, pools filled, keys verified.
      for (const ramp of [before, here, before, here]) await batch(ramp, row, BATCH);
      const them: number[] = [];
      const us: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? [here, before] : [before, here];
        for (const ramp of order) (ramp === here ? us : them).push(await batch(ramp, row, BATCH));
      }
      const ratios = us.map((cpu, i) => cpu / them[i]!);
      lines.push(
        `| ${row} | ${median(them).toFixed(0)} | ${median(us).toFixed(0)} | ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) |`,
      );
      log(`  ${row}: ${median(ratios).toFixed(3)} of ${AGAINST}'s CPU`);
      if (process.env.BENCH_CPU_PROF) {
        await session.post('Profiler.start');
        for (let round = 0; round < 5; round++) await batch(here, row, BATCH);
        const { profile } = await session.post('Profiler.stop');
        mkdirSync(PROFILE_DIR, { recursive: true });
        writeFileSync(join(PROFILE_DIR, `inject-${row.replace(/\W+/g, '-')}.cpuprofile`), JSON.stringify(profile));
      }
    }
    process.stdout.write(`\n# CPU per read in process — ${new Date().toISOString()}, ${ROUNDS} rounds of ${BATCH} reads a side\n\n${lines.join('\n')}\n`);
  } finally {
    session.disconnect();
    await here.close();
    await before.close();
    await database.drop();
  }
}

await main();
process.exit(0);
