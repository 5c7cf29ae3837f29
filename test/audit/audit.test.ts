import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { customerIdsWithEmail } from '../support/data/sealed.js';

let t: TestRamp;
let api: ApiClient;
let n = 0;
const email = () => `audited${++n}@example.com`;
const UA = { 'user-agent': 'audit-test/1.0' };

interface Row {
  action: string;
  outcome: string;
  code: string | null;
  replayed: boolean;
  entity_type: string | null;
  entity_id: string | null;
  actor_type: string;
  api_key_prefix: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
}
const rowsOf = (requestId: string) => t.sql<Row>('select * from audit_events where request_id = ?', [requestId]);
const prefixOf = (key: string) => key.slice(0, 'rk_sandbox_'.length + 8);

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

const CREATE = `mutation ($input: CreateCustomerInput!) {
  createCustomer(input: $input) { __typename ... on CreateCustomerPayload { customer { databaseId } } ... on Error { code } }
}`;

describe('what the audit log records', () => {
  it('records a REST create as one succeeded row with its action, entity, key, address, user agent and request id', async () => {
    const res = await api.post('/v0/customers', { email: email(), type: 'corporate', company_name: 'Audited' }, UA);
    expect(res.status).toBe(201);
    const rows = await rowsOf(res.headers.get('x-request-id')!);
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'customer.create',
        outcome: 'succeeded',
        code: null,
        replayed: false,
        entity_type: 'customer',
        entity_id: res.body.customer_id,
        actor_type: 'api_key',
        api_key_prefix: prefixOf(t.key),
        ip: expect.stringMatching(/127\.0\.0\.1$/),
        user_agent: 'audit-test/1.0',
      }),
    ]);
  });

  it('records a GraphQL mutation as one succeeded row', async () => {
    const res = await api.request('POST', '/graphql', {
      body: { query: CREATE, variables: { input: { email: email(), type: 'CORPORATE', companyName: 'Graphed' } } },
      headers: UA,
    });
    const id = res.body.data.createCustomer.customer.databaseId;
    const rows = await rowsOf(res.headers.get('x-request-id')!);
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'customer.create',
        outcome: 'succeeded',
        entity_id: id,
        api_key_prefix: prefixOf(t.key),
        user_agent: 'audit-test/1.0',
      }),
    ]);
  });

  it('records each mutation field of one GraphQL document as its own row, with its own entity', async () => {
    // One context runs both fields: the scope kept for the first (graphql/context.ts) must not carry its audit call to the second.
    const TWO = `mutation ($a: CreateCustomerInput!, $b: CreateCustomerInput!) {
      first: createCustomer(input: $a) { ... on CreateCustomerPayload { customer { databaseId } } }
      second: createCustomer(input: $b) { ... on CreateCustomerPayload { customer { databaseId } } }
    }`;
    const input = (companyName: string) => ({ email: email(), type: 'CORPORATE', companyName });
    const res = await api.request('POST', '/graphql', { body: { query: TWO, variables: { a: input('First'), b: input('Second') } } });
    expect(res.body.errors, JSON.stringify(res.body)).toBeUndefined();
    const ids = [res.body.data.first.customer.databaseId, res.body.data.second.customer.databaseId];
    const rows = await rowsOf(res.headers.get('x-request-id')!);
    expect(rows.map((row) => [row.action, row.outcome, row.entity_id]).sort()).toEqual(ids.map((id) => ['customer.create', 'succeeded', id]).sort());
  });

  it('records a refused REST write with its code, and the refusal changed nothing', async () => {
    const res = await api.post('/v0/customers', { email: 'not-an-email', type: 'individual', first_name: 'A', last_name: 'B' });
    expect(res.status).toBe(400);
    expect(await rowsOf(res.headers.get('x-request-id')!)).toEqual([
      expect.objectContaining({ action: 'customer.create', outcome: 'refused', code: 'validation_failed', entity_id: null }),
    ]);
    const missing = await api.put('/v0/customers/7b0a3f4e-5a43-4c51-9d0e-1f0f9b1e0c11', { first_name: 'X' });
    expect(missing.status).toBe(404);
    expect(await rowsOf(missing.headers.get('x-request-id')!)).toEqual([
      expect.objectContaining({ action: 'customer.update', outcome: 'refused', code: 'not_found' }),
    ]);
  });

  it('records a GraphQL typed error as refused', async () => {
    const res = await api.graphql(CREATE, { input: { email: 'nope', type: 'CORPORATE', companyName: 'X' } });
    expect(res.body.data.createCustomer.__typename).toBe('ValidationError');
    expect(await rowsOf(res.headers.get('x-request-id')!)).toEqual([
      expect.objectContaining({ action: 'customer.create', outcome: 'refused', code: 'validation_failed' }),
    ]);
  });

  it('records a conflict rolled back by its transaction as refused only', async () => {
    const address = email();
    await api.post('/v0/customers', { email: address, type: 'corporate', company_name: 'One' });
    const again = await api.post('/v0/customers', { email: address, type: 'corporate', company_name: 'Two' });
    expect(again.status).toBe(409);
    expect(await rowsOf(again.headers.get('x-request-id')!)).toEqual([expect.objectContaining({ outcome: 'refused', code: 'customer_email_taken' })]);
  });

  it('writes the row in the transaction of the change: when the row cannot be written, the change is rolled back too', async () => {
    await t.sql(`alter table audit_events add constraint audit_test_refuses check (action <> 'customer.create' or outcome <> 'succeeded') not valid`);
    try {
      const address = email();
      const res = await api.post('/v0/customers', { email: address, type: 'corporate', company_name: 'Never' });
      expect(res.status).toBe(500);
      expect(await customerIdsWithEmail(t, address)).toHaveLength(0);
      expect(await t.sql('select 1 from events where payload->>? = ?', ['email', address])).toHaveLength(0);
    } finally {
      await t.sql('alter table audit_events drop constraint audit_test_refuses');
    }
  });

  it('records an idempotent replay as succeeded and replayed, once per call', async () => {
    const headers = { 'idempotency-key': `audit-${n}` };
    const body = { email: email(), type: 'corporate', company_name: 'Twice' };
    const first = await api.post('/v0/customers', body, headers);
    const second = await api.post('/v0/customers', body, headers);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await rowsOf(first.headers.get('x-request-id')!)).toEqual([expect.objectContaining({ outcome: 'succeeded', replayed: false })]);
    expect(await rowsOf(second.headers.get('x-request-id')!)).toEqual([expect.objectContaining({ outcome: 'succeeded', replayed: true })]);
  });

  it('records simulations by the step they play, over REST and GraphQL alike', async () => {
    const created = await api.post('/v0/customers', { email: email(), type: 'individual', first_name: 'Sim', last_name: 'Ulated' });
    const id = created.body.customer_id;
    const submitted = await api.post(`/v0/customers/${id}/kycs/simulate`, { action: 'submit_kyc' });
    expect(submitted.status).toBe(200);
    expect(await rowsOf(submitted.headers.get('x-request-id')!)).toEqual([
      expect.objectContaining({ action: 'simulation.submit_kyc', outcome: 'succeeded', entity_type: 'customer', entity_id: id }),
    ]);
    const decided = await api.graphql(
      `mutation ($input: SimulateKycDecisionInput!) { simulateKycDecision(input: $input) { __typename ... on Error { code } } }`,
      { input: { customerId: id, decision: 'APPROVED' } },
    );
    expect(decided.body.errors).toBeUndefined();
    expect(await rowsOf(decided.headers.get('x-request-id')!)).toEqual([
      expect.objectContaining({ action: 'simulation.kyc_decision', outcome: 'succeeded', entity_id: id }),
    ]);
  });

  it('writes nothing for reads, nor for calls without a valid key', async () => {
    const before = await t.sql<{ n: number }>('select count(*)::int as n from audit_events');
    await api.get('/v0/customers');
    await api.graphql('{ partner { name } }');
    await t.client('rk_sandbox_nope').post('/v0/customers', { email: email(), type: 'corporate', company_name: 'X' });
    expect(await t.sql<{ n: number }>('select count(*)::int as n from audit_events')).toEqual(before);
  });
});

describe('the audit log is append-only', () => {
  it('refuses UPDATE and DELETE through the application connection', async () => {
    await expect(t.sql(`update audit_events set action = 'forged'`)).rejects.toThrow(/append-only/);
    await expect(t.sql('delete from audit_events')).rejects.toThrow(/append-only/);
  });

  it('lets the retention job trim rows older than AUDIT_RETENTION_DAYS, and only those', async () => {
    const old = '00000000-0000-4000-8000-000000000001';
    const recent = '00000000-0000-4000-8000-000000000002';
    const [partner] = await t.sql<{ partner_id: string }>('select partner_id from audit_events limit 1');
    for (const [id, age] of [
      [old, '401 days'],
      [recent, '399 days'],
    ]) {
      await t.sql(
        `insert into audit_events (id, partner_id, environment, action, outcome, actor_type, occurred_at)
         values (?, ?, 'sandbox', 'customer.create', 'succeeded', 'api_key', now() - ?::interval)`,
        [id, partner!.partner_id, age],
      );
    }
    // Linked by the sealing function's rules as if written then (the trim deletes only linked rows).
    await t.sql(`update audit_log_state set sealed_through = '-infinity'`);
    await t.ramp.jobs.runOnce();
    const left = await t.sql<{ id: string }>('select id from audit_events where id in (?, ?)', [old, recent]);
    expect(left.map((r) => r.id)).toEqual([recent]);
  });
});
