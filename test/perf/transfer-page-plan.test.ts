import { sql as kyselySql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestRamp, onPostgres, startRamp } from '../support/ramp.js';
import { recordSqlStatements } from '../support/sql-statements.js';
import { createCustomer, onrampQuoteBody, wallet } from '../support/data/transfers.js';

/**
 * A page of transfers reaches each transfer's quote (and customer) by its primary key, whatever the
 * planner knows of the tables. On a freshly loaded PostgreSQL database, before autovacuum's first
 * analyze, a join that also compared the tenant columns (`q.partner_id = t.partner_id and …`) was
 * planned as a scan of `quotes_customer`, thousands of rows a transfer (57–67 ms a page).
 * The tenant is fixed by the driving table; the join is by key. Here the tables are loaded and never
 * analyzed (PGlite never analyzes; PostgreSQL's autovacuum is turned off for them), and the page's
 * own statement, as Ramp sent it, is explained as a prepared statement's generic plan.
 */
const recorder = recordSqlStatements();
let t: TestRamp;
let api: ApiClient;
const ROWS = 3000;

beforeAll(async () => {
  t = await startRamp({ WEBHOOK_POLL_INTERVAL_MS: '60000', EVENTS_CATCHUP_INTERVAL_MS: '60000' });
  api = t.client(t.key);
  const customerId = await createCustomer(api);
  const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
  const transfer = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
  expect(transfer.status).toBe(201);
  if (onPostgres) for (const table of ['quotes', 'transfers', 'customers']) await t.sql(`alter table ${table} set (autovacuum_enabled = off)`);
  // Copies of that quote and transfer (each copy its own quote), every column as it is but the keys.
  await t.sql(
    `with copies as (
       select gen_random_uuid() as quote_id, gen_random_uuid() as transfer_id, i from generate_series(1, ${ROWS}) i),
     new_quotes as (
       insert into quotes select (jsonb_populate_record(q, jsonb_build_object('id', c.quote_id))).* from quotes q, copies c where q.id = ?)
     insert into transfers
       select (jsonb_populate_record(tr, jsonb_build_object('id', c.transfer_id, 'quote_id', c.quote_id, 'deposit_message', upper(left(replace(c.transfer_id::text, '-', ''), 16)), 'created_at', tr.created_at + c.i * interval '1 ms'))).*
       from transfers tr, copies c where tr.id = ?`,
    [quote.body.quote_id, transfer.body.id],
  );
});
afterAll(() => t.close());

/** The plan PostgreSQL (or PGlite) runs a statement Ramp sent on as a prepared statement's generic plan. */
async function genericPlanOf(statement: { sql: string; values: readonly unknown[] }): Promise<string> {
  const literal = (value: unknown) => (value === null ? 'null' : `'${String(value).replaceAll("'", "''")}'`);
  return t.ramp.db
    .fork()
    .getKysely()
    .transaction()
    .execute(async (trx) => {
      await kyselySql`set local plan_cache_mode = force_generic_plan`.execute(trx);
      await kyselySql.raw(`prepare explained as ${statement.sql}`).execute(trx);
      const explained = await kyselySql.raw<{ 'QUERY PLAN': string }>(`explain execute explained(${statement.values.map(literal).join(', ')})`).execute(trx);
      await kyselySql`deallocate explained`.execute(trx);
      return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
}

describe('the plan of a transfer page', () => {
  it('reaches each quote and customer by its primary key on tables never analyzed', async () => {
    const analyzed = await t.sql<{ n: number }>(
      `select count(*)::int as n from pg_stat_user_tables where relname in ('quotes', 'transfers') and (last_analyze is not null or last_autoanalyze is not null)`,
    );
    expect(analyzed).toEqual([{ n: 0 }]);
    const statements = await recorder.named(async () => {
      const res = await api.graphql('{ transfers(first: 100) { edges { node { id amount quote { id exchangeRate } customer { email } } } } }');
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.transfers.edges).toHaveLength(100);
    });
    const page = statements.find((s) => s.sql.includes('from "transfers" as "t"'))!;
    expect(page.sql).toContain('quotes');
    const plan = await genericPlanOf(page);
    expect(plan).toContain('quotes_pkey');
    expect(plan).toContain('customers_pkey');
    expect(plan).not.toContain('quotes_customer');
  });

  it('reads one transfer (GraphQL transfer(id)) by its primary key on tables never analyzed, not through a tenant index', async () => {
    const [row] = await t.sql<{ id: string }>('select id from transfers order by created_at desc limit 1');
    const statements = await recorder.named(async () => {
      const res = await api.graphql('query ($id: ID!) { transfer(id: $id) { id status amount } }', { id: row!.id });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.transfer.status).toBe('PENDING');
    });
    const read = statements.find((s) => s.sql.includes('"transfers"'))!;
    const plan = await genericPlanOf(read);
    expect(plan).toContain('transfers_pkey');
    expect(plan).not.toContain('transfers_customer');
    expect(plan).not.toContain('transfers_page');
  });
});
