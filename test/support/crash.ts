import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRamp, type Ramp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { freshDatabaseEnv, onPostgres } from './ramp.js';
import { waitFor } from './clients/webhook-receiver.js';

/**
 * A database several processes use one after another: a PostgreSQL database of the test's own, or an embedded
 * PGlite data directory (a process that died leaves it to the next, as `npm start` after a crash finds it).
 */
export async function sharedDatabaseEnv(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (onPostgres) return freshDatabaseEnv();
  const dir = mkdtempSync(join(tmpdir(), 'ramp-crash-'));
  return { env: { DATA_DIR: join(dir, 'data') }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `src/main.ts` in a child process, serving on a port of its own, until it ends (here: until it kills itself). */
export async function startChild(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGTERM'), 120_000);
  const exited = new Promise<{ signal: NodeJS.Signals | null; output: string }>((resolve) =>
    child.on('exit', (_, signal) => {
      clearTimeout(killer);
      resolve({ signal, output });
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  let gone = false;
  void exited.then(() => (gone = true));
  await waitFor(
    async () => {
      if (gone) throw new Error(`the child exited before it served: ${output.slice(-2000)}`);
      return fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    60_000,
    'the child process served',
  );
  return { url, exited, output: () => output };
}

/** In-process instances on the shared database, closed together. */
export function instances(env: () => Record<string, string>) {
  const open: Ramp[] = [];
  return {
    async start(extra: Record<string, string> = {}) {
      const ramp = await createRamp(loadConfig({ ...env(), ...extra }));
      await ramp.listen();
      open.push(ramp);
      return ramp;
    },
    async close(ramp?: Ramp) {
      for (const r of ramp ? [ramp] : open.splice(0)) {
        await r.close().catch(() => undefined);
        if (ramp) open.splice(open.indexOf(ramp), 1);
      }
    },
  };
}
