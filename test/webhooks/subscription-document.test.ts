import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { recordSqlStatements } from '../support/sql-statements.js';
import { createCustomer, onrampQuoteBody, wallet } from '../support/data/transfers.js';
import { type Receiver, type ReceivedRequest, sleep, startReceiver, waitFor } from '../support/clients/webhook-receiver.js';

/**
 * Webhooks defined by a subscription query: each delivery's body is the query's
 * result for the event, as a graphql-ws client with the same query receives it, signed as ever.
 */
const sql = recordSqlStatements();
let t: TestRamp;
const receivers: Receiver[] = [];
let partners = 0;

beforeAll(async () => {
  t = await startRamp({ WEBHOOK_RETRY_TIME_SCALE: '0.001', WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_TIMEOUT_MS: '1500' });
});
afterAll(async () => {
  await t.close();
  await Promise.all(receivers.map((r) => r.close()));
});

async function newPartner(): Promise<ApiClient> {
  return t.client(await t.keyFor(`Subscription Webhook Partner ${++partners}`));
}
async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

const REGISTER = `mutation ($url: String!, $query: String) {
  registerWebhook(input: { url: $url, subscriptionQuery: $query }) {
    __typename
    ... on RegisterWebhookPayload { secret webhookEndpoint { databaseId subscriptionQuery } }
    ... on ValidationError { fieldErrors { path argumentPath code message } }
  }
}`;

async function registerOverGraphQL(api: ApiClient, url: string, query: string | null) {
  const res = await api.graphql(REGISTER, { url, query });
  return res.body.data.registerWebhook;
}

async function createOnrampTransfer(api: ApiClient): Promise<{ customerId: string; transferId: string }> {
  const customerId = await createCustomer(api);
  const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
  expect(quote.status).toBe(201);
  const transfer = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
  expect(transfer.status).toBe(201);
  return { customerId, transferId: transfer.body.id };
}

const verified = (request: ReceivedRequest, secret: string) => new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as any;

const SELECTION = `id databaseId cursor type occurredAt
  subject { __typename ... on OnrampTransferSnapshot { id databaseId status amount customer { databaseId } } }`;
const TRANSFER_QUERY = `subscription { events(types: [ONRAMP_TRANSFER_CREATED]) { ${SELECTION} } }`;

describe('a webhook with a subscription query', () => {
  it('receives exactly the fields its query selects, of the types it names, signed as every delivery', async () => {
    const api = await newPartner();
    const r = await receiver();
    const registered = await registerOverGraphQL(api, r.url, TRANSFER_QUERY);
    expect(registered.__typename).toBe('RegisterWebhookPayload');
    expect(registered.webhookEndpoint.subscriptionQuery).toBe(TRANSFER_QUERY);

    const { customerId, transferId } = await createOnrampTransfer(api);
    const [delivery] = await waitFor(() => r.received.length && r.received, 10_000, 'the transfer delivery');
    const body = verified(delivery!, registered.secret);

    // The same event, the same selection, read by a query: a webhook body is what GraphQL shows.
    const listed = await api.graphql(`{ events(first: 50, types: [ONRAMP_TRANSFER_CREATED]) { edges { node { ${SELECTION} } } } }`);
    const [node] = listed.body.data.events.edges.map((e: any) => e.node);
    expect(body).toEqual({ data: { events: node } });
    expect(body.data.events).toMatchObject({
      type: 'ONRAMP_TRANSFER_CREATED',
      subject: { __typename: 'OnrampTransferSnapshot', databaseId: transferId, customer: { databaseId: customerId } },
    });
    expect(Object.keys(body.data.events.subject).sort()).toEqual(['__typename', 'amount', 'customer', 'databaseId', 'id', 'status']);
    expect(delivery!.headers['webhook-id']).toBe(body.data.events.databaseId);
    // The customer's own events (created, KYC approved) are not of the types the query names: never delivered.
    await sleep(300);
    expect(r.received).toHaveLength(1);
    // Its cursor resumes the events API right after it.
    const after = await api.get(`/v0/events?after=${body.data.events.cursor}`);
    expect(after.status).toBe(200);
    expect(after.body.items).toEqual([]);
  });

  it('runs as its partner and environment: each partner receives its own events, their relations read in its own scope', async () => {
    const [a, b] = [await newPartner(), await newPartner()];
    const [ra, rb] = [await receiver(), await receiver()];
    const secretA = (await registerOverGraphQL(a, ra.url, TRANSFER_QUERY)).secret;
    const secretB = (await registerOverGraphQL(b, rb.url, TRANSFER_QUERY)).secret;
    const ofA = await createOnrampTransfer(a);
    const ofB = await createOnrampTransfer(b);
    await waitFor(() => ra.received.length && rb.received.length, 10_000, 'both deliveries');
    await sleep(200);
    expect(ra.received).toHaveLength(1);
    expect(rb.received).toHaveLength(1);
    expect(verified(ra.received[0]!, secretA).data.events.subject).toMatchObject({ databaseId: ofA.transferId, customer: { databaseId: ofA.customerId } });
    expect(verified(rb.received[0]!, secretB).data.events.subject).toMatchObject({ databaseId: ofB.transferId, customer: { databaseId: ofB.customerId } });
  });

  it('is registered over REST with subscription_query, which the webhook then shows', async () => {
    const api = await newPartner();
    const r = await receiver();
    const query = 'subscription { events(types: CUSTOMER_CREATED) { type subject { ... on CustomerSnapshot { databaseId email } } } }';
    const res = await api.post('/v0/webhooks', { url: r.url, subscription_query: query });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ url: r.url, subscription_query: query });
    expect((await api.get('/v0/webhooks')).body.items).toEqual([expect.objectContaining({ id: res.body.id, subscription_query: query })]);

    const customerId = await createCustomer(api, { approved: false });
    const [delivery] = await waitFor(() => r.received.length && r.received, 10_000, 'the customer delivery');
    expect(verified(delivery!, res.body.secret)).toEqual({
      data: { events: { type: 'CUSTOMER_CREATED', subject: { databaseId: customerId, email: expect.stringContaining('@example.com') } } },
    });

    // A redelivery runs the query again: the same body, the same webhook-id.
    const redeliver = 'mutation ($eventId: ID!, $endpointId: ID!) { redeliverEvent(input: { eventId: $eventId, endpointId: $endpointId }) { __typename } }';
    const eventId = delivery!.headers['webhook-id'];
    expect((await api.graphql(redeliver, { eventId, endpointId: res.body.id })).body.data.redeliverEvent.__typename).toBe('RedeliverEventPayload');
    const [, again] = await waitFor(() => r.received.length === 2 && r.received, 10_000, 'the redelivery');
    expect(again!.headers['webhook-id']).toBe(eventId);
    expect(verified(again!, res.body.secret)).toEqual(JSON.parse(delivery!.body));
  });

  it('keeps the Align-compatible body for a webhook without one', async () => {
    const api = await newPartner();
    const r = await receiver();
    const res = await api.post('/v0/webhooks', { url: r.url });
    expect(Object.keys(res.body)).not.toContain('subscription_query');
    const customerId = await createCustomer(api, { approved: false });
    const [delivery] = await waitFor(() => r.received.length && r.received, 10_000, 'the customer delivery');
    expect(verified(delivery!, res.body.secret)).toMatchObject({
      event_type: 'customer.created',
      entity_type: 'customer',
      entity_id: customerId,
      event_payload: expect.objectContaining({ customer_id: customerId }),
    });
    const gql = await api.graphql('query ($id: ID!) { webhookEndpoint(id: $id) { subscriptionQuery } }', { id: res.body.id });
    expect(gql.body.data.webhookEndpoint).toEqual({ subscriptionQuery: null });
  });

  it('shows a field that fails beside the data, as a GraphQL response does', async () => {
    const api = await newPartner();
    const r = await receiver();
    // A page size is checked when the field runs, as for a query: over 100 fails that field only.
    const query =
      'subscription { events { type subject { ... on CustomerSnapshot { databaseId live { transfers(first: 101) { edges { node { id } } } } } } } }';
    const res = await api.post('/v0/webhooks', { url: r.url, subscription_query: query });
    await createCustomer(api, { approved: false });
    const [delivery] = await waitFor(() => r.received.length && r.received, 10_000, 'the customer delivery');
    expect(verified(delivery!, res.body.secret)).toEqual({
      // The connection is nullable: its failure nulls it alone, and the live customer beside it is shown.
      data: { events: { type: 'CUSTOMER_CREATED', subject: { databaseId: expect.any(String), live: { transfers: null } } } },
      errors: [
        {
          message: 'The request is invalid',
          locations: [{ line: 1, column: query.indexOf('transfers(') + 1 }],
          path: ['events', 'subject', 'live', 'transfers'],
          extensions: { code: 'VALIDATION_FAILED', fieldErrors: [{ path: '/first', code: expect.any(String), message: expect.any(String) }] },
        },
      ],
    });
  });

  it('costs no SQL beyond a default delivery when it selects what the event keeps', async () => {
    const statementsOfOneDelivery = async (query: string | null) => {
      const api = await newPartner();
      const r = await receiver();
      expect((await api.post('/v0/webhooks', { url: r.url, ...(query && { subscription_query: query }) })).status).toBe(201);
      const statements = await sql.during(async () => {
        await api.post('/v0/customers', { email: `sql${partners}@example.com`, type: 'individual', first_name: 'Ada', last_name: 'Lovelace' });
        await waitFor(() => r.received.length, 10_000, 'the delivery');
        await sleep(300); // its outcome settled
      });
      expect(r.received).toHaveLength(1);
      // Their shape: the values (ids, keys, timestamps) differ from one partner to the next.
      return statements.map((s) =>
        s
          .replace(/'(?:[^']|'')*'/g, '?')
          .replace(/\b\d+\b/g, '?')
          .replace(/\s+/g, ' ')
          .trim(),
      );
    };
    const plain = await statementsOfOneDelivery(null);
    const queried = await statementsOfOneDelivery(
      'subscription { events { id type occurredAt subject { ... on CustomerSnapshot { id email kycs { status } } } } }',
    );
    expect(queried).toEqual(plain);
  });
});

describe('a subscription query that cannot make a body', () => {
  const deep = (depth: number): string => (depth === 0 ? 'id' : `customer { transfers(first: 1) { edges { node { ${deep(depth - 1)} } } } }`);
  const cases = [
    ['a syntax error', 'subscription { events { id }', 'graphql_syntax_error'],
    ['an unknown field', 'subscription { events { id nope } }', 'graphql_invalid'],
    ['@defer, which a delivery of one body cannot honour', 'subscription { events { id ... @defer { type } } }', 'graphql_invalid'],
    ['a query instead of a subscription', 'query { events(first: 1) { edges { node { id } } } }', 'not_a_subscription'],
    ['another subscription field', 'subscription { transferUpdated(id: "x") { cursor } }', 'not_events_subscription'],
    ['variables', 'subscription ($types: [EventType!]) { events(types: $types) { id } }', 'variables_not_allowed'],
    ['a cursor to start after', 'subscription { events(after: "0") { id } }', 'argument_not_allowed'],
    ['two operations', 'subscription A { events { id } } subscription B { events { type } }', 'not_one_operation'],
    ['a depth over the limit', `subscription { events { subject { ... on OnrampTransferSnapshot { ${deep(3)} } } } }`, 'query_too_deep'],
  ] as const;

  it.each(cases)('refuses %s over GraphQL, at input.subscriptionQuery, and stores nothing', async (_, query, code) => {
    const api = await newPartner();
    const result = await registerOverGraphQL(api, 'http://127.0.0.1:9/hooks', query);
    expect(result.__typename).toBe('ValidationError');
    expect(result.fieldErrors).toEqual([{ path: '/subscriptionQuery', argumentPath: ['input', 'subscriptionQuery'], code, message: expect.any(String) }]);
    expect((await api.get('/v0/webhooks')).body.items).toEqual([]);
  });

  it.each(cases)('refuses %s over REST with 400 at /subscription_query, and stores nothing', async (_, query, code) => {
    const api = await newPartner();
    const res = await api.post('/v0/webhooks', { url: 'http://127.0.0.1:9/hooks', subscription_query: query });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([{ pointer: '/subscription_query', code, detail: expect.any(String) }]);
    expect((await api.get('/v0/webhooks')).body.items).toEqual([]);
  });

  it('says where the problem is, in graphql words', async () => {
    const api = await newPartner();
    const res = await api.post('/v0/webhooks', { url: 'http://127.0.0.1:9/hooks', subscription_query: 'subscription {\n  events { id nme }\n}' });
    expect(res.body.errors[0].detail).toBe('does not match the schema: Cannot query field "nme" on type "Event". (line 2, column 15)');
  });

  it('reports a refused URL and a refused query in one answer', async () => {
    const api = await newPartner();
    const res = await api.post('/v0/webhooks', { url: 'ftp://example.com/hooks', subscription_query: 'query { __typename }' });
    expect(res.body.errors.map((e: any) => `${e.pointer} ${e.code}`)).toEqual(['/url invalid_url', '/subscription_query not_a_subscription']);
  });
});
