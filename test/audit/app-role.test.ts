import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRamp, type Ramp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { Refusal } from '../../src/refusal.js';
import { type ApiClient, apiClient, freshDatabaseEnv, onPostgres } from '../support/ramp.js';
import { withAdmin } from '../support/template-database.js';

/**
 * Ramp running as an application role that is not the owner: a login role made for this run, a member of `ramp_app`.
 * The owner (postgres) migrates an empty database through DATABASE_OWNER_URL; every request and job then runs as the
 * role, which may not edit the audit log nor switch off what guards it.
 */
describe.skipIf(!onPostgres)('Ramp as an application role that may only insert and read the audit log', () => {
  const role = `ramp_app_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
  let appUrl: string;
  let ramp: Ramp;
  let api: ApiClient;
  let asApp: pg.Client;

  beforeAll(async () => {
    database = await freshDatabaseEnv();
    const ownerUrl = database.env.DATABASE_URL!;
    // The migration creates ramp_app when missing; the login role needs it to exist first to be granted it.
    await withAdmin(async (c) => {
      await c.query(`do $$ begin create role ramp_app nologin; exception when duplicate_object or unique_violation then null; end $$`);
      await c.query(`create role ${role} login in role ramp_app`);
    });
    const url = new URL(ownerUrl);
    url.username = role;
    appUrl = url.toString();
    ramp = await createRamp(
      loadConfig({
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATABASE_URL: appUrl,
        DATABASE_OWNER_URL: ownerUrl,
        AUDIT_SEAL_DELAY_SECONDS: '0',
      }),
    );
    api = apiClient(await ramp.listen(), ramp.demoKey);
    asApp = new pg.Client({ connectionString: appUrl });
    await asApp.connect();
  });
  afterAll(async () => {
    await asApp?.end();
    await ramp?.close();
    await database?.drop();
    await withAdmin((c) => c.query(`drop role if exists ${role}`));
  });

  it('connects as that role, not as the owner', async () => {
    const [who] = (await ramp.db.fork().execute('select current_user as name')) as { name: string }[];
    expect(who!.name).toBe(role);
  });

  it('serves requests, which write their audit rows, and runs the sealing and trimming jobs', async () => {
    const created = await api.post('/v0/customers', { email: 'app-role@example.com', type: 'corporate', company_name: 'Least Privilege' });
    expect(created.status).toBe(201);
    const graphql = await api.graphql(
      'mutation { createCustomer(input: { type: INDIVIDUAL, email: "gql@example.com", firstName: "Ada", lastName: "L" }) { __typename } }',
    );
    expect(graphql.body).toEqual({ data: { createCustomer: { __typename: 'CreateCustomerPayload' } } });
    const log = await api.get('/v0/audit-events');
    expect(log.status).toBe(200);
    await ramp.jobs.runOnce();
    const { rows } = await asApp.query(
      `select count(*)::int as n from audit_chain c join audit_events e on e.id = c.audit_event_id where e.action = 'customer.create'`,
    );
    expect(rows[0].n).toBe(2);
  });

  it('may not UPDATE, DELETE or TRUNCATE the audit log, even naming a retention', async () => {
    await expect(asApp.query(`update audit_events set action = 'forged'`)).rejects.toThrow(/permission denied/);
    await expect(asApp.query('delete from audit_events')).rejects.toThrow(/permission denied/);
    await expect(asApp.query('truncate audit_events')).rejects.toThrow(/permission denied/);
    await expect(asApp.query(`select set_config('ramp.audit_retention', '0 seconds', false); delete from audit_events`)).rejects.toThrow(/permission denied/);
  });

  it('may not write the chain itself, nor move its state', async () => {
    await expect(asApp.query('delete from audit_chain')).rejects.toThrow(/permission denied/);
    await expect(asApp.query(`update audit_log_state set sealed_through = '-infinity'`)).rejects.toThrow(/permission denied/);
  });

  it('may not disable the trigger, drop it, nor set session_replication_role', async () => {
    await expect(asApp.query('alter table audit_events disable trigger audit_events_append_only')).rejects.toThrow(/must be owner/);
    await expect(asApp.query('drop trigger audit_events_append_only on audit_events')).rejects.toThrow(/must be owner/);
    await expect(asApp.query('set session_replication_role = replica')).rejects.toThrow(/permission denied/);
  });

  it('trims through audit_trim, which deletes nothing younger than 30 days whatever it is asked', async () => {
    const before = await asApp.query('select count(*)::int as n from audit_events');
    const { rows } = await asApp.query('select audit_trim(0, 1000) as deleted');
    expect(rows[0].deleted).toBe(0);
    expect((await asApp.query('select count(*)::int as n from audit_events')).rows).toEqual(before.rows);
  });

  it('verifies with npm run audit:verify as that role', async () => {
    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'audit:verify', '--', '--grace-seconds', '0'], {
      env: { ...process.env, DATABASE_URL: appUrl, DATABASE_OWNER_URL: database.env.DATABASE_URL!, LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    });
    expect(stdout).toMatch(/The audit log verifies/);
  }, 120_000);
});

describe('DATABASE_OWNER_URL', () => {
  it('is refused without DATABASE_URL, the role Ramp runs as', () => {
    expect(() => loadConfig({ DATABASE_OWNER_URL: 'postgres://owner@127.0.0.1/ramp' })).toThrow(Refusal);
    expect(() => loadConfig({ DATABASE_OWNER_URL: 'postgres://owner@127.0.0.1/ramp' })).toThrow(/needs DATABASE_URL/);
  });
});
