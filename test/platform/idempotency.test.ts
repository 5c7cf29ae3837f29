import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerDeclared, fingerprint } from '../../src/platform/use-cases/idempotency.js';
import { useCase } from '../../src/platform/use-cases/use-case.js';
import { type ApiClient, onPostgres, startRamp, type TestRamp } from '../support/ramp.js';
import { customerIdsWithEmail } from '../support/data/sealed.js';

let t: TestRamp;
let api: ApiClient;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

const corporate = (email: string) => ({ email, type: 'corporate', company_name: 'Idem Ltd' });
const countCustomers = async (email: string) => (await customerIdsWithEmail(t, email)).length;

describe('Idempotency-Key', () => {
  it('replays the first response when the same Idempotency-Key is sent twice', async () => {
    const first = await api.post('/v0/customers', corporate('replay@example.com'), { 'idempotency-key': 'k-replay' });
    const second = await api.post('/v0/customers', corporate('replay@example.com'), { 'idempotency-key': 'k-replay' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await countCustomers('replay@example.com')).toBe(1);
  });

  it('replays the very bytes of the first response, not just the same content', async () => {
    const send = () =>
      fetch(`${t.url}/v0/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', 'idempotency-key': 'k-bytes' },
        body: JSON.stringify(corporate('bytes@example.com')),
      }).then((r) => r.text());
    const first = await send();
    expect(await send()).toBe(first);
  });

  it('answers 422 idempotency_key_reused when the same key comes with another body', async () => {
    await api.post('/v0/customers', corporate('reuse1@example.com'), { 'idempotency-key': 'k-reuse' });
    const res = await api.post('/v0/customers', corporate('reuse2@example.com'), { 'idempotency-key': 'k-reuse' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('idempotency_key_reused');
    expect(await countCustomers('reuse2@example.com')).toBe(0);
  });

  it('answers 409 idempotency_key_in_use while the first request with the key is still running', async () => {
    // The first request's claim is committed before its work starts; reproduce that moment exactly.
    const body = corporate('inflight@example.com');
    const [apiKey] = await t.sql<{ partner_id: string }>('select partner_id from api_keys limit 1');
    await t.sql(
      `insert into idempotency_keys (partner_id, environment, key, fingerprint, state, locked_at, created_at)
       values (?, 'sandbox', 'k-inflight', ?, 'in_progress', now(), now())`,
      [apiKey!.partner_id, fingerprint('POST /v0/customers {}', body)],
    );
    const res = await api.post('/v0/customers', body, { 'idempotency-key': 'k-inflight' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('idempotency_key_in_use');
    expect(await countCustomers('inflight@example.com')).toBe(0);
  });

  it('does not store failures: a corrected request may reuse the key', async () => {
    const bad = await api.post('/v0/customers', { email: 'fixme@example.com', type: 'corporate' }, { 'idempotency-key': 'k-fix' });
    expect(bad.status).toBe(400);
    const good = await api.post('/v0/customers', corporate('fixme@example.com'), { 'idempotency-key': 'k-fix' });
    expect(good.status).toBe(201);
  });

  it('forgets keys after 24 hours: the purge job deletes them and the key may be used afresh', async () => {
    await api.post('/v0/customers', corporate('old-key@example.com'), { 'idempotency-key': 'k-old' });
    await api.post('/v0/customers', corporate('new-key@example.com'), { 'idempotency-key': 'k-new' });
    await t.sql(`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'k-old'`);
    await t.ramp.jobs.runOnce();
    const keys = (await t.sql<{ key: string }>(`select key from idempotency_keys where key in ('k-old', 'k-new')`)).map((r) => r.key);
    expect(keys).toEqual(['k-new']);
    const reused = await api.post('/v0/customers', corporate('reused-key@example.com'), { 'idempotency-key': 'k-old' });
    expect(reused.status).toBe(201);
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps keys apart per partner', async () => {
    const other = t.client(await t.keyFor('Second Idem Partner'));
    const mine = await api.post('/v0/customers', corporate('mine@example.com'), { 'idempotency-key': 'k-shared' });
    const theirs = await other.post('/v0/customers', corporate('mine@example.com'), { 'idempotency-key': 'k-shared' });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.customer_id).not.toBe(mine.body.customer_id);
  });

  it('refuses a key longer than 255 characters', async () => {
    const res = await api.post('/v0/customers', corporate('long@example.com'), { 'idempotency-key': 'x'.repeat(256) });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].pointer).toBe('/headers/idempotency-key');
  });

  it('creates exactly one customer from 20 concurrent identical requests with one key', async () => {
    const body = corporate('concurrent-key@example.com');
    const responses = await Promise.all(Array.from({ length: 20 }, () => api.post('/v0/customers', body, { 'idempotency-key': 'k-concurrent' })));
    const created = responses.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.customer_id)).size).toBe(1);
    expect(responses.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'idempotency_key_in_use'))).toBe(true);
    expect(await countCustomers('concurrent-key@example.com')).toBe(1);
  });

  it('creates exactly one customer from 20 concurrent identical requests without a key', async () => {
    const body = corporate('concurrent@example.com');
    const responses = await Promise.all(Array.from({ length: 20 }, () => api.post('/v0/customers', body)));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(19);
    expect(await countCustomers('concurrent@example.com')).toBe(1);
    const [id] = await customerIdsWithEmail(t, 'concurrent@example.com');
    const events = await t.sql('select 1 from events where entity_id = ?', [id]);
    expect(events).toHaveLength(1);
  });

  // Needs a second connection while the first request's transaction is open: PostgreSQL only.
  it.skipIf(!onPostgres)('undoes a stalled request whose key a retry took over, and leaves the retry’s claim alone', async () => {
    const [owner] = await t.sql<{ partner_id: string }>('select partner_id from api_keys limit 1');
    const actor = { partnerId: owner!.partner_id, environment: 'sandbox' as const, apiKeyId: 'test', apiKeyPrefix: 'rk_sandbox_test0000' };
    const request = { key: 'k-taken-over', fingerprint: 'f', answer: () => ({ status: 201, body: { ok: true } }) };
    const stalled = answerDeclared({ em: t.ramp.db.fork(), actor }, request, (scope) =>
      useCase(scope, async (tx) => {
        await tx.execute(`insert into partners (id, name, client_id) values (gen_random_uuid(), 'Stalled Work', 'client_stalled')`);
        // Meanwhile a retry (past the takeover time) claims the key on its own connection.
        await t.sql(`update idempotency_keys set claim_token = gen_random_uuid(), locked_at = now() where key = 'k-taken-over'`);
      }),
    );
    await expect(stalled).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
    expect(await t.sql(`select 1 from partners where name = 'Stalled Work'`)).toEqual([]);
    expect(await t.sql(`select state from idempotency_keys where key = 'k-taken-over'`)).toEqual([{ state: 'in_progress' }]);
  });
});
