import { execFile, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * A PostgreSQL cluster of a test's own (initdb into a temp dir, its own port and socket dir), so
 * fault-injection tests can restart, crash and stop it without ever touching the shared server.
 */
export interface PrivatePostgres {
  url: string;
  port: number;
  dataDir: string;
  /** `pg_ctl restart -m <mode>`: the server is down for a moment and comes back. */
  restart(mode: 'fast' | 'immediate'): Promise<void>;
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** SIGKILL to the postmaster (its backends die with it), then a start once the old ones are gone. */
  killPostmaster(): Promise<void>;
  /** pg_terminate_backend for every client connection but the caller's. */
  terminateClients(): Promise<number>;
  /** Runs SQL on a connection of its own. */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  destroy(): Promise<void>;
}

const run = promisify(execFile);

function binDir(): string {
  const found = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (found.status === 0 && found.stdout.trim()) return found.stdout.trim();
  const versions = spawnSync('ls', ['/usr/lib/postgresql'], { encoding: 'utf8' }).stdout.trim().split('\n');
  return `/usr/lib/postgresql/${versions.at(-1)}/bin`;
}

/** initdb and postgres refuse to run as root: as root, run them as the postgres system user. */
const asRoot = process.getuid?.() === 0;
function pgCommand(bin: string, args: string[]) {
  return asRoot ? run('runuser', ['-u', 'postgres', '--', bin, ...args]) : run(bin, args);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const dataDir = mkdtempSync(join(tmpdir(), 'ramp-faults-'));
  if (asRoot) {
    const user = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim();
    const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim();
    chownSync(dataDir, Number(user), Number(group));
  }
  const port = await freePort();
  await pgCommand(join(bin, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = [
    `-p ${port}`,
    `-k ${dataDir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=on',
    '-c full_page_writes=off',
    '-c max_connections=100',
  ].join(' ');
  const pgCtl = (...args: string[]) => pgCommand(join(bin, 'pg_ctl'), ['-D', dataDir, ...args]);
  const start = async () => {
    // After a SIGKILL the old backends may still hold shared memory for a moment: try again.
    for (let attempt = 0; ; attempt++) {
      try {
        await pgCtl('-o', options, '-l', join(dataDir, 'server.log'), '-w', '-t', '30', 'start');
        return;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  };
  await start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  async function sql<T>(query: string, params: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      return (await client.query(query, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  return {
    url,
    port,
    dataDir,
    async restart(mode) {
      await pgCtl('-m', mode, '-o', options, '-l', join(dataDir, 'server.log'), '-w', '-t', '30', 'restart');
    },
    async stop(mode) {
      await pgCtl('-m', mode, '-w', '-t', '30', 'stop');
    },
    start,
    async killPostmaster() {
      const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
      await start();
    },
    async terminateClients() {
      const rows = await sql<{ pid: number }>(`select pid from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`);
      await sql('select pg_terminate_backend(pid) from pg_stat_activity where backend_type = $1 and pid <> pg_backend_pid()', ['client backend']);
      return rows.length;
    },
    sql,
    async destroy() {
      await pgCtl('-m', 'immediate', 'stop').catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
