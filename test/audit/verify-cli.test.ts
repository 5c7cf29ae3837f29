import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRamp, type Ramp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { apiClient, migratedDatabaseEnv } from '../support/ramp.js';

/**
 * `npm run audit:verify` as an operator runs it, on this file's own database (the embedded one is opened by one
 * process at a time, so Ramp is stopped while the command runs): first a clean log, then one the owner tampered with.
 */
/** A command starts tsx and opens the database on its own: seconds, more on a busy machine. */
const COMMAND_TIMEOUT_MS = 120_000;

describe('npm run audit:verify', () => {
  let database: Awaited<ReturnType<typeof migratedDatabaseEnv>>;
  let ramp: Ramp | undefined;
  const open = async () => {
    ramp = await createRamp(
      loadConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', AUDIT_SEAL_DELAY_SECONDS: '0', ...database.env }),
    );
    return ramp;
  };
  const close = async () => {
    await ramp?.close();
    ramp = undefined;
  };
  const verify = async () => {
    const env = { ...process.env, ...database.env, LOG_LEVEL: 'silent', NODE_ENV: 'test' };
    try {
      const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'audit:verify', '--', '--grace-seconds', '3600'], { env });
      return { code: 0, stdout };
    } catch (error) {
      const failed = error as { code: number; stdout: string };
      return { code: failed.code, stdout: failed.stdout };
    }
  };
  const sql = (query: string, params: unknown[] = []) => ramp!.db.fork().execute(query, params);

  beforeAll(async () => {
    database = await migratedDatabaseEnv();
    const running = await open();
    const api = apiClient(await running.listen(), running.demoKey);
    for (const name of ['One', 'Two', 'Three']) {
      expect((await api.post('/v0/customers', { email: `${name}@example.com`, type: 'corporate', company_name: name })).status).toBe(201);
    }
    await running.jobs.runOnce();
    await close();
  });
  afterAll(async () => {
    await close();
    await database.drop();
  });

  it(
    'prints the chains’ heads and exits 0 on a log nobody touched',
    async () => {
      const { code, stdout } = await verify();
      // The demo partner's sandbox chain: its first key's creation and the three customers.
      expect(stdout).toMatch(/^4 links in 1 chain\./);
      expect(stdout).toMatch(/\n {2}[0-9a-f-]{36}\/sandbox\/4\/[0-9a-f]{64}\n/);
      expect(stdout).toMatch(/The audit log verifies/);
      expect(code).toBe(0);
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    'names each row the owner changed, deleted or forged, and exits 1',
    async () => {
      await open();
      const rows = await sql(`select id, partner_id from audit_events where action = 'customer.create' order by occurred_at, id`);
      const [first, second] = rows as { id: string; partner_id: string }[];
      await sql('alter table audit_events disable trigger audit_events_append_only');
      await sql(`update audit_events set action = 'customer.read' where id = ?`, [first!.id]);
      await sql('delete from audit_events where id = ?', [second!.id]);
      await sql('alter table audit_events enable trigger audit_events_append_only');
      await sql(
        `insert into audit_events (id, partner_id, environment, action, outcome, actor_type, occurred_at)
       values ('00000000-0000-4000-8000-00000000e001', ?, 'sandbox', 'customer.create', 'succeeded', 'api_key', now() - interval '2 days')`,
        [first!.partner_id],
      );
      await close();
      const { code, stdout } = await verify();
      expect(stdout).toMatch(/3 findings:/);
      expect(stdout).toContain(`row_changed  ${first!.partner_id}/sandbox position`);
      expect(stdout).toContain(`row ${first!.id}`);
      expect(stdout).toContain(`missing_row  ${first!.partner_id}/sandbox position`);
      expect(stdout).toContain('unlinked_row');
      expect(stdout).toContain('row 00000000-0000-4000-8000-00000000e001');
      expect(code).toBe(1);
    },
    COMMAND_TIMEOUT_MS,
  );
});
