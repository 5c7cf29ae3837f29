import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../support/ramp.js';

const root = join(import.meta.dirname, '../..');
// Inside node_modules so the built files resolve the packages; private to this run, so projects never share it.
const outDir = join(root, 'node_modules/.cache', `ramp-build-${process.pid}`);

/** Starts a command, resolves with the process and its base URL once it has printed where it listens. */
async function startServer(command: string, args: string[], dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const { DATABASE_URL: _, ...env } = process.env; // the embedded database, whose lock must be released
  const child = spawn(command, args, {
    cwd: root,
    env: { ...env, NODE_ENV: 'development', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /GraphQL:\s+(http:\/\/\S+)\/graphql/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
  });
  return { child, url };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', (code) => resolve(code))));

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

async function expectStopped(url: string, dataDir: string) {
  const deadline = Date.now() + 10_000;
  while ((await answers(url)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(await answers(url)).toBe(false);
  // The embedded-database lock is released once the database is closed, just after the port.
  const lock = join(dataDir, 'ramp.lock');
  while (existsSync(lock) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(existsSync(lock)).toBe(false);
}

// One run is enough: the process model does not depend on the database.
describe.skipIf(onPostgres)('starting Ramp under a process manager', () => {
  beforeAll(async () => {
    await promisify(execFile)('npx', ['tsc', '-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: root });
    cpSync(join(root, 'docs/api'), join(outDir, 'docs/api'), { recursive: true }); // /docs renders it, as `npm run build` copies it
  }, 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('runs the build with node as the server process, which stops on SIGTERM and frees its port and lock', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ramp-prod-'));
    const { child, url } = await startServer(process.execPath, [join(outDir, 'src/main.js')], dataDir);
    expect(await answers(url)).toBe(true);
    expect((await fetch(`${url}/docs`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    await expectStopped(url, dataDir);
  }, 60_000);

  it('stops the server when a process manager sends SIGTERM to `npm start`', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ramp-npm-start-'));
    const { child, url } = await startServer('npm', ['start', '--silent'], dataDir);
    expect(await answers(url)).toBe(true);
    child.kill('SIGTERM'); // to npm alone, as systemd or a container runtime would
    await exited(child);
    await expectStopped(url, dataDir);
  }, 60_000);
});
