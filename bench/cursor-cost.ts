import { randomBytes, randomUUID } from 'node:crypto';
import { pageCursors } from '../src/platform/reads/pagination.js';
import { sealer } from '../src/platform/security/sealed.js';
import type { Measurement, Row } from './report.js';

const EDGES = 100;
const PAGES = 2_000;

/** A measurement of pages of cursors per second, in process: no server, no SQL. */
const pagesPerSecond = (throughput: number): Measurement => ({
  throughput,
  p50: Number.NaN,
  p99: Number.NaN,
  iterations: PAGES,
  warmupIterations: 0,
  errors: 0,
  sqlPerIteration: 0,
  cpuMsPerIteration: 1000 / throughput,
  rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
});

/**
 * What a page's cursors cost: the 100 cursors of a Relay page (a `cursor` on every edge) made by Ramp's page cursors
 * (a page's MACs in two AES passes),
 * against the same cursors sealed per edge (an HMAC and an AES-CTR cipher each, as cursors were made before).
 * Interleaved rounds, like the server rows.
 */
export function cursorCost(rounds: number): Row {
  const key = randomBytes(32);
  const cursors = pageCursors(key);
  const earlier = sealer(key, 'ramp page cursor');
  const binding = { partnerId: randomUUID(), environment: 'sandbox', list: 'TransferConnection' };
  const rows = Array.from({ length: EDGES }, (_, i) => ({ createdAt: new Date(Date.now() - i * 1000), id: randomUUID() }));
  const context = `${binding.partnerId}/${binding.environment}/${binding.list}/`;
  // As a connection makes them: the page's cursors together, when its first edge's is asked for.
  const ramp = () => cursors.cursorsOf(binding, rows);
  const before = () =>
    rows.map((row) => {
      const contents = Buffer.alloc(24);
      contents.writeBigInt64BE(BigInt(row.createdAt.getTime()));
      contents.write(row.id.replaceAll('-', ''), 8, 'hex');
      return earlier.seal(context, contents);
    });
  const timed = (page: () => string[]) => {
    const start = performance.now();
    for (let i = 0; i < PAGES; i++) page();
    return pagesPerSecond(PAGES / ((performance.now() - start) / 1000));
  };
  const out: Row = {
    name: `cursors of a ${EDGES}-edge page, made in process`,
    unit: 'pages/s',
    baselineName: 'sealed per edge (HMAC + AES-CTR, before)',
    goal: {},
    ramp: [],
    baseline: [],
  };
  for (let round = 0; round < rounds; round++) {
    out.ramp.push(timed(ramp));
    out.baseline.push(timed(before));
  }
  return out;
}
