import { ApolloClient, gql as apolloGql, HttpLink, InMemoryCache } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { Client, fetchExchange, gql, type OperationResult } from '@urql/core';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runsCompiled } from '../../src/graphql/execution.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { recordSqlStatements } from '../support/sql-statements.js';
import { subscribe, wsClient } from '../support/clients/subscriptions.js';
import { createCustomer, onrampQuoteBody, wallet } from '../support/data/transfers.js';

/**
 * @defer and @stream over real HTTP (decision 024): a real client (urql, whose fetch
 * exchange reads multipart/mixed) gets the first payload, then the deferred parts; the nested fields of
 * streamed items still load in batches; errors in later parts are masked like the first's; and the rest
 * (trusted documents, subscriptions, one JSON answer without the directives) behaves as before.
 */
const sql = recordSqlStatements();
let t: TestRamp;
let trusted: TestRamp;
let api: ApiClient;
let customerId: string;
let quoteId: string;
let transferId: string;

/** The quote first; its transfer (with the history and postings behind it) after. */
const QUOTE_THEN_TRANSFER = `query QuoteThenTransfer($id: ID!) {
  quote(id: $id) {
    databaseId
    sourceAmount
    ... on Quote @defer(label: "transfer") {
      transfer { databaseId status statusHistory { to } postings { movement amount } confirmations }
    }
  }
}`;

/** A customer's transfers, the first edge at once and the others streamed, each with batched nested fields. */
const STREAMED_TRANSFERS = `query StreamedTransfers($id: ID!) {
  customer(id: $id) {
    transfers(first: 10) {
      edges @stream(initialCount: 1) { node { databaseId statusHistory { to } postings { movement } } }
    }
  }
}`;

async function startOnramp(): Promise<{ quote: string; transfer: string }> {
  const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
  const transfer = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
  if (transfer.status !== 201 && transfer.status !== 200) throw new Error(`no transfer: ${JSON.stringify(transfer.body)}`);
  return { quote: quote.body.quote_id, transfer: transfer.body.transfer_id ?? transfer.body.id };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ramp-defer-'));
  writeFileSync(join(dir, 'trusted.json'), JSON.stringify({ [sha256(QUOTE_THEN_TRANSFER)]: QUOTE_THEN_TRANSFER }));
  t = await startRamp({ WEBHOOK_POLL_INTERVAL_MS: '60000', EVENTS_CATCHUP_INTERVAL_MS: '60000' });
  trusted = await startRamp({ GRAPHQL_TRUSTED_DOCUMENTS: join(dir, 'trusted.json') });
  api = t.client(t.key);
  customerId = await createCustomer(api);
  ({ quote: quoteId, transfer: transferId } = await startOnramp());
  // The fiat arrives: the transfer gains a status change and its postings.
  const deposited = await api.graphql('mutation ($id: ID!) { simulateFiatDeposit(input: { transferId: $id }) { __typename } }', { id: transferId });
  expect(deposited.body.data?.simulateFiatDeposit.__typename).toBe('SimulateFiatDepositPayload');
  for (let i = 0; i < 4; i++) await startOnramp();
}, 120_000);
afterAll(async () => {
  await t?.close();
  await trusted?.close();
});

/** Every result urql hands its subscriber for one query, until the last (hasNext false). */
type Received = Pick<OperationResult, 'data' | 'hasNext'>;

function everyResult(client: Client, query: string, variables: Record<string, unknown>): Promise<Received[]> {
  return new Promise((resolve, reject) => {
    const results: Received[] = [];
    const { unsubscribe } = client.query(gql(query), variables, { requestPolicy: 'network-only' }).subscribe((result) => {
      // A snapshot: urql merges the later parts into the data it handed out before.
      results.push(structuredClone({ data: result.data, hasNext: result.hasNext }));
      if (result.error) reject(result.error);
      if (!result.hasNext) {
        resolve(results);
        setImmediate(unsubscribe);
      }
    });
  });
}

const urql = (ramp: TestRamp) =>
  new Client({
    url: `${ramp.url}/graphql`,
    exchanges: [fetchExchange],
    // POST: a GET must carry Yoga's CSRF header.
    preferGetMethod: false,
    fetchOptions: { headers: { authorization: `Bearer ${ramp.key}` } },
  });

/** The JSON parts of a multipart/mixed body (boundary `-`, as Yoga writes it). */
function multipartParts(body: string): Record<string, any>[] {
  return body
    .split(/\r\n---/)
    .map((part) => part.slice(part.indexOf('\r\n\r\n') + 4).trim())
    .filter((part) => part.startsWith('{'))
    .map((part) => JSON.parse(part));
}

/** The `data:` of each `next` event of a text/event-stream body. */
function eventStreamParts(body: string): Record<string, any>[] {
  return body
    .split('\n\n')
    .filter((event) => event.startsWith('event: next'))
    .map((event) => JSON.parse(event.slice(event.indexOf('data: ') + 6)));
}

async function post(ramp: TestRamp, body: unknown, accept: string) {
  const response = await fetch(`${ramp.url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ramp.key}`, 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

describe('@defer over HTTP, read by real clients (urql, Apollo Client)', () => {
  it('hands the quote first and its transfer after, in that order', async () => {
    const results = await everyResult(urql(t), QUOTE_THEN_TRANSFER, { id: quoteId });
    expect(results.length).toBeGreaterThanOrEqual(2);
    const [first, last] = [results[0]!, results.at(-1)!];
    expect(first.hasNext).toBe(true);
    expect(first.data.quote).toEqual({ databaseId: quoteId, sourceAmount: '100.00' });
    expect(last.hasNext).toBe(false);
    expect(last.data.quote).toMatchObject({
      databaseId: quoteId,
      transfer: { databaseId: transferId, status: 'PROCESSING', statusHistory: [{ to: 'PENDING' }, { to: 'PROCESSING' }], confirmations: null },
    });
    expect(last.data.quote.transfer.postings.map((p: { movement: string }) => p.movement)).toContain('DEPOSIT');
  });

  it('hands Apollo Client (its 2022-08-24 incremental handler) the same parts: streaming first, complete after', async () => {
    const client = new ApolloClient({
      cache: new InMemoryCache(),
      link: new HttpLink({ uri: `${t.url}/graphql`, headers: { authorization: `Bearer ${t.key}` } }),
      incrementalHandler: new Defer20220824Handler(),
    });
    const seen: { dataState: string; data: any }[] = [];
    await new Promise<void>((resolve, reject) => {
      const watched = client.watchQuery({ query: apolloGql(QUOTE_THEN_TRANSFER), variables: { id: quoteId }, fetchPolicy: 'network-only' });
      const subscription = watched.subscribe({
        next: ({ dataState, data }) => {
          seen.push(structuredClone({ dataState, data }));
          if (dataState !== 'complete') return;
          subscription.unsubscribe();
          resolve();
        },
        error: reject,
      });
    });
    const states = seen.filter((s) => s.dataState !== 'empty');
    expect(states.map((s) => s.dataState)).toEqual(['streaming', 'complete']);
    expect(states[0]?.data.quote).toEqual({ __typename: 'Quote', databaseId: quoteId, sourceAmount: '100.00' });
    expect(states[1]?.data.quote.transfer).toMatchObject({ databaseId: transferId, status: 'PROCESSING' });
  });

  it('answers multipart/mixed: the first part without the fragment, a later one with it at its path and label', async () => {
    const res = await post(t, { query: QUOTE_THEN_TRANSFER, variables: { id: quoteId } }, 'multipart/mixed');
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^multipart\/mixed/);
    const parts = multipartParts(res.text);
    expect(parts[0]).toEqual({ data: { quote: { databaseId: quoteId, sourceAmount: '100.00' } }, hasNext: true });
    const deferred = parts.slice(1).flatMap((part) => part.incremental ?? []);
    expect(deferred).toEqual([
      expect.objectContaining({ path: ['quote'], label: 'transfer', data: { transfer: expect.objectContaining({ databaseId: transferId }) } }),
    ]);
    expect(parts.at(-1)?.hasNext).toBe(false);
  });

  it('answers server-sent events to a client that accepts text/event-stream', async () => {
    const res = await post(t, { query: QUOTE_THEN_TRANSFER, variables: { id: quoteId } }, 'text/event-stream');
    expect(res.contentType).toMatch(/^text\/event-stream/);
    const parts = eventStreamParts(res.text);
    expect(parts[0]).toMatchObject({ data: { quote: { databaseId: quoteId } }, hasNext: true });
    expect(parts.flatMap((part) => part.incremental ?? [])).toHaveLength(1);
    expect(res.text).toContain('event: complete');
  });

  it('refuses a client that accepts only one JSON document, saying what to accept', async () => {
    const res = await post(t, { query: QUOTE_THEN_TRANSFER, variables: { id: quoteId } }, 'application/json');
    expect(res.status).toBe(406);
    expect(JSON.parse(res.text).errors[0].extensions.code).toBe('INCREMENTAL_DELIVERY_NOT_ACCEPTED');
  });

  it('masks an error in a deferred part as it masks one in the first: the domain code, at its path', async () => {
    const res = await post(t, { query: '{ partner { name } ... @defer { transfers(first: 500) { totalCount } } }' }, 'multipart/mixed');
    const parts = multipartParts(res.text);
    expect(parts[0]?.data.partner.name).toBe('Demo Partner');
    const [deferred] = parts.slice(1).flatMap((part) => part.incremental ?? []);
    expect(deferred.data).toEqual({ transfers: null });
    expect(deferred.errors).toEqual([
      expect.objectContaining({
        path: ['transfers'],
        extensions: expect.objectContaining({ code: 'VALIDATION_FAILED', fieldErrors: [expect.objectContaining({ path: '/first' })] }),
      }),
    ]);
  });

  it('still answers a query without the directives as one JSON document', async () => {
    const res = await post(t, { query: `{ quote(id: "${quoteId}") { databaseId } }` }, 'multipart/mixed, application/json');
    expect(res.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(res.text).data.quote.databaseId).toBe(quoteId);
  });
});

describe('@stream of a connection’s edges', () => {
  it('delivers the first edge, then the others, and loads their nested fields in one batch each, as without @stream', async () => {
    const plain = STREAMED_TRANSFERS.replace(' @stream(initialCount: 1)', '');
    await post(t, { query: plain, variables: { id: customerId } }, 'application/json'); // the key verified and kept
    let whole = { text: '' };
    const withoutStream = await sql.during(async () => {
      whole = await post(t, { query: plain, variables: { id: customerId } }, 'application/json');
    });
    let streamed = { text: '' };
    const withStream = await sql.during(async () => {
      streamed = await post(t, { query: STREAMED_TRANSFERS, variables: { id: customerId } }, 'multipart/mixed');
    });
    const parts = multipartParts(streamed.text);
    expect(parts[0]?.data.customer.transfers.edges).toHaveLength(1);
    const later = parts.slice(1).flatMap((part) => part.incremental ?? []);
    expect(later.flatMap((part) => part.items)).toHaveLength(4);
    const edges = [...parts[0]!.data.customer.transfers.edges, ...later.flatMap((part) => part.items)];
    expect(edges).toEqual(JSON.parse(whole.text).data.customer.transfers.edges);
    // One statement for the histories and one for the postings of all five transfers, streamed or not.
    const histories = (statements: string[]) => statements.filter((s) => /transfer_status_history/.test(s));
    const postings = (statements: string[]) => statements.filter((s) => /ledger_entries/.test(s));
    expect(histories(withStream), withStream.join('\n')).toHaveLength(1);
    expect(postings(withStream), withStream.join('\n')).toHaveLength(1);
    expect(withStream).toHaveLength(withoutStream.length);
  });
});

describe('what @defer leaves as it was', () => {
  it('runs a trusted document that defers, named by hash alone', async () => {
    const own = trusted.client(trusted.key);
    const customer = await createCustomer(own, { approved: false });
    await own.post(`/v0/customers/${customer}/kycs/simulate`, { action: 'approve_kyc' }); // REST: no GraphQL document to trust
    const quote = await own.post(`/v0/customers/${customer}/onramp-transfer/quote`, onrampQuoteBody());
    const res = await post(trusted, { documentId: `sha256:${sha256(QUOTE_THEN_TRANSFER)}`, variables: { id: quote.body.quote_id } }, 'multipart/mixed');
    expect(res.contentType, res.text).toMatch(/^multipart\/mixed/);
    const parts = multipartParts(res.text);
    expect(parts[0]).toEqual({ data: { quote: { databaseId: quote.body.quote_id, sourceAmount: '100.00' } }, hasNext: true });
    expect(parts.flatMap((part) => part.incremental ?? [])).toEqual([expect.objectContaining({ data: { transfer: null } })]);
    // Any other document, deferring or not, is still refused.
    const other = await post(trusted, { query: QUOTE_THEN_TRANSFER, variables: { id: quote.body.quote_id } }, 'multipart/mixed');
    expect(JSON.parse(other.text).errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
  });

  it('counts a deferred fragment in the complexity limit, refusing the whole operation before the first part', async () => {
    const nested = '{ transfers(first: 100) { edges { node { customer { transfers(first: 100) { edges { node { id } } } } } } } }';
    const res = await post(t, { query: `{ partner { name } ... @defer ${nested} }` }, 'multipart/mixed');
    expect(res.contentType).toMatch(/^application\/json/);
    const body = JSON.parse(res.text);
    expect(body.data).toBeUndefined();
    expect(body.errors[0].extensions.code).toBe('QUERY_COMPLEXITY');
  });

  it('keeps every query that asks for no parts on the compiled path (graphql-jit), and only those', () => {
    expect(runsCompiled(parse('query Q($id: ID!) { quote(id: $id) { databaseId transfer { status } } }'))).toBe(true);
    expect(runsCompiled(parse(QUOTE_THEN_TRANSFER))).toBe(false);
    expect(runsCompiled(parse(STREAMED_TRANSFERS))).toBe(false);
    expect(runsCompiled(parse('mutation { __typename }'))).toBe(false);
  });

  it('refuses @defer in a mutation, before it runs', async () => {
    const res = await post(
      t,
      { query: 'mutation { createCustomer(input: { email: "x@example.com", type: INDIVIDUAL }) { ... @defer { __typename } } }' },
      '*/*',
    );
    expect(JSON.parse(res.text).errors[0].extensions.code).toBe('INCREMENTAL_DELIVERY_QUERIES_ONLY');
  });

  it('refuses @defer in a subscription over graphql-ws, and keeps serving the plain one', async () => {
    const client = wsClient(t.url, t.key);
    try {
      const refused = subscribe(client, 'subscription { events(after: "0") { cursor ... @defer { type } } }', {}, 'events');
      const plain = subscribe(client, 'subscription { events(after: "0") { cursor type } }', {}, 'events');
      await expect.poll(() => refused.errors.length).toBeGreaterThan(0);
      expect(JSON.stringify(refused.errors)).toContain('INCREMENTAL_DELIVERY_QUERIES_ONLY');
      await expect.poll(() => plain.items.length).toBeGreaterThan(0);
      expect(plain.errors).toEqual([]);
    } finally {
      await client.dispose();
    }
  });
});
