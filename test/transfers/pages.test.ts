import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestRamp, startRamp } from '../support/ramp.js';
import { recordSqlStatements } from '../support/sql-statements.js';
import { createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody, wallet } from '../support/data/transfers.js';

/**
 * A page of transfers is one statement: the quotes and customers its selection shows are joined
 * into it, whichever way the client selects them, and it shows exactly what a transfer
 * read alone shows. The joined rows are the caller's own like every other read.
 */
const sql = recordSqlStatements();
let t: TestRamp;
let mine: ApiClient;
let theirs: ApiClient;
const myTransfers: string[] = [];
let theirTransfer: string;

async function onrampTransfer(api: ApiClient, customerId: string): Promise<string> {
  const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
  expect(quote.status).toBe(201);
  const transfer = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
  expect(transfer.status).toBe(201);
  return transfer.body.id;
}

async function offrampTransfer(api: ApiClient, customerId: string): Promise<string> {
  const body = offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'personal_expenses' });
  const quote = await api.post(`/v0/customers/${customerId}/offramp-transfer/quote`, body, idempotencyKey());
  expect(quote.status).toBe(201);
  return quote.body.transfer_id;
}

beforeAll(async () => {
  t = await startRamp({ WEBHOOK_POLL_INTERVAL_MS: '60000', EVENTS_CATCHUP_INTERVAL_MS: '60000' });
  mine = t.client(t.key);
  theirs = t.client(await t.keyFor('Other Partner'));
  for (const customer of [await createCustomer(mine), await createCustomer(mine)]) {
    myTransfers.push(await onrampTransfer(mine, customer), await offrampTransfer(mine, customer));
  }
  theirTransfer = await onrampTransfer(theirs, await createCustomer(theirs));
});
afterAll(() => t.close());

/** The quote and customer fields, asked through a named fragment, inline fragments and aliases. */
const LISTED = `fragment Listed on Transfer {
  id databaseId status
  payer: customer { databaseId email kycs { status } }
  quote { databaseId sourceAmount destinationAmount exchangeRate fees { platformFee } }
  ... on OnrampTransfer { sourceCurrency destinationToken }
  ... on OfframpTransfer { total: amount destinationCurrency }
}`;
const PAGE = `query ($first: Int) { transfers(first: $first) { edges { node { ...Listed } } } } ${LISTED}`;

/** The same fields of one transfer, refetched alone by node(id:) (entities, through the dataloaders). */
const ONE = `query ($id: ID!) { node(id: $id) { ...Listed } } ${LISTED}`;

type Node = { id: string; databaseId: string };

async function page(api: ApiClient, query: string, variables: Record<string, unknown> = {}) {
  const res = await api.graphql(query, variables);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return (res.body.data as { transfers: { edges: { node: Node }[] } }).transfers.edges.map((e) => e.node);
}

describe('a page of transfers', () => {
  it('is one statement with its quotes and customers, selected through fragments and aliases, the emails it shows opened once', async () => {
    // The first page verifies the API key (then kept) and opens its customers' emails (reading their data keys once).
    let nodes = await page(mine, PAGE);
    // The next is one statement: the emails it shows were opened before.
    const statements = await sql.during(async () => {
      nodes = await page(mine, PAGE);
    });
    expect(nodes.map((n) => n.databaseId)).toEqual(myTransfers);
    expect(statements, statements.join('\n')).toHaveLength(1);
    expect(statements[0]).toMatch(/join "quotes" .* join "customers"/);
  });

  it('shows each transfer, its quote and its customer as a transfer read alone shows them', async () => {
    const nodes = await page(mine, PAGE);
    for (const node of nodes) {
      const alone = await mine.graphql(ONE, { id: node.id });
      expect(node).toEqual(alone.body.data?.node);
    }
    expect(nodes.filter((n) => 'total' in n)).toHaveLength(2);
  });

  it('reads one transfer by id with its quote and customer in one statement (its customer opened by the page before), as node(id:) shows it', async () => {
    for (const id of myTransfers) {
      const query = ONE.replace('node(id: $id)', 'transfer(id: $id)');
      let body: { data?: { transfer?: Node } } = {};
      const statements = await sql.during(async () => {
        body = (await mine.graphql(query, { id })).body;
      });
      expect(statements, statements.join('\n')).toHaveLength(1);
      const node = body.data!.transfer!;
      expect(node).toEqual((await mine.graphql(ONE, { id: node.id })).body.data?.node);
    }
    expect((await theirs.graphql(ONE.replace('node(id: $id)', 'transfer(id: $id)'), { id: myTransfers[0] })).body.data?.transfer).toBeNull();
  });

  it('joins nothing it does not show', async () => {
    let nodes: Node[] = [];
    const statements = await sql.during(async () => {
      nodes = await page(mine, '{ transfers(first: 10) { edges { node { databaseId status createdAt } } } }');
    });
    expect(nodes).toHaveLength(4);
    expect(statements).toHaveLength(1);
    expect(statements[0]).not.toMatch(/join/);
  });

  it("never shows another partner's transfers, nor reads their quotes or customers", async () => {
    expect((await page(theirs, PAGE)).map((n) => n.databaseId)).toEqual([theirTransfer]);
    expect((await page(mine, PAGE)).map((n) => n.databaseId)).not.toContain(theirTransfer);
    const production = t.client(await t.keyFor('Demo Partner', 'production'));
    expect(await page(production, PAGE)).toEqual([]);
  });

  it('pages by cursor in both directions over the joined rows', async () => {
    const query = `query ($first: Int, $after: String, $last: Int, $before: String) {
      transfers(first: $first, after: $after, last: $last, before: $before) {
        edges { cursor node { databaseId customer { databaseId } quote { databaseId } } }
      }
    }`;
    const all = (await mine.graphql(query, { first: 10 })).body.data.transfers.edges;
    const after = (await mine.graphql(query, { first: 2, after: all[0].cursor })).body.data.transfers.edges;
    expect(after.map((e: { node: Node }) => e.node.databaseId)).toEqual(myTransfers.slice(1, 3));
    const before = (await mine.graphql(query, { last: 2, before: all[3].cursor })).body.data.transfers.edges;
    expect(before.map((e: { node: Node }) => e.node.databaseId)).toEqual(myTransfers.slice(1, 3));
    expect(before[0].node.quote.databaseId).toBeTruthy();
  });
});
