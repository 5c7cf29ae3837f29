import { cpus, totalmem } from 'node:os';
import type { LoadResult } from './load.js';
import type { MemoryAtRest } from './processes.js';

export interface Measurement extends LoadResult {
  /** SQL statements the server sent per iteration (per request; per pair for P5; per delivery for P4). */
  sqlPerIteration: number;
  /**
   * CPU time of the server's process per iteration (user and system, warm-up included): what an iteration costs the
   * process, steadier than throughput on a machine that also runs other work.
   */
  cpuMsPerIteration: number;
  rssMb: number;
  /** P4: deliveries of an event already received. */
  duplicates?: number;
}

export interface Row {
  name: string;
  unit: string;
  baselineName: string;
  /** `everyRound`: the ratio must hold in each round, not only in the median. */
  goal: { ratio?: number; p99Ms?: number; absolute?: number; everyRound?: boolean };
  ramp: Measurement[];
  baseline: Measurement[];
}

export const median = (values: number[]): number => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const num = (v: number, digits = 0) => (Number.isNaN(v) ? '–' : v.toFixed(digits));

function summary(ms: Measurement[], unit: string) {
  const errors = ms.reduce((sum, m) => sum + m.errors, 0);
  const duplicates = ms.reduce((sum, m) => sum + (m.duplicates ?? 0), 0);
  const latency = Number.isNaN(median(ms.map((m) => m.p50)))
    ? ''
    : `, p50 ${num(median(ms.map((m) => m.p50)), 1)} ms, p99 ${num(median(ms.map((m) => m.p99)), 1)} ms`;
  const sql = Number.isNaN(median(ms.map((m) => m.sqlPerIteration))) ? '' : `, ${num(median(ms.map((m) => m.sqlPerIteration)), 2)} SQL`;
  const cpu = Number.isNaN(median(ms.map((m) => m.cpuMsPerIteration))) ? '' : `, ${num(median(ms.map((m) => m.cpuMsPerIteration)), 2)} ms CPU`;
  const failures = unit === 'deliveries/s' ? `, ${errors} lost, ${duplicates} duplicated` : errors ? `, ${errors} FAILED` : '';
  return `${num(median(ms.map((m) => m.throughput)))} ${unit}${latency}${sql}${cpu}${failures}`;
}

/** The table: medians over the rounds; the ratio is the median of each round's Ramp / baseline. */
export function printRows(rows: Row[], run: { rounds: number; seconds: number; connections: number; atRest?: MemoryAtRest }) {
  const lines = [
    '',
    `Ramp bench — ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB`,
    `${run.rounds} interleaved rounds of ${run.seconds} s per server, ${run.connections} connections; medians; SQL = statements per request (per pair for P5, per delivery for P4)`,
    '',
    '| path | Ramp | baseline | ratio | goal | met |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    // A baseline that failed has no figure to compare against.
    const ratios = row.ramp.map((m, i) => (row.baseline[i] && !row.baseline[i].errors ? m.throughput / row.baseline[i].throughput : Number.NaN));
    const ratio = median(ratios);
    const rampThroughput = median(row.ramp.map((m) => m.throughput));
    const rampP99 = median(row.ramp.map((m) => m.p99));
    const failed = row.ramp.some((m) => m.errors > 0 || (m.duplicates ?? 0) > 0);
    const goals: string[] = [];
    let met = !failed && !Number.isNaN(ratio);
    if (row.goal.ratio !== undefined) {
      goals.push(`≥ ${row.goal.ratio}${row.goal.everyRound ? ' in every round' : ''}`);
      met &&= (row.goal.everyRound ? Math.min(...ratios) : ratio) >= row.goal.ratio;
    }
    if (row.goal.p99Ms !== undefined) {
      goals.push(`p99 ≤ ${row.goal.p99Ms} ms`);
      met &&= rampP99 <= row.goal.p99Ms;
    }
    if (row.goal.absolute !== undefined) {
      goals.push(`≥ ${row.goal.absolute} ${row.unit}`);
      met &&= rampThroughput >= row.goal.absolute;
    }
    // A row without a goal (the best plain service) is reported, never "met".
    const verdict = goals.length ? (met ? 'yes' : 'NO') : failed ? 'FAILED' : 'reported';
    lines.push(
      `| ${row.name} | ${summary(row.ramp, row.unit)} | ${row.baselineName}: ${summary(row.baseline, row.unit)} | ${num(ratio, 2)} | ${goals.join(', ') || '–'} | ${verdict} |`,
    );
  }
  const peaks = rows.flatMap((r) => {
    const rss = r.ramp.map((m) => m.rssMb).filter((v) => !Number.isNaN(v));
    return rss.length ? [{ name: r.name, mb: Math.max(...rss) }] : [];
  });
  if (peaks.length) {
    lines.push('', `Ramp's resident memory after its runs: up to ${Math.max(...peaks.map((p) => p.mb)).toFixed(0)} MB`);
    lines.push(`- after each row (its highest round): ${peaks.map((p) => `${p.name} ${p.mb.toFixed(0)} MB`).join('; ')}`);
  }
  if (run.atRest) {
    const { rssMb, heapUsedMb, externalMb } = run.atRest;
    lines.push(
      `- at rest after the last row and a full garbage collection: ${rssMb.toFixed(0)} MB resident, of which V8's heap in use ${heapUsedMb.toFixed(0)} MB and buffers outside it ${externalMb.toFixed(0)} MB`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
