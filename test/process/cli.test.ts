import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient, freshDatabaseEnv, onPostgres, startRamp } from '../support/ramp.js';
import { wsClient } from '../support/clients/subscriptions.js';

const run = promisify(execFile);
const keys = (env: Record<string, string>, ...args: string[]) =>
  // This Node with tsx, as `npm run keys` does (npx would add its own warnings to stderr, and seconds).
  run(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', ...args], { env: { ...process.env, ...env }, cwd: join(import.meta.dirname, '../..') });

/** A database of its own: PostgreSQL, or a temporary embedded one (not `memory://`: the CLI and the server share it). */
async function cliDatabase(cleanups: Array<() => Promise<void>>) {
  const database = await freshDatabaseEnv();
  cleanups.push(database.drop);
  return database.env.DATA_DIR ? { DATA_DIR: mkdtempSync(join(tmpdir(), 'ramp-cli-')) } : database.env;
}
const lastLine = (output: string) => output.trim().split('\n').at(-1)!;
const prefixOf = (key: string) => key.slice(0, key.lastIndexOf('_') + 9);

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
      // One sentence that says what to do, not a stack trace.
      expect(failure.stderr.trim().split('\n').at(-1)).toMatch(/^The embedded database in .* is in use by process \d+: stop that process first, .*\.$/);
      expect(failure.stderr).toContain(`in use by process ${process.pid}`);
      expect(failure.stderr).not.toMatch(/^\s+at /m);
      // The server's data is untouched and it keeps serving.
      expect((await t.sql('select 1 from partners')).length).toBe(0);
      expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
    }
  }, 60_000);

  it('prints usage and exits 2 on bad arguments', async () => {
    for (const args of [['create', '--environment', 'staging'], ['revoke'], ['list', '--colour'], ['rotate']]) {
      const failure = await keys({ DATA_DIR: 'memory://' }, ...args).catch((e) => e);
      expect(failure.code, args.join(' ')).toBe(2);
      expect(failure.stderr).toContain('usage: npm run keys -- list');
    }
  });
});

// Two commands racing for one new partner: only PostgreSQL lets two processes at one database (the embedded one
// is held by one process at a time, and the other is refused in one sentence, above).
describe.skipIf(!onPostgres)('npm run keys -- create racing another create of the same new partner', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('finds the partner the other made and adds its key, where it used to die on the unique name with a stack trace', async () => {
    const { env } = await (async () => {
      const database = await freshDatabaseEnv();
      cleanups.push(database.drop);
      return database;
    })();
    await keys(env, 'list'); // migrates the database
    // The other command: its partner inserted, not yet committed, so this command's look finds nothing and its insert waits.
    const [other, watcher] = [new pg.Client({ connectionString: env.DATABASE_URL }), new pg.Client({ connectionString: env.DATABASE_URL })];
    await Promise.all([other.connect(), watcher.connect()]);
    cleanups.unshift(
      () => other.end(),
      () => watcher.end(),
    );
    await other.query('begin');
    await other.query("insert into partners (id, name, client_id) values (gen_random_uuid(), 'Racing Partner', 'client_racing')");
    const racing = keys(env, 'create', '--partner', 'Racing Partner').catch((e) => e);
    // Watched from outside the open transaction, whose view of pg_stat_activity would not change.
    const waiting = async () =>
      (await watcher.query("select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'")).rowCount;
    const deadline = Date.now() + 20_000;
    while (!(await waiting()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await other.query('commit');

    const created = await racing;
    expect(created.stderr ?? '').not.toContain('UniqueConstraintViolation');
    expect(created.code ?? 0).toBe(0);
    expect(created.stdout).toContain('Found partner "Racing Partner"');
    expect(lastLine(created.stdout)).toMatch(/^rk_sandbox_[A-Za-z0-9]{40}$/);
    const { rows } = await other.query("select count(*)::int as n from api_keys k join partners p on p.id = k.partner_id where p.name = 'Racing Partner'");
    expect(rows).toEqual([{ n: 1 }]);
  }, 60_000);
});

describe('npm run keys -- list and revoke', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('lists every key by prefix with its partner, environment, creation, last use and revocation, never the secret', async () => {
    const env = await cliDatabase(cleanups);
    const sandboxKey = lastLine((await keys(env, 'create', '--partner', 'Lister')).stdout);
    const liveKey = lastLine((await keys(env, 'create', '--partner', 'Lister', '--environment', 'production')).stdout);
    await keys(env, 'create', '--partner', 'Someone Else');
    const t = await startRamp({ ...env, BOOTSTRAP_DEMO_PARTNER: 'false' });
    expect((await apiClient(t.url, sandboxKey).get('/v0/webhooks')).status).toBe(200);
    await t.close(); // the embedded database serves one process at a time
    await keys(env, 'revoke', prefixOf(liveKey));

    const { stdout } = await keys(env, 'list', '--partner', 'Lister');
    const [header, ...rows] = stdout.trim().split('\n');
    expect(header).toMatch(/^PREFIX\s+PARTNER\s+ENVIRONMENT\s+SCOPES\s+ALLOWED IPS\s+CREATED\s+LAST USED\s+REVOKED$/);
    const minute = '\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC';
    const every = 'read,write,simulate,webhooks,admin\\s+any';
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${prefixOf(sandboxKey)}\\s+Lister\\s+sandbox\\s+${every}\\s+${minute}\\s+${minute}\\s+-$`)),
        expect.stringMatching(new RegExp(`^${prefixOf(liveKey)}\\s+Lister\\s+production\\s+${every}\\s+${minute}\\s+never\\s+${minute}$`)),
      ]),
    );
    for (const key of [sandboxKey, liveKey]) expect(stdout).not.toContain(key.slice(prefixOf(key).length));
    expect((await keys(env, 'list')).stdout).toContain('Someone Else');

    const unknown = await keys(env, 'list', '--partner', 'Nobody').catch((e) => e);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('No partner is named "Nobody"; npm run keys -- list shows every partner\'s keys.');
  }, 90_000);

  it('creates a key with --scope and --allow-ip, lists them, and the server holds the key to them', async () => {
    const env = await cliDatabase(cleanups);
    const created = await keys(
      env,
      'create',
      '--partner',
      'Scoped',
      '--scope',
      'read',
      '--scope',
      'webhooks',
      '--allow-ip',
      '127.0.0.1',
      '--allow-ip',
      '::1/128',
    );
    expect(created.stdout).toContain('(read, webhooks; from 127.0.0.1, ::1/128 only)');
    const key = lastLine(created.stdout);
    expect(key).toMatch(/^rk_sandbox_[A-Za-z0-9]{40}$/);
    const row = (await keys(env, 'list', '--partner', 'Scoped')).stdout.trim().split('\n')[1]!;
    expect(row).toMatch(new RegExp(`^${prefixOf(key)}\\s+Scoped\\s+sandbox\\s+read,webhooks\\s+127\\.0\\.0\\.1,::1\\s`));
    const refused = await keys(env, 'create', '--partner', 'Scoped', '--scope', 'everything', '--allow-ip', '10.0.0.0/33').catch((e) => e);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--allow-ip must be an IPv4 or IPv6 address or CIDR range');
    expect(refused.stderr).toContain('--scope');
    expect(refused.stdout).toBe('');

    const t = await startRamp({ ...env, BOOTSTRAP_DEMO_PARTNER: 'false' });
    cleanups.push(() => t.close());
    const client = apiClient(t.url, key);
    expect((await client.get('/v0/customers')).status).toBe(200);
    const write = await client.post('/v0/customers', { email: 'scoped@example.com', type: 'individual', first_name: 'A', last_name: 'B' });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ code: 'insufficient_scope' });
  }, 90_000);

  it('revokes a key by prefix: a server on the same database refuses it at once and closes its open subscription', async () => {
    const env = await cliDatabase(cleanups);
    const key = lastLine((await keys(env, 'create', '--partner', 'Revoker')).stdout);
    const spare = lastLine((await keys(env, 'create', '--partner', 'Revoker')).stdout);
    // On PostgreSQL the CLI runs beside the server; the embedded database must be free for it.
    const server = onPostgres ? await startRamp({ ...env, BOOTSTRAP_DEMO_PARTNER: 'false' }) : null;
    if (server) cleanups.push(() => server.close());
    const subscription = server && wsClient(server.url, key);
    if (subscription) cleanups.push(async () => subscription.dispose());
    const closed = new Promise<{ code: number }>((resolve) => subscription?.on('closed', (event) => resolve(event as { code: number })));
    if (subscription) {
      const connected = new Promise((resolve) => subscription.on('connected', resolve));
      subscription.subscribe({ query: 'subscription { events { id } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
      await connected;
    }

    const revoked = await keys(env, 'revoke', prefixOf(key));
    expect(revoked.stdout.trim()).toBe(
      `Revoked ${prefixOf(key)} (sandbox key of "Revoker"): every instance refuses it from now on and closes its open subscriptions within seconds.`,
    );
    const t = server ?? (await startRamp({ ...env, BOOTSTRAP_DEMO_PARTNER: 'false' }));
    try {
      expect((await apiClient(t.url, key).get('/v0/webhooks')).status).toBe(401);
      expect((await apiClient(t.url, spare).get('/v0/webhooks')).status).toBe(200);
      if (subscription) expect((await closed).code).toBe(4403);
    } finally {
      if (!server) await t.close();
    }

    const again = await keys(env, 'revoke', prefixOf(key));
    expect(again.stdout.trim()).toMatch(new RegExp(`^${prefixOf(key)} \\(sandbox key of "Revoker"\\) was already revoked on .* UTC\\.$`));
    const unknown = await keys(env, 'revoke', 'rk_sandbox_AAAAAAAA').catch((e) => e);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('No API key has the prefix or id "rk_sandbox_AAAAAAAA"; npm run keys -- list shows the prefixes.');
  }, 90_000);
});
