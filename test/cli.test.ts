import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient, freshDatabaseEnv, onPostgres, startRamp } from './support/ramp.js';

const run = promisify(execFile);
const keys = (env: Record<string, string>, ...args: string[]) =>
  run('npx', ['tsx', 'src/cli/keys.ts', ...args], { env: { ...process.env, ...env }, cwd: join(import.meta.dirname, '..') });

describe('npm run keys -- create', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('creates the partner once, adds keys, prints the key alone on the last line, and the key works', async () => {
    const database = await freshDatabaseEnv();
    const env = database.env.DATA_DIR ? { DATA_DIR: mkdtempSync(join(tmpdir(), 'ramp-cli-')) } : database.env;
    cleanups.push(database.drop);

    const first = await keys(env, 'create', '--partner', 'CLI Partner', '--environment', 'production');
    const second = await keys(env, 'create', '--partner', 'CLI Partner', '--environment', 'sandbox');
    expect(first.stdout).toContain('Created partner "CLI Partner"');
    expect(second.stdout).toContain('Found partner "CLI Partner"');
    const liveKey = first.stdout.trim().split('\n').at(-1)!;
    const sandboxKey = second.stdout.trim().split('\n').at(-1)!;
    expect(liveKey).toMatch(/^rk_live_[A-Za-z0-9]{40}$/);
    expect(sandboxKey).toMatch(/^rk_sandbox_[A-Za-z0-9]{40}$/);

    // A server on the same database accepts the keys, each in its own environment.
    const t = await startRamp({ ...env, BOOTSTRAP_DEMO_PARTNER: 'false' });
    cleanups.push(() => t.close());
    const live = await apiClient(t.url, liveKey).post('/v0/customers', { email: 'cli@example.com', type: 'corporate', company_name: 'CLI' });
    expect(live.status).toBe(201);
    const sandbox = await apiClient(t.url, sandboxKey).get(`/v0/customers/${live.body.customer_id}`);
    expect(sandbox.status).toBe(404);
  }, 60_000);

  it('refuses to open an embedded database a running server holds, and works beside a server on PostgreSQL', async () => {
    const database = await freshDatabaseEnv();
    const env = database.env.DATA_DIR ? { DATA_DIR: mkdtempSync(join(tmpdir(), 'ramp-cli-live-')) } : database.env;
    cleanups.push(database.drop);
    const t = await startRamp({ ...env, BOOTSTRAP_DEMO_PARTNER: 'false' });
    cleanups.push(() => t.close());
    if (onPostgres) {
      const created = await keys(env, 'create', '--partner', 'Live CLI Partner');
      const key = created.stdout.trim().split('\n').at(-1)!;
      expect((await apiClient(t.url, key).get('/v0/webhooks')).status).toBe(200);
    } else {
      const failure = await keys(env, 'create', '--partner', 'Live CLI Partner').catch((e) => e);
      expect(failure.code).toBe(1);
      expect(failure.stderr).toContain(`in use by process ${process.pid}`);
      // The server's data is untouched and it keeps serving.
      expect((await t.sql('select 1 from partners')).length).toBe(0);
      expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
    }
  }, 60_000);

  it('prints usage and exits 2 on bad arguments', async () => {
    const failure = await keys({ DATA_DIR: 'memory://' }, 'create', '--environment', 'staging').catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('usage: npm run keys');
  });
});
