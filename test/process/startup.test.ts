import { execFile, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type AddressInfo, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE, isSupportedNode } from '../../src/platform/runtime/supported-node.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const SYSTEM_NODE = '/usr/bin/node';
const systemNodeVersion = existsSync(SYSTEM_NODE) ? execFileSync(SYSTEM_NODE, ['-p', 'process.versions.node']).toString().trim() : null;

// docs/operations/configuration.md: refusals to start are one sentence, never a stack trace.
describe('starting Ramp', () => {
  it(`accepts Node ${MINIMUM_NODE} and newer, and nothing older`, () => {
    for (const version of ['22.17.0', '22.17.1', '22.18.0', '23.0.0', '24.21.0', '30.1.2']) expect(isSupportedNode(version), version).toBe(true);
    for (const version of ['20.20.2', '22.16.9', '21.99.0', '18.0.0']) expect(isSupportedNode(version), version).toBe(false);
  });

  it.runIf(systemNodeVersion && !isSupportedNode(systemNodeVersion))(
    'refuses the machine’s older Node in one sentence before loading any dependency',
    async () => {
      const failure = await run(SYSTEM_NODE, ['--import', 'tsx', 'src/main.ts'], {
        cwd: root,
        env: { ...process.env, DATA_DIR: 'memory://', PORT: '0' },
      }).catch((e) => e);
      expect(failure.code).toBe(1);
      expect(failure.stderr.trim()).toBe(
        `Ramp needs Node ${MINIMUM_NODE} or newer and this is Node ${systemNodeVersion}: run it through npm (npm start, npm run start:prod), which uses the node@24 devDependency, or install a newer Node.`,
      );
    },
    30_000,
  );

  it('refuses a taken port at once, in one sentence naming PORT, before migrating or starting a chain', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    const { DATABASE_URL: _, ...env } = process.env;
    try {
      const started = performance.now();
      const failure = await run(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: root,
        env: { ...env, DATA_DIR: 'memory://', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      }).catch((e) => e);
      expect(failure.code).toBe(1);
      expect(failure.stderr.trim()).toBe(
        `Port ${port} on 127.0.0.1 is in use by another process: stop it, or start Ramp on another port with PORT=<port> (PORT=0 takes any free one).`,
      );
      // Before the seconds a migration and a chain take: refused as soon as the configuration is read.
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      holder.close();
    }
  }, 30_000);

  it('prints the sandbox key once, and how to make a new one when it is lost', async () => {
    const { DATABASE_URL: _, ...env } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: root,
      env: { ...env, NODE_ENV: 'development', DATA_DIR: mkdtempSync(join(tmpdir(), 'ramp-banner-')), PORT: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let banner = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        banner += chunk.toString();
        if (banner.includes('retires one')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${banner}`)));
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited; // stopped, its lock released
    expect(banner).toMatch(/Sandbox API key of the demo partner \(shown once, keep it\): rk_sandbox_\w{40}\n/);
    expect(banner).toContain('  Lost a key? Make a new one (stop Ramp first: the embedded database serves one process):\n');
    expect(banner).toContain('    npm run keys -- create --partner "Demo Partner"   (list shows every key, revoke <prefix> retires one)\n');
    // npm start runs the sandbox's EVM networks on a local chain of its own, and says where a wallet reaches it.
    expect(banner).toMatch(/\n {2}Chain: {5}http:\/\/127\.0\.0\.1:\d+ {3}\(sandbox chain: polygon, ethereum, base, arbitrum are live on it; faucet: POST http/);
    expect(banner).toContain('  Production networks: none configured (rails_not_connected)\n');
  }, 60_000);

  it('refuses an invalid setting in one sentence, exit 1', async () => {
    const failure = await run(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: 'memory://', PORT: 'eighty' },
    }).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stderr.trim()).toMatch(/^Invalid configuration: PORT: [^\n]+$/);
  }, 30_000);

  it('refuses, in production, the public development master key in one sentence, exit 1', async () => {
    // The key anyone can derive from src/config.ts: set, it would be as good as none.
    const developmentKey = createHash('sha256').update('ramp development encryption master key').digest('base64');
    const failure = await run(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATA_DIR: 'memory://',
        PORT: '0',
        WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
        ENCRYPTION_MASTER_KEY: developmentKey,
      },
    }).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stderr.trim()).toMatch(/^Invalid configuration: ENCRYPTION_MASTER_KEY is the public development key[^\n]+$/);
  }, 30_000);
});
