import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestRamp, startRamp } from '../support/ramp.js';
import { recordSqlStatements } from '../support/sql-statements.js';
import { createCustomer } from '../support/data/transfers.js';

/**
 * Customer lists read plain rows: a GraphQL page is one statement, its customers' data keys
 * (which open their sealed personal values) one more, its count another; the KYC filter is SQL's, and the
 * rows are the caller's alone; REST's list shows the same customers.
 */
const sql = recordSqlStatements();
let t: TestRamp;
let mine: ApiClient;
let theirs: ApiClient;
let approved: string[];
let pending: string;

beforeAll(async () => {
  t = await startRamp({ WEBHOOK_POLL_INTERVAL_MS: '60000', EVENTS_CATCHUP_INTERVAL_MS: '60000' });
  mine = t.client(t.key);
  theirs = t.client(await t.keyFor('Other Partner'));
  approved = [await createCustomer(mine), await createCustomer(mine)];
  pending = await createCustomer(mine, { approved: false });
  await createCustomer(theirs);
});
afterAll(() => t.close());

const PAGE = `query ($kycStatus: KycStatus) {
  customers(first: 10, kycStatus: $kycStatus) { totalCount edges { node { databaseId email kycs { status kycFlowLink } createdAt } } }
}`;

async function customers(api: ApiClient, variables: Record<string, unknown> = {}) {
  const res = await api.graphql(PAGE, variables);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  const { totalCount, edges } = res.body.data.customers as { totalCount: number; edges: { node: { databaseId: string; kycs: { status: string } } }[] };
  return { totalCount, nodes: edges.map((e) => e.node) };
}

describe('a page of customers', () => {
  it('is one statement, its data keys one more (only while its values were never opened), and its totalCount another', async () => {
    let page = { totalCount: 0, nodes: [] as unknown[] };
    // The first page verifies the API key (then kept) and reads its customers' data keys, in one statement.
    const first = await sql.during(async () => {
      page = await customers(mine);
    });
    expect(
      first.filter((s) => s.includes('customer_data_keys')),
      first.join('\n'),
    ).toHaveLength(1);
    const statements = await sql.during(async () => {
      page = await customers(mine);
    });
    expect(page.nodes).toHaveLength(3);
    expect(page.totalCount).toBe(3);
    // The values it shows were opened by the first: the page and its count.
    expect(statements, statements.join('\n')).toHaveLength(2);
    expect((page.nodes as { email: string }[]).every((n) => n.email.endsWith('@example.com'))).toBe(true);
  });

  it('filters by KYC status in the page and its count', async () => {
    const page = await customers(mine, { kycStatus: 'APPROVED' });
    expect(page.nodes.map((n) => n.databaseId)).toEqual(approved);
    expect(page.totalCount).toBe(2);
    expect((await customers(mine, { kycStatus: 'NOT_STARTED' })).nodes.map((n) => n.databaseId)).toEqual([pending]);
  });

  it("shows only the caller's customers, and the same ones as REST's list", async () => {
    const page = await customers(mine);
    expect(page.nodes.map((n) => n.databaseId)).toEqual([...approved, pending]);
    expect((await customers(theirs)).totalCount).toBe(1);
    const rest = await mine.get('/v0/customers?limit=10');
    expect(rest.status).toBe(200);
    expect(rest.body.items.map((c: { customer_id: string }) => c.customer_id)).toEqual([...approved, pending]);
  });
});
