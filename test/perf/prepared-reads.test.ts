import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestRamp, onPostgres, startRamp } from '../support/ramp.js';
import { recordSqlStatements } from '../support/sql-statements.js';
import { NAMED_STATEMENTS_CAPACITY as CAPACITY } from '../../src/platform/db/postgres.js';
import { createCustomer, onrampQuoteBody, wallet } from '../support/data/transfers.js';

/**
 * On PostgreSQL the hot reads are named prepared statements (Ramp's driver, platform/db/postgres.ts):
 * their values travel apart from their text ($1, $2…), so PostgreSQL plans a page once per connection.
 * A client varies the text with its selection, so only so many are named; past that, a read is sent
 * unnamed (parsed each time), and answers the same.
 */
const sql = recordSqlStatements();
let t: TestRamp;
let api: ApiClient;
let customerId: string;
let transferId: string;

const pageStatement = (statements: { sql: string; name?: string }[]) => statements.find((s) => s.sql.includes('from "transfers" as "t"'))!;

/** One of 512 selections of a page, each reading another set of columns. */
function selection(n: number): string {
  const fields = ['status', 'failureReason', 'depositExpiresAt', 'updatedAt', 'amount', 'destinationAmount'];
  const onramp = ['destinationAddress', 'depositMessage', 'destinationTransactionHash'];
  const chosen = fields.filter((_, i) => n & (1 << i));
  const chosenOnramp = onramp.filter((_, i) => n & (1 << (i + fields.length)));
  return `{ transfers(first: 10) { edges { node { id ${chosen.join(' ')} ... on OnrampTransfer { ${chosenOnramp.join(' ') || '__typename'} } } } } }`;
}

beforeAll(async () => {
  t = await startRamp({ WEBHOOK_POLL_INTERVAL_MS: '60000', EVENTS_CATCHUP_INTERVAL_MS: '60000' });
  api = t.client(t.key);
  customerId = await createCustomer(api);
  const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
  const transfer = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
  expect(transfer.status).toBe(201);
  transferId = transfer.body.id;
});
afterAll(() => t.close());

describe.skipIf(!onPostgres)('hot reads on PostgreSQL', () => {
  it('sends a transfer page and the REST transfer read as prepared statements, values apart from the text', async () => {
    const statements = await sql.named(async () => {
      expect((await api.graphql('{ transfers(first: 10) { edges { node { id status quote { sourceAmount } } } } }')).body.errors).toBeUndefined();
      expect((await api.get(`/v0/customers/${customerId}/onramp-transfer/${transferId}`)).status).toBe(200);
    });
    const page = pageStatement(statements);
    expect(page.sql).toMatch(/"t"."partner_id" = \$1 and "t"."environment" = \$2/);
    expect(page.name).toMatch(/^ramp_read_/);
    const read = statements.find((s) => s.sql.includes('from "customers" as "c"'))!;
    expect(read.sql).toMatch(/"c"."id" = \$\d/);
    expect(read.sql).not.toContain(customerId);
    expect(read.name).toMatch(/^ramp_read_/);
  });

  it(`prepares at most ${CAPACITY} distinct reads; past that, reads are sent unnamed and answer the same`, async () => {
    const texts = new Set<string>();
    const named = new Set<string>();
    for (let n = 0; texts.size < CAPACITY + 1 && n < 512; n++) {
      const statements = await sql.named(async () => {
        const res = await api.graphql(selection(n));
        expect(res.body.errors, selection(n)).toBeUndefined();
        expect(res.body.data.transfers.edges).toHaveLength(1);
      });
      const page = pageStatement(statements);
      texts.add(page.sql);
      if (page.name) named.add(page.name);
    }
    expect(texts.size).toBe(CAPACITY + 1);
    // The REST read and the first page above took two of the names (that page may be one of these); the rest went to these pages.
    expect(named.size).toBeGreaterThanOrEqual(CAPACITY - 2);
    expect(named.size).toBeLessThanOrEqual(CAPACITY - 1);
    const statements = await sql.named(async () => {
      const res = await api.graphql(selection(511));
      expect(res.body.data.transfers.edges[0].node.destinationAddress).toBe(wallet());
    });
    expect(pageStatement(statements).name).toBeUndefined();
    expect(pageStatement(statements).sql).toContain('$1');
  });
});
