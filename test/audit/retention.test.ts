import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { verifyAuditChain } from '../../src/modules/audit/chain.js';
import { startRamp, type TestRamp } from '../support/ramp.js';

/**
 * Rows leave the audit log only through `audit_trim`, whose 30-day floor the migration fixed: no session setting, no
 * argument, lets anyone delete a younger row. (The test's connection is the owner's, on both databases.)
 */
let t: TestRamp;
let partnerId: string;
const count = async () => (await t.sql<{ n: number }>('select count(*)::int as n from audit_events'))[0]!.n;
/** A row as old as `age`, as if written then (inserting is what the application may do). */
async function rowAged(id: string, age: string) {
  await t.sql(
    `insert into audit_events (id, partner_id, environment, action, outcome, actor_type, occurred_at)
     values (?, ?, 'sandbox', 'customer.create', 'succeeded', 'api_key', now() - ?::interval)`,
    [id, partnerId, age],
  );
}
/** `begin; select set_config(name, value, true); delete from audit_events; commit`. */
const deleteAllSetting = (name: string, value: string) =>
  t.ramp.db.fork().transactional(async (tx) => {
    await tx.execute('select set_config(?, ?, true)', [name, value]);
    await tx.execute('delete from audit_events');
  });
/**
 * Links the rows inserted into the past by the sealing function's own rules: as the owner, the test moves back how far
 * the chain has sealed, so the job links them as it would have when they were written.
 */
async function sealFromTheStart() {
  await t.sql(`update audit_log_state set sealed_through = '-infinity'`);
  await t.ramp.jobs.runOnce();
}
const left = async (ids: string[]) =>
  (await t.sql<{ id: string }>(`select id from audit_events where id in (${ids.map(() => '?').join(', ')})`, ids)).map((r) => r.id).sort();

beforeAll(async () => {
  t = await startRamp({ AUDIT_SEAL_DELAY_SECONDS: '0', AUDIT_RETENTION_DAYS: '90' });
  const created = await t.client(t.key).post('/v0/customers', { email: 'kept@example.com', type: 'corporate', company_name: 'Kept' });
  expect(created.status).toBe(201);
  [{ partner_id: partnerId }] = (await t.sql<{ partner_id: string }>('select partner_id from audit_events limit 1')) as [{ partner_id: string }];
});
afterAll(() => t.close());

describe('audit retention', () => {
  it('no longer lets a session wipe the log by naming its own retention', async () => {
    const before = await count();
    expect(before).toBeGreaterThan(0);
    await expect(deleteAllSetting('ramp.audit_retention', '0 seconds')).rejects.toThrow(/append-only/);
    // Nor by claiming to be the trim: the floor holds even then.
    await expect(deleteAllSetting('ramp.audit_trimming', 'on')).rejects.toThrow(/append-only/);
    expect(await count()).toBe(before);
  });

  it('refuses to start with AUDIT_RETENTION_DAYS under the 30-day floor', () => {
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: '29' })).toThrow(/AUDIT_RETENTION_DAYS/);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '30' }).AUDIT_RETENTION_DAYS).toBe(30);
  });

  it('never trims a row younger than 30 days, whatever retention the caller asks for', async () => {
    const young = '00000000-0000-4000-8000-00000000b001';
    const old = '00000000-0000-4000-8000-00000000b002';
    await rowAged(young, '29 days');
    await rowAged(old, '31 days');
    await sealFromTheStart();
    const [trim] = await t.sql<{ deleted: number }>('select audit_trim(0, 1000) as deleted');
    expect(trim!.deleted).toBe(1);
    expect(await left([young, old])).toEqual([young]);
  });

  it('trims, with the job, linked rows older than AUDIT_RETENTION_DAYS, and the chain still verifies', async () => {
    const expired = '00000000-0000-4000-8000-00000000c001';
    const kept = '00000000-0000-4000-8000-00000000c002';
    await rowAged(expired, '91 days');
    await rowAged(kept, '89 days');
    await sealFromTheStart();
    expect(await left([expired, kept])).toEqual([kept]);
    // The trimmed rows' links stay: the chain is whole from its first link, and their rows count as trimmed, not missing.
    const report = await verifyAuditChain(t.ramp.db.fork(), { graceSeconds: 0 });
    expect(report.findings).toEqual([]);
    const [links] = await t.sql<{ n: number }>('select count(*)::int as n from audit_chain where audit_event_id in (?, ?)', [expired, kept]);
    expect(links!.n).toBe(2);
  });

  it('keeps an unlinked row however old, until the chain has linked it', async () => {
    const unlinked = '00000000-0000-4000-8000-00000000d001';
    // Older than the sealing window: the sealing job never links it, so the trim never deletes it (and audit:verify reports it).
    await rowAged(unlinked, '200 days');
    await t.ramp.jobs.runOnce();
    expect(await left([unlinked])).toEqual([unlinked]);
  });
});
