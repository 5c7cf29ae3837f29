import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainFinding, verifyAuditChain } from '../../src/modules/audit/chain.js';
import { startRamp, type TestRamp } from '../support/ramp.js';

/**
 * The audit log's hash chain shows what the database's owner did behind Ramp's back: each test tampers as the owner
 * (the test's own connection: the owner on both databases) with one partner's rows, and the verification names it.
 */
let t: TestRamp;
let n = 0;

beforeAll(async () => {
  // Rows are linked as soon as they are committed, so a test can seal what it just wrote.
  t = await startRamp({ AUDIT_SEAL_DELAY_SECONDS: '0' });
});
afterAll(() => t.close());

/** A partner of its own with a few audited calls: its chain is what the test tampers with. */
async function partnerWithRows(calls = 3): Promise<string> {
  const name = `Chained ${++n}`;
  const api = t.client(await t.keyFor(name));
  for (let i = 0; i < calls; i++) {
    const created = await api.post('/v0/customers', { email: `chain${n}-${i}@example.com`, type: 'corporate', company_name: `Chained ${n}.${i}` });
    expect(created.status).toBe(201);
  }
  const [partner] = await t.sql<{ id: string }>('select id from partners where name = ?', [name]);
  return partner!.id;
}

const seal = () => t.ramp.jobs.runOnce();
const verify = (graceSeconds = 3600) => verifyAuditChain(t.ramp.db.fork(), { graceSeconds });
const findingsOf = async (partnerId: string): Promise<ChainFinding[]> => (await verify()).findings.filter((f) => f.partnerId === partnerId);
const rowsOf = (partnerId: string) =>
  t.sql<{ id: string; action: string }>(`select id, action from audit_events where partner_id = ? and action = 'customer.create' order by occurred_at, id`, [
    partnerId,
  ]);
/** Runs `sql` with the audit log's triggers off, as only the owner can. */
async function asOwnerBehindTheTrigger(sql: string, params: unknown[]) {
  await t.sql('alter table audit_events disable trigger audit_events_append_only');
  try {
    await t.sql(sql, params);
  } finally {
    await t.sql('alter table audit_events enable trigger audit_events_append_only');
  }
}

describe('the audit hash chain', () => {
  it('links every row, written by 32 writers at once, into one chain a partner and environment, and verifies', async () => {
    const api = t.client(await t.keyFor('Busy partner'));
    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, i) => api.post('/v0/customers', { email: `busy${i}@example.com`, type: 'corporate', company_name: `Busy ${i}` })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(32).fill(201));
    await seal();
    const report = await verify(0);
    expect(report.findings).toEqual([]);
    const [busy] = await t.sql<{ id: string }>(`select id from partners where name = 'Busy partner'`);
    const head = report.heads.find((h) => h.partnerId === busy!.id && h.environment === 'sandbox');
    // The key's creation and the 32 customers.
    expect(head).toMatchObject({ position: 33, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const [linked] = await t.sql<{ n: number }>('select count(*)::int as n from audit_chain where partner_id = ?', [busy!.id]);
    expect(linked!.n).toBe(33);
  });

  it('links a row that commits after later rows were linked, after them, and still verifies', async () => {
    const partnerId = await partnerWithRows(1);
    await seal();
    // A transaction that began five minutes ago and commits only now: its row is older than rows already linked.
    const late = '00000000-0000-4000-8000-00000000a001';
    await t.sql(
      `insert into audit_events (id, partner_id, environment, action, outcome, actor_type, occurred_at)
       values (?, ?, 'sandbox', 'customer.create', 'succeeded', 'api_key', now() - interval '5 minutes')`,
      [late, partnerId],
    );
    await seal();
    const [link] = await t.sql<{ position: string }>('select position::text as position from audit_chain where audit_event_id = ?', [late]);
    expect(link!.position).toBe('3');
    expect(await findingsOf(partnerId)).toEqual([]);
  });

  it('names a row the owner changed with the trigger disabled', async () => {
    const partnerId = await partnerWithRows();
    await seal();
    const [, second] = await rowsOf(partnerId);
    await asOwnerBehindTheTrigger(`update audit_events set action = 'customer.read' where id = ?`, [second!.id]);
    expect(await findingsOf(partnerId)).toEqual([expect.objectContaining({ kind: 'row_changed', auditEventId: second!.id, position: 3 })]);
  });

  it('names a row the owner deleted', async () => {
    const partnerId = await partnerWithRows();
    await seal();
    const [first] = await rowsOf(partnerId);
    await asOwnerBehindTheTrigger('delete from audit_events where id = ?', [first!.id]);
    expect(await findingsOf(partnerId)).toEqual([expect.objectContaining({ kind: 'missing_row', auditEventId: first!.id, position: 2 })]);
  });

  it('names a deleted row even when the owner claims a trim took it', async () => {
    const partnerId = await partnerWithRows(1);
    await seal();
    const [row] = await rowsOf(partnerId);
    await asOwnerBehindTheTrigger('delete from audit_events where id = ?', [row!.id]);
    await t.sql('update audit_log_state set trimmed_before = now()');
    try {
      expect(await findingsOf(partnerId)).toEqual([expect.objectContaining({ kind: 'missing_row', auditEventId: row!.id })]);
    } finally {
      await t.sql(`update audit_log_state set trimmed_before = '-infinity'`);
    }
  });

  it('names a row the owner forged into the past, which the chain never linked', async () => {
    const partnerId = await partnerWithRows(1);
    await seal();
    const forged = '00000000-0000-4000-8000-00000000f001';
    await t.sql(
      `insert into audit_events (id, partner_id, environment, action, outcome, actor_type, occurred_at)
       values (?, ?, 'sandbox', 'customer.create', 'succeeded', 'api_key', now() - interval '2 days')`,
      [forged, partnerId],
    );
    await seal();
    expect(await findingsOf(partnerId)).toEqual([expect.objectContaining({ kind: 'unlinked_row', auditEventId: forged, position: null })]);
  });

  it('names a link the owner rewrote, and the break after it', async () => {
    const partnerId = await partnerWithRows();
    await seal();
    await t.sql('alter table audit_chain disable trigger audit_chain_append_only');
    try {
      await t.sql(`update audit_chain set hash = sha256(hash) where partner_id = ? and position = 2`, [partnerId]);
    } finally {
      await t.sql('alter table audit_chain enable trigger audit_chain_append_only');
    }
    expect((await findingsOf(partnerId)).map((f) => [f.kind, f.position])).toEqual([
      ['link_changed', 2],
      ['broken_link', 3],
    ]);
  });

  it('catches a chain the owner rewrote whole, without a row, against a head recorded before', async () => {
    const partnerId = await partnerWithRows(2);
    await seal();
    const recorded = (await verify()).heads.find((h) => h.partnerId === partnerId)!;
    // The owner deletes a row and rebuilds the partner's chain without it, consistently, by the sealing function's rules.
    const [first] = await rowsOf(partnerId);
    await asOwnerBehindTheTrigger('delete from audit_events where id = ?', [first!.id]);
    await t.sql('alter table audit_chain disable trigger audit_chain_append_only');
    try {
      await t.sql('delete from audit_chain where partner_id = ?', [partnerId]);
    } finally {
      await t.sql('alter table audit_chain enable trigger audit_chain_append_only');
    }
    await t.sql(`update audit_log_state set sealed_through = now() - interval '30 minutes'`);
    await seal();
    // On its own the rebuilt chain holds together; only the head recorded elsewhere shows the rewrite.
    expect(await findingsOf(partnerId)).toEqual([]);
    const checked = await verifyAuditChain(t.ramp.db.fork(), { graceSeconds: 3600, expected: [recorded] });
    expect(checked.findings.filter((f) => f.partnerId === partnerId)).toEqual([
      expect.objectContaining({ kind: 'missing_link', position: recorded.position, detail: expect.stringContaining(recorded.hash) }),
    ]);
  });
});
