import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { LOCK_STALE_MS, lockDataDir } from '../../src/platform/db/data-dir-lock.js';
import { onPostgres, startRamp } from '../support/ramp.js';

const run = promisify(execFile);
const dataDir = () => mkdtempSync(join(tmpdir(), 'ramp-lock-'));
const embedded = (dir: string) => ({ DATA_DIR: dir, BOOTSTRAP_DEMO_PARTNER: 'false' });

// The lock guards embedded PGlite only; on PostgreSQL there is nothing to lock.
describe.skipIf(onPostgres)('the embedded database lock', () => {
  it('takes over a lock file left by a crashed process that had our own pid (PID 1 restarting in a container)', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'ramp.lock'), String(process.pid));
    const t = await startRamp(embedded(dir));
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
    await t.close();
  });

  it('takes over at once a lock whose holder stopped refreshing it long ago', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'ramp.lock'));
    writeFileSync(join(dir, 'ramp.lock.owner'), String(process.pid));
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'ramp.lock'), longAgo, longAgo);
    // Timed on the lock alone: a whole start on a busy CI machine may take seconds for other reasons.
    const started = Date.now();
    lockDataDir(dir)();
    expect(Date.now() - started).toBeLessThan(LOCK_STALE_MS / 2);
    const t = await startRamp(embedded(dir));
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
    await t.close();
    expect(existsSync(join(dir, 'ramp.lock'))).toBe(false);
  });

  it('waits for a just-abandoned lock to go stale, then takes it over', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'ramp.lock')); // fresh, but nobody keeps it fresh
    const t = await startRamp(embedded(dir));
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
    await t.close();
  }, 30_000);

  it('refuses `npm start` on a held database with one sentence and exit 1, not a stack trace', async () => {
    const dir = dataDir();
    const t = await startRamp(embedded(dir));
    try {
      const { DATABASE_URL: _, ...env } = process.env;
      const failure = await run(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: join(import.meta.dirname, '../..'),
        env: { ...env, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      }).catch((e) => e);
      expect(failure.code).toBe(1);
      expect(failure.stdout).toBe('');
      const lines = failure.stderr.trim().split('\n');
      // At most the notice that it waits for the lock to go stale, then the refusal.
      expect(lines.length).toBeLessThanOrEqual(2);
      expect(lines.at(-1)).toBe(
        `The embedded database in ${dir} is in use by process ${process.pid}: stop that process first, or give both the same DATABASE_URL (PostgreSQL serves many processes).`,
      );
    } finally {
      await t.close();
    }
  }, 60_000);

  it('refuses a second opener while the holder is alive, naming the holder', async () => {
    const dir = dataDir();
    const t = await startRamp(embedded(dir));
    try {
      await expect(startRamp(embedded(dir))).rejects.toThrow(`in use by process ${process.pid}`);
      expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
    } finally {
      await t.close();
    }
    // Released on close: the next start gets it without waiting.
    const started = Date.now();
    const again = await startRamp(embedded(dir));
    expect(Date.now() - started).toBeLessThan(8_000);
    await again.close();
  });
});
