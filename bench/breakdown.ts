/**
 * `npm run bench:breakdown`: where each millisecond of an iteration goes inside Ramp, for P5 (a pair: on-ramp quote,
 * then a transfer from it, over REST), P1 REST and P1 GraphQL (one transfer read). Two views of the same iterations:
 * - wall time, from Ramp's own traces (every request's server span and its database spans, exported over OTLP/HTTP
 *   to a receiver in this process): time in the database (statements, round trips and lock waits; overlapping spans
 *   counted once) and time in the process, per request, with each kind of statement;
 * - CPU time, from a V8 CPU profile of Ramp under the P5 load (32 writers): self time per pair, by what the code is
 *   (audit, idempotency, admission, crypto, the pg driver, MikroORM, fastify, validation, tracing, logging, GC …).
 * Tracing is on for this run only, so its own cost shows in the CPU view (it is off in `npm run bench`).
 *
 * BENCH_BREAKDOWN (comma list: p5,p1-rest,p1-graphql; all by default), BENCH_SECONDS (8 per phase),
 * BENCH_CONNECTIONS (32 for the loaded phase), BENCH_CUSTOMERS (10).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBenchDatabase } from './database.js';
import { type Client, runLoad } from './load.js';
import { startRampServer } from './processes.js';
import { TRANSFER_BY_ID } from './operations.js';
import { quoteBody, seed, transferBody } from './seed.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 10);
const PROFILE_DIR = process.env.BENCH_PROF_DIR ?? '/tmp/ramp-prof';
const WORKLOADS = (process.env.BENCH_BREAKDOWN ?? 'p5,p1-rest,p1-graphql').split(',').map((w) => w.trim());
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  start: number;
  end: number;
}

/** OTLP/HTTP JSON in (what Ramp's exporter sends), spans out, times in milliseconds. */
async function startSpanReceiver() {
  const spans: Span[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as {
        resourceSpans?: { scopeSpans?: { spans?: Record<string, string | number>[] }[] }[];
      };
      for (const rs of body.resourceSpans ?? [])
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              traceId: String(s.traceId),
              spanId: String(s.spanId),
              parentSpanId: s.parentSpanId ? String(s.parentSpanId) : undefined,
              name: String(s.name),
              kind: Number(s.kind),
              start: Number(BigInt(s.startTimeUnixNano!) / 1000n) / 1000,
              end: Number(BigInt(s.endTimeUnixNano!) / 1000n) / 1000,
            });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, spans, close: () => server.close() };
}

/** Milliseconds covered by the intervals, overlaps counted once (a pipelined batch's statements overlap). */
function covered(intervals: [number, number][]): number {
  let total = 0;
  let until = -Infinity;
  for (const [start, end] of intervals.sort((a, b) => a[0] - b[0])) {
    if (end <= until) continue;
    total += end - Math.max(start, until);
    until = end;
  }
  return total;
}

const SERVER_KIND = 2;

/** Per request kind (the server span's name): requests, wall ms, database ms, statements, and ms per kind of statement. */
function wallTime(spans: Span[]) {
  const children = new Map<string, Span[]>();
  for (const s of spans) if (s.parentSpanId) children.set(s.parentSpanId, [...(children.get(s.parentSpanId) ?? []), s]);
  const descendants = (span: Span): Span[] => (children.get(span.spanId) ?? []).flatMap((c) => [c, ...descendants(c)]);
  const byRequest = new Map<string, { n: number; wall: number; db: number; statements: number; kinds: Map<string, { n: number; ms: number }> }>();
  for (const root of spans.filter((s) => s.kind === SERVER_KIND)) {
    const db = descendants(root).filter((s) => s.name.startsWith('db '));
    const entry = byRequest.get(root.name) ?? { n: 0, wall: 0, db: 0, statements: 0, kinds: new Map() };
    entry.n++;
    entry.wall += root.end - root.start;
    entry.db += covered(db.map((s) => [s.start, s.end]));
    entry.statements += db.length;
    for (const s of db) {
      const kind = entry.kinds.get(s.name) ?? { n: 0, ms: 0 };
      kind.n++;
      kind.ms += s.end - s.start;
      entry.kinds.set(s.name, kind);
    }
    byRequest.set(root.name, entry);
  }
  return byRequest;
}

/**
 * What a profile frame is, by where its code lives. Native frames and Node's own (a socket write, a hash) count for
 * the library or module that called them, found by walking up the stack: a pg socket write is the pg driver's.
 */
const CATEGORIES: [string, (url: string, fn: string) => boolean][] = [
  ['garbage collection', (_u, fn) => fn === '(garbage collector)'],
  ['idle (waiting on I/O)', (_u, fn) => fn === '(idle)'],
  ['the profiler itself', (u) => u === 'node:inspector' || u.includes('bench/cpu-profile')],
  ['audit', (u) => /src\/platform\/security\/audit|src\/rest\/audit/.test(u)],
  ['authentication (the API key)', (u) => /src\/platform\/security\/(auth|tenant)|src\/graphql\/guards\/key-watch/.test(u)],
  ['idempotency', (u) => /src\/platform\/use-cases\/idempotency/.test(u)],
  ['admission', (u) => /src\/platform\/(http\/admission|runtime\/saturation)/.test(u)],
  ['sealing, cursors, key hashes (crypto)', (u) => /src\/platform\/(security\/sealed|security\/sealing|reads\/page-cursor)|@noble/.test(u)],
  ['tracing (on for this run)', (u) => /@opentelemetry|src\/platform\/observability\/(tracing|http-tracing|span-attributes)|src\/platform\/db\/traced/.test(u)],
  ['logging', (u) => /pino|src\/platform\/observability\/logging/.test(u)],
  ['pg driver, its socket writes included', (u) => /node_modules\/(pg|pg-protocol|pg-types|pg-pool)\//.test(u)],
  ['MikroORM', (u) => /@mikro-orm/.test(u)],
  ['Kysely', (u) => /kysely/.test(u)],
  ['fastify, its socket writes included', (u) => /fastify|find-my-way|avvio/.test(u)],
  [
    'GraphQL execution (graphql-js, yoga, envelop, Pothos, src/graphql)',
    (u) => /node_modules\/(graphql|graphql-yoga|@graphql-yoga|@envelop|@pothos|@whatwg-node)\/|src\/graphql\//.test(u),
  ],
  ['validation (zod)', (u) => /node_modules\/zod/.test(u)],
  ['decimal.js (money)', (u) => /decimal\.js/.test(u)],
  ['use cases and domain (src/modules, src/domain)', (u) => /src\/(modules|domain)\//.test(u)],
  ['the rest of src/platform and src/rest', (u) => /src\/(platform|rest)\//.test(u)],
  ['other libraries', (u) => /node_modules/.test(u)],
];
const NODE_ITSELF = 'Node itself (HTTP parsing, streams, timers, microtasks)';

interface CpuProfile {
  nodes: { id: number; callFrame: { url: string; functionName: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per category in ms, from a V8 CPU profile. */
function cpuTime(profile: CpuProfile): Map<string, number> {
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const known = new Map<number, string>();
  const categoryOf = (id: number): string => {
    const memo = known.get(id);
    if (memo) return memo;
    const category = walk(id);
    known.set(id, category);
    return category;
  };
  const walk = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const { url, functionName } = byId.get(at)!.callFrame;
      const found = CATEGORIES.find(([, test]) => test(url, functionName));
      if (found) return found[0];
    }
    return NODE_ITSELF;
  };
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const category = categoryOf(id);
    out.set(category, (out.get(category) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return out;
}

type Iteration = (client: Client, worker: number, n: number) => Promise<void>;

async function main() {
  process.env.BENCH_CPU_PROF = '1';
  const receiver = await startSpanReceiver();
  const database = await createBenchDatabase();
  const ramp = await startRampServer('ramp', {
    DATABASE_URL: database.url,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url,
    OTEL_TRACES_SAMPLER: 'always_on',
    // Every span of the window, none dropped: a large queue, exported often.
    OTEL_BSP_MAX_QUEUE_SIZE: '200000',
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '4000',
    OTEL_BSP_SCHEDULE_DELAY: '200',
  });
  try {
    const auth = { authorization: `Bearer ${ramp.key}` };
    log(`seeding ${CUSTOMERS} customers`);
    const data = await seed(ramp.url, ramp.key, { customers: CUSTOMERS, transfersPerCustomer: 1 });
    const iterations: Record<string, { unit: string; requests: RegExp; iteration: Iteration }> = {
      p5: {
        unit: 'pairs',
        requests: /onramp-transfer\/quote/,
        iteration: async (client, _w, n) => {
          const customerId = data.customers[n % data.customers.length]!;
          const quote = (await client.send({ method: 'POST', path: `/v0/customers/${customerId}/onramp-transfer/quote`, headers: auth, body: quoteBody })) as {
            quote_id: string;
          };
          await client.send({ method: 'POST', path: `/v0/customers/${customerId}/onramp-transfer/quote/${quote.quote_id}`, headers: auth, body: transferBody });
        },
      },
      'p1-rest': {
        unit: 'reads',
        requests: /^GET .*onramp-transfer\/:/,
        iteration: async (client, _w, n) => {
          const { customerId, transferId } = data.transfers[n % data.transfers.length]!;
          await client.send({ method: 'GET', path: `/v0/customers/${customerId}/onramp-transfer/${transferId}`, headers: auth });
        },
      },
      'p1-graphql': {
        unit: 'reads',
        requests: /graphql/i,
        iteration: async (client, _w, n) => {
          const { transferId } = data.transfers[n % data.transfers.length]!;
          await client.send({
            method: 'POST',
            path: '/graphql',
            headers: auth,
            body: JSON.stringify({ query: TRANSFER_BY_ID, variables: { id: transferId } }),
          });
        },
      },
    };
    const lines: string[] = [];
    for (const workload of WORKLOADS) {
      const { unit, requests, iteration } = iterations[workload] ?? { unit: '', requests: /$^/, iteration: undefined };
      if (!iteration) throw new Error(`BENCH_BREAKDOWN: no workload ${workload} (p5, p1-rest, p1-graphql)`);
      lines.push('', `## ${workload}`);
      for (const [phase, connections] of [
        ['one client at a time', 1],
        [`${CONNECTIONS} clients`, CONNECTIONS],
      ] as const) {
        log(`${workload}, ${phase}, ${SECONDS} s`);
        const profiled = connections > 1;
        const label = `breakdown-${workload}-${connections}`;
        await new Promise((r) => setTimeout(r, 1500)); // the previous window's last spans
        receiver.spans.length = 0;
        if (profiled) await ramp.cpuProfile('start', label);
        const result = await runLoad({ url: ramp.url, connections, seconds: SECONDS, warmupSeconds: 1, iteration });
        if (profiled) await ramp.cpuProfile('stop', label);
        await new Promise((r) => setTimeout(r, 1500)); // the last batch of spans
        const count = result.iterations + result.warmupIterations;
        lines.push(
          '',
          `### ${phase}: ${result.throughput.toFixed(0)} ${unit}/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${result.errors} errors`,
          '',
        );
        lines.push(
          '| request | requests | ms per request | in the database | in the process | statements | statements by kind (count, ms each) |',
          '|---|---|---|---|---|---|---|',
        );
        for (const [name, r] of wallTime(receiver.spans)) {
          if (!requests.test(name)) continue;
          const kinds = [...r.kinds].sort((a, b) => b[1].ms - a[1].ms).map(([k, v]) => `${k.slice(3)} ${(v.n / r.n).toFixed(1)}× ${(v.ms / v.n).toFixed(2)}`);
          lines.push(
            `| ${name} | ${r.n} | ${(r.wall / r.n).toFixed(2)} | ${(r.db / r.n).toFixed(2)} | ${((r.wall - r.db) / r.n).toFixed(2)} | ${(r.statements / r.n).toFixed(1)} | ${kinds.join(', ')} |`,
          );
        }
        if (!profiled) continue;
        const cpu = cpuTime(JSON.parse(readFileSync(`${PROFILE_DIR}/${label}.cpuprofile`, 'utf8')) as CpuProfile);
        const apart = (what: string) => what.startsWith('idle') || what.includes('profiler');
        const busy = [...cpu].filter(([what]) => !apart(what)).reduce((sum, [, ms]) => sum + ms, 0);
        const one = unit.slice(0, -1);
        lines.push('', `CPU time of Ramp's process per ${one} (${count} ${unit}, ${(busy / count).toFixed(2)} ms busy per ${one}):`, '');
        lines.push(`| what | ms per ${one} | share of busy time |`, '|---|---|---|');
        for (const [what, ms] of [...cpu].sort((a, b) => b[1] - a[1])) {
          lines.push(`| ${what} | ${(ms / count).toFixed(3)} | ${apart(what) ? '–' : `${((100 * ms) / busy).toFixed(1)} %`} |`);
        }
      }
    }
    process.stdout.write(`\n# Breakdown — ${new Date().toISOString()}\n${lines.join('\n')}\n`);
  } finally {
    await ramp.stop();
    receiver.close();
    await database.drop();
  }
}

await main();
process.exit(0);
