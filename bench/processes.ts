import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const counter = fileURLToPath(new URL('./sql-counter.ts', import.meta.url));
const profiler = fileURLToPath(new URL('./cpu-profile.ts', import.meta.url));
const profiled = (name: string) => Boolean(process.env.BENCH_CPU_PROF) && name.startsWith('ramp');
const root = fileURLToPath(new URL('..', import.meta.url));

/** A server the bench started in a child process of its own, with its SQL statements counted. */
export interface Server {
  name: string;
  url: string;
  /** Lines the server printed while starting (Ramp prints the demo key there). */
  output: string;
  /** Statements the process has sent so far (counted at its driver, see sql-counter.ts). */
  sqlCount(): Promise<number>;
  /** Resident memory of the process now, in MB. */
  rssMb(): number;
  /**
   * CPU time the process has used so far (user + system, ms), from /proc. Per request, it is the server's own
   * cost: what the other processes of a shared machine take changes it little, unlike throughput.
   */
  cpuMs(): number;
  /** After a full garbage collection: resident memory, V8's heap in use and memory outside it (buffers), in MB. */
  memoryAtRest(): Promise<MemoryAtRest>;
  /** With BENCH_CPU_PROF, starts or stops (writing /tmp/ramp-prof/<label>.cpuprofile) Ramp's CPU profile; else nothing. */
  cpuProfile(action: 'start' | 'stop', label: string): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface MemoryAtRest {
  rssMb: number;
  heapUsedMb: number;
  externalMb: number;
}

/** Asks the server's preloaded counter (sql-counter.ts) a question over IPC and waits for the answer carrying `field`. */
function ask<T>(child: ChildProcess, message: string, field: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (answer: unknown) => {
      if (answer && typeof answer === 'object' && field in answer) {
        child.off('message', onMessage);
        resolve((answer as Record<string, T>)[field]!);
      }
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

const MB = 2 ** 20;

/**
 * Forks `script` and waits until its output matches `ready` (the first group is its URL). A TypeScript script runs
 * through tsx; a built one (`.js`) runs on Node alone, as production runs it, with the bench's own preloads
 * (plain TypeScript that Node strips itself).
 */
export async function startServer(name: string, script: string, env: Record<string, string>, ready: RegExp): Promise<Server> {
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child: ChildProcess = fork(script, [], {
    cwd: root,
    execArgv: ['--expose-gc', ...loader, '--import', counter, ...(profiled(name) ? ['--import', profiler] : [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (process.env.BENCH_SQL_LOG === '1') process.stderr.write(chunk);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} while starting:\n${output}`));
    });
  });
  return {
    name,
    url,
    output,
    sqlCount: () => ask<number>(child, 'sql-count', 'sqlCount'),
    memoryAtRest: async () => {
      const m = await ask<{ rss: number; heapUsed: number; external: number }>(child, 'memory-at-rest', 'memoryAtRest');
      return { rssMb: m.rss / MB, heapUsedMb: m.heapUsed / MB, externalMb: m.external / MB };
    },
    cpuProfile: (action, label) =>
      new Promise((resolve) => {
        if (!profiled(name)) return resolve();
        const onMessage = (message: unknown) => {
          if (message && typeof message === 'object' && 'cpuProfiled' in message) {
            child.off('message', onMessage);
            resolve();
          }
        };
        child.on('message', onMessage);
        child.send({ cpuProfile: action, label });
      }),
    cpuMs: () => {
      try {
        // /proc/<pid>/stat: utime and stime (fields 14 and 15) in clock ticks, 100 a second on Linux.
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return (Number(fields[11]) + Number(fields[12])) * 10;
      } catch {
        return Number.NaN;
      }
    },
    rssMb: () => {
      try {
        const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
        return kb ? Number(kb) / 1024 : Number.NaN;
      } catch {
        return Number.NaN;
      }
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

const built = new Map<string, string>();
/**
 * A checkout's Ramp as production runs it (`npm run build`, then `node dist/src/main.js`), built once per bench run.
 * Through tsx instead, every function a request creates pays for the name tsx gives it, and stacks for source maps:
 * a development cost, not Ramp's.
 */
export function builtRamp(checkout = root): string {
  let main = built.get(checkout);
  if (!main) {
    process.stderr.write(`building ${checkout} (npm run build)\n`);
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: checkout, stdio: ['ignore', 'ignore', 'inherit'] });
    main = join(checkout, 'dist/src/main.js');
    built.set(checkout, main);
  }
  return main;
}

/** How every bench runs Ramp (with its own DATABASE_URL or DATA_DIR and PORT). */
export const RAMP_SETTINGS = {
  NODE_ENV: 'development', // sandbox keys may deliver webhooks to this machine (the P4 receiver) only outside production
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '0',
  // Per-key limits are policy, not the hot path's cost: the GraphQL cost budget is off as the rate limit is.
  GRAPHQL_COST_BUCKET_SIZE: '0',
  // The background jobs run, as in production (the outbox, webhooks, trims); no local devnet: the chain leg has
  // its own bench (bench/chain.ts).
  SANDBOX_CHAIN: 'simulated',
  GRAPHQL_INTROSPECTION: 'false',
};

/** Ramp itself, as production runs it, on PostgreSQL (DATABASE_URL) or embedded PGlite (DATA_DIR). */
export async function startRampServer(name: string, env: Record<string, string>): Promise<Server & { key: string }> {
  const port = await freePort();
  const server = await startServer(name, builtRamp(), { ...RAMP_SETTINGS, PORT: String(port), ...env }, /GraphQL:\s+(http:\/\/\S+)\/graphql/);
  await waitFor(() => /Sandbox API key[^:]*: (rk_sandbox_\S+)/.test(server.output), 1);
  const key = /Sandbox API key[^:]*: (rk_sandbox_\S+)/.exec(server.output)?.[1];
  if (!key) throw new Error(`${name} printed no demo key:\n${server.output}`);
  return { ...server, key };
}

async function waitFor(check: () => boolean, seconds: number) {
  const until = Date.now() + seconds * 1000;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}
