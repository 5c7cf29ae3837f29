import { Pool } from 'undici';

/** One HTTP exchange of a load run; a non-2xx answer or a body `check` refuses counts as an error. */
export interface Exchange {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Client {
  /** Sends one request and returns its parsed JSON body; throws on an unexpected status. */
  send(exchange: Exchange): Promise<unknown>;
}

export interface LoadResult {
  /** Completed iterations per second (an iteration is one request, or one pair for P5). */
  throughput: number;
  p50: number;
  p99: number;
  iterations: number;
  /** Iterations completed outside the measured window (warm-up and the last ones in flight). */
  warmupIterations: number;
  errors: number;
  firstError?: string;
}

/**
 * A small closed-loop load generator on undici's keep-alive pool: `connections` workers each run
 * `iteration` back to back for `seconds`, after a warm-up whose figures are dropped.
 */
export async function runLoad(options: {
  url: string;
  connections: number;
  seconds: number;
  warmupSeconds?: number;
  iteration: (client: Client, worker: number, n: number) => Promise<void>;
}): Promise<LoadResult> {
  const pool = new Pool(options.url, { connections: options.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const client: Client = {
    async send({ method, path, headers, body }) {
      const res = await pool.request({
        method,
        path,
        headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
        body,
      });
      const text = await res.body.text();
      if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
      const parsed = text ? JSON.parse(text) : null;
      if (parsed && typeof parsed === 'object' && 'errors' in parsed && (parsed as { errors?: unknown[] }).errors?.length) {
        throw new Error(`${method} ${path}: GraphQL errors ${text.slice(0, 300)}`);
      }
      return parsed;
    },
  };
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let measuring = false;
  let stopping = false;
  let n = 0;
  let outside = 0;

  const worker = async (w: number) => {
    while (!stopping) {
      const started = performance.now();
      try {
        await options.iteration(client, w, n++);
        if (measuring) latencies.push(performance.now() - started);
        else outside++;
      } catch (error) {
        if (measuring || !stopping) {
          errors++;
          firstError ??= String((error as Error).message ?? error);
        }
      }
    }
  };
  const workers = Array.from({ length: options.connections }, (_, w) => worker(w));
  await sleep((options.warmupSeconds ?? 2) * 1000);
  measuring = true;
  const started = performance.now();
  await sleep(options.seconds * 1000);
  measuring = false;
  const elapsed = (performance.now() - started) / 1000;
  stopping = true;
  await Promise.all(workers);
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return { throughput: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), iterations: latencies.length, warmupIterations: outside, errors, firstError };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
