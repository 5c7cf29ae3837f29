import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSqlStatements } from '../support/sql-statements.js';
import { type ApiClient, onPostgres, type TestRamp, startRamp } from '../support/ramp.js';
import { createCustomer, onrampQuoteBody, wallet } from '../support/data/transfers.js';

/**
 * The SQL statements of the hot paths, counted at the driver while one real HTTP request
 * runs: a change that adds a round trip fails here. When a change removes one, lower the pin.
 * `npm run bench` measures what they cost; BENCH_SQL_LOG=1 npx tsx bench/capture.ts lists them.
 */
const PINS = {
  /** Customer, transfer and quote joined in one statement (a verified API key is kept: platform/security/auth.ts). */
  restRead: 1,
  /** The transfer (the quote is not selected; the key is kept). */
  graphqlRead: 1,
  /** The page with its quotes and customers joined in (the API key is cached by then). */
  graphqlPage: 1,
  /**
   * Each request: begin, …, commit (one transaction, no savepoint; the key is kept); a used quote is the unique constraint's to refuse.
   * Each write's audit row is one INSERT more in its transaction (decision 019). On PostgreSQL `begin` leaves with the
   * transaction's first statement (platform/db/postgres.ts), so it counts for nothing there.
   */
  onrampPair: onPostgres ? 13 : 15,
};

const sql = recordSqlStatements();
let t: TestRamp;
let api: ApiClient;
let customerId: string;
let transferId: string;

const listed = (statements: string[]) => `${statements.length} statements:\n${statements.map((s) => s.replace(/\s+/g, ' ').slice(0, 200)).join('\n')}`;

async function createTransfer(): Promise<string> {
  const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
  expect(quote.status).toBe(201);
  const transfer = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
  expect(transfer.status).toBe(201);
  return transfer.body.id;
}

beforeAll(async () => {
  // Background passes wait a minute, so nothing but the request runs while it is counted.
  t = await startRamp({ WEBHOOK_POLL_INTERVAL_MS: '60000', EVENTS_CATCHUP_INTERVAL_MS: '60000' });
  api = t.client(t.key);
  customerId = await createCustomer(api);
  for (let i = 0; i < 3; i++) transferId = await createTransfer();
});
afterAll(() => t.close());

describe('SQL statements of the hot paths', () => {
  it('reads an on-ramp transfer over REST in as many statements as pinned', async () => {
    const path = `/v0/customers/${customerId}/onramp-transfer/${transferId}`;
    expect((await api.get(path)).status).toBe(200);
    let status = 0;
    const statements = await sql.during(async () => {
      status = (await api.get(path)).status;
    });
    expect(status).toBe(200);
    expect(statements.length, listed(statements)).toBe(PINS.restRead);
  });

  it('reads a transfer over GraphQL in as many statements as pinned', async () => {
    const query = 'query ($id: ID!) { transfer(id: $id) { id status } }';
    let body: { data?: { transfer?: { id: string } | null } } = {};
    const statements = await sql.during(async () => {
      body = (await api.graphql(query, { id: transferId })).body;
    });
    expect(body.data?.transfer?.id).toBeTruthy();
    expect(statements.length, listed(statements)).toBe(PINS.graphqlRead);
  });

  it('reads a page of transfers with their customer and quote over GraphQL in as many statements as pinned', async () => {
    const query = '{ transfers(first: 100) { edges { node { id customer { id } quote { id } } } } }';
    let body: { data?: { transfers?: { edges: unknown[] } } } = {};
    const statements = await sql.during(async () => {
      body = (await api.graphql(query)).body;
    });
    expect(body.data?.transfers?.edges).toHaveLength(3);
    expect(statements.length, listed(statements)).toBe(PINS.graphqlPage);
  });

  it('creates an on-ramp quote and its transfer over REST in as many statements as pinned', async () => {
    let made = '';
    const statements = await sql.during(async () => {
      made = await createTransfer();
    });
    expect(made).toBeTruthy();
    expect(statements.length, listed(statements)).toBe(PINS.onrampPair);
  });
});
