import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createRamp, type Ramp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { issueApiKey, revokeApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { VerifiedKeys } from '../../src/platform/security/auth.js';
import { recordSqlStatements } from '../support/sql-statements.js';
import { apiClient, freshDatabaseEnv, onPostgres, startRamp, type TestRamp } from '../support/ramp.js';
import { sleep } from '../support/clients/webhook-receiver.js';

// A verified API key costs no round trip per request, and a revocation still reaches every instance.
const prefixOf = (key: string) => key.slice(0, key.lastIndexOf('_') + 9);
const keyReads = (statements: string[]) => statements.filter((sql) => /from "api_keys"/i.test(sql));
const run = promisify(execFile);
const CUSTOMERS = '{ customers(first: 1) { edges { node { id } } } }';

/** The status a request gets once it changes to `status`, and how long that took (at most `withinMs`, then the last status). */
async function untilStatus(request: () => Promise<{ status: number }>, status: number, withinMs: number) {
  const started = Date.now();
  for (;;) {
    const { status: now } = await request();
    if (now === status || Date.now() - started > withinMs) return { status: now, ms: Date.now() - started };
    await sleep(10);
  }
}

describe('verified API keys', () => {
  const sql = recordSqlStatements();
  let t: TestRamp;
  beforeAll(async () => {
    t = await startRamp({ EVENTS_CATCHUP_INTERVAL_MS: '60000' });
  });
  afterAll(() => t.close());

  it('reads a key from the database once, not on every request', async () => {
    const key = await t.keyFor('Cached Partner');
    const first = await sql.during(() => t.client(key).get('/v0/webhooks'));
    expect(keyReads(first)).toHaveLength(1);
    for (let i = 0; i < 3; i++) {
      const again = await sql.during(() => t.client(key).get('/v0/webhooks'));
      expect(keyReads(again), again.join('\n')).toHaveLength(0);
    }
    const graphql = await sql.during(() => t.client(key).graphql(CUSTOMERS));
    expect(keyReads(graphql)).toHaveLength(0);
  });

  it('checks a graphql-ws connection’s key in the database, not among the kept ones (its one check for days)', async () => {
    const key = await t.keyFor('Socket Partner');
    expect((await t.client(key).get('/v0/webhooks')).status).toBe(200);
    // Revoked behind Ramp's back (no notification): HTTP still trusts the kept key, a new connection does not.
    await t.sql('update api_keys set revoked_at = now() where prefix = ?', [prefixOf(key)]);
    expect((await t.client(key).get('/v0/webhooks')).status).toBe(200);
    const socket = new WebSocket(`${t.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    const received: string[] = [];
    socket.on('message', (message) => received.push(JSON.parse(String(message)).type));
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } })));
    // Refused at connection_init, not acknowledged and closed later by the key watch.
    expect(await closed).toBe(4403);
    expect(received).toEqual([]);
  });

  it('never keeps a failure: a wrong secret of a real prefix is looked up every time, and the right key then works', async () => {
    const key = await t.keyFor('Probed Partner');
    const wrong = `${prefixOf(key)}${'x'.repeat(32)}`;
    for (let i = 0; i < 3; i++) {
      let status = 0;
      const statements = await sql.during(async () => {
        status = (await apiClient(t.url, wrong).get('/v0/webhooks')).status;
      });
      expect(status).toBe(401);
      expect(keyReads(statements)).toHaveLength(1);
    }
    expect((await t.client(key).get('/v0/webhooks')).status).toBe(200);
  });

  it('refuses a key revoked through the service within a second, on REST and GraphQL', async () => {
    const key = await t.keyFor('Revoked Cached Partner');
    expect((await t.client(key).get('/v0/webhooks')).status).toBe(200);
    await revokeApiKey(t.ramp.db.fork(), prefixOf(key));
    const rest = await untilStatus(() => t.client(key).get('/v0/webhooks'), 401, 1_000);
    expect(rest.status).toBe(401);
    expect((await t.client(key).graphql(CUSTOMERS)).status).toBe(401);
  });
});

describe('the verified-key store', () => {
  const entry = (apiKeyId: string, expiresAt = 1_000) => ({
    actor: { partnerId: 'p', environment: 'sandbox' as const, apiKeyId, apiKeyPrefix: 'rk_sandbox_test0000' },
    expiresAt,
    lastUsedAt: 0,
  });

  it('keeps at most its size, dropping the least recently used key first', () => {
    const keys = new VerifiedKeys(1_000, 2);
    keys.set('a', entry('A'), keys.generation);
    keys.set('b', entry('B'), keys.generation);
    expect(keys.get('a', 0)).toBeDefined(); // a is now the most recently used
    keys.set('c', entry('C'), keys.generation);
    expect(keys.size).toBe(2);
    expect(keys.get('b', 0)).toBeUndefined();
    expect(keys.get('a', 0)?.actor.apiKeyId).toBe('A');
    expect(keys.get('c', 0)?.actor.apiKeyId).toBe('C');
  });

  it('moves a key it finds to the recent end at most once a second, so a busy key is not reordered on every request', () => {
    const keys = new VerifiedKeys(10_000, 2);
    keys.set('a', entry('A', 10_000), keys.generation);
    keys.set('b', entry('B', 10_000), keys.generation);
    keys.get('a', 0); // moved: b, a
    keys.get('b', 10); // moved: a, b
    keys.get('a', 500); // within a second of its last move: still a, b
    keys.set('c', entry('C', 10_000), keys.generation);
    expect(keys.get('a', 600)).toBeUndefined();
    keys.get('b', 1_010); // a second after its last move: moved again, c, b
    keys.set('d', entry('D', 10_000), keys.generation);
    expect(keys.get('c', 1_100)).toBeUndefined();
    expect(keys.get('b', 1_100)?.actor.apiKeyId).toBe('B');
  });

  it('forgets a key once its time is up', () => {
    const keys = new VerifiedKeys();
    keys.set('a', entry('A', 500), keys.generation);
    expect(keys.get('a', 499)).toBeDefined();
    expect(keys.get('a', 500)).toBeUndefined();
    expect(keys.size).toBe(0);
  });

  it('does not keep a key read before a revocation or a clear that came while it was read', () => {
    const keys = new VerifiedKeys();
    const before = keys.generation;
    keys.forget('other');
    keys.set('a', entry('A'), before);
    expect(keys.get('a', 0)).toBeUndefined();
    const later = keys.generation;
    keys.clear();
    keys.set('a', entry('A'), later);
    expect(keys.size).toBe(0);
  });
});

// Two Ramps on one PostgreSQL database: the revocation reaches the other instance by pg_notify.
describe.runIf(onPostgres)('verified API keys on two instances', () => {
  let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
  const instances: Ramp[] = [];
  let a: Ramp;
  let b: Ramp;
  let partners = 0;
  beforeAll(async () => {
    database = await freshDatabaseEnv();
    // The catch-up poll is slow on purpose: only the notification can carry a revocation within a second.
    const env = {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      EVENTS_CATCHUP_INTERVAL_MS: '60000',
      ...database.env,
    };
    for (let i = 0; i < 2; i++) {
      const ramp = await createRamp(loadConfig(env));
      await ramp.listen();
      instances.push(ramp);
    }
    [a, b] = instances as [Ramp, Ramp];
  });
  afterAll(async () => {
    for (const ramp of instances) await ramp.close();
    await database.drop();
  });

  /** A new key, already verified (and so kept) by both instances. */
  const keyUsedOnBoth = async () => {
    const em = a.db.fork();
    const key = await issueApiKey(em, (await ensurePartner(em, `Two-Instance Partner ${++partners}`)).partner, 'sandbox');
    for (const ramp of instances) expect((await apiClient(ramp.url(), key).get('/v0/webhooks')).status).toBe(200);
    return key;
  };

  it('refuses on instance B, within a second, a key revoked through the service on instance A', async () => {
    const key = await keyUsedOnBoth();
    await revokeApiKey(a.db.fork(), prefixOf(key));
    const onB = await untilStatus(() => apiClient(b.url(), key).get('/v0/webhooks'), 401, 1_000);
    expect(onB.status).toBe(401);
    expect((await apiClient(a.url(), key).graphql(CUSTOMERS)).status).toBe(401);
  });

  it('refuses on both instances a key revoked through the keys CLI, by the time the CLI is done', async () => {
    const key = await keyUsedOnBoth();
    const root = join(import.meta.dirname, '../..');
    await run(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'revoke', prefixOf(key)], { env: { ...process.env, ...database.env }, cwd: root });
    for (const ramp of instances) {
      const refused = await untilStatus(() => apiClient(ramp.url(), key).get('/v0/webhooks'), 401, 1_000);
      expect(refused.status).toBe(401);
    }
  }, 60_000);

  it('forgets every verified key when its notification connection is lost, so a revocation it missed still counts', async () => {
    const key = await keyUsedOnBoth();
    // Revoked without a notification, as if it had been sent while B was not listening.
    const silently = () => a.db.fork().execute('update api_keys set revoked_at = now() where prefix = ?', [prefixOf(key)]);
    await silently();
    await sleep(300);
    expect((await apiClient(b.url(), key).get('/v0/webhooks')).status).toBe(200); // kept: nothing told B

    await a.db
      .fork()
      .execute(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'ramp-notifier' and datname = current_database()`);
    const onB = await untilStatus(() => apiClient(b.url(), key).get('/v0/webhooks'), 401, 3_000);
    expect(onB.status).toBe(401);
  });
});
