import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabaseEnv } from '../support/ramp.js';

describe('npm start process', () => {
  it('prints its addresses and demo key, serves, and exits 0 on SIGTERM after closing', async () => {
    const database = await freshDatabaseEnv();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: join(import.meta.dirname, '../..'),
      env: { ...process.env, ...database.env, PORT: '0', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      while (!/Sandbox API key/.test(stdout)) {
        if (child.exitCode !== null) throw new Error(`exited early: ${stdout}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const url = /GraphQL:\s+(http:\/\/\S+)\/graphql/.exec(stdout)![1]!;
      expect(stdout).toContain(`REST docs: ${url}/docs`);
      const key = /(rk_sandbox_[A-Za-z0-9]+)/.exec(stdout)![1]!;
      const res = await fetch(`${url}/v0/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'start@example.com', type: 'corporate', company_name: 'Start' }),
      });
      expect(res.status).toBe(201);
      expect((await fetch(`${url}/docs`)).headers.get('content-type')).toContain('text/html');

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
      await database.drop();
    }
  }, 60_000);
});
