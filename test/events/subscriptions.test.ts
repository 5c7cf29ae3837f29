import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { subscribe, wsClient } from '../support/clients/subscriptions.js';
import { createCustomer, onrampQuoteBody, wallet } from '../support/data/transfers.js';
import { sleep, waitFor } from '../support/clients/webhook-receiver.js';

let t: TestRamp;
const clients: Client[] = [];
let partners = 0;

beforeAll(async () => {
  t = await startRamp({ EVENTS_CATCHUP_INTERVAL_MS: '200' });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t.close();
});

async function newPartner() {
  const name = `Subscriber ${++partners}`;
  const key = await t.keyFor(name);
  return { name, key, api: t.client(key) };
}
function connect(key: string) {
  const client = wsClient(t.url, key);
  clients.push(client);
  return client;
}

const EVENTS = `subscription($after: String, $types: [EventType!]) {
  events(after: $after, types: $types) { cursor id databaseId type entityType entityId occurredAt payload } }`;
const TRANSFER = `subscription($id: ID!, $after: String) { transferUpdated(id: $id, after: $after) { cursor event transfer { databaseId status } snapshot { ... on Transfer { databaseId status } } } }`;

/** A full sandbox on-ramp: quote → transfer (pending) → fiat deposit (processing) → token sent (completed). */
async function fullOnramp(api: ApiClient, customerId: string, steps: { afterCreate?: () => Promise<void> } = {}) {
  const base = `/v0/customers/${customerId}/onramp-transfer`;
  const quote = (await api.post(`${base}/quote`, onrampQuoteBody())).body;
  const transfer = (await api.post(`${base}/quote/${quote.quote_id}`, { destination_address: wallet() })).body;
  expect(transfer.status).toBe('pending');
  await steps.afterCreate?.();
  for (const action of ['fiat_deposit', 'complete_transfer']) {
    const res = await api.post(`${base}/simulate`, { action, transfer_id: transfer.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return transfer.id as string;
}

describe('subscription events', () => {
  it('replays, streams in order, and after a reconnect with the last cursor delivers exactly the missed events, then live ones', async () => {
    const { name, key, api } = await newPartner();
    const other = await newPartner();
    const theirs = subscribe(connect(other.key), EVENTS, { after: '0' }, 'events');
    // The same partner's production key is another environment: it must see none of the sandbox events either.
    const production = subscribe(connect(await t.keyFor(name, 'production')), EVENTS, { after: '0' }, 'events');

    // A full on-ramp while subscribed: every transfer event arrives, in commit order.
    const first = connect(key);
    const live = subscribe(first, EVENTS, { after: '0' }, 'events');
    const customerId = await createCustomer(api);
    const transferId = await fullOnramp(api, customerId);
    await waitFor(() => live.items.length >= 5, 10_000, 'five events');
    expect(live.items.map((e: any) => e.type)).toEqual([
      'CUSTOMER_CREATED',
      'CUSTOMER_KYCS_UPDATED',
      'ONRAMP_TRANSFER_CREATED',
      'ONRAMP_TRANSFER_STATUS_UPDATED',
      'ONRAMP_TRANSFER_STATUS_UPDATED',
    ]);
    expect(live.items.map((e: any) => e.entityType)).toEqual(['CUSTOMER', 'CUSTOMER', 'ONRAMP_TRANSFER', 'ONRAMP_TRANSFER', 'ONRAMP_TRANSFER']);
    expect(live.items.slice(2).map((e: any) => [e.entityId, e.payload.status])).toEqual([
      [transferId, 'pending'],
      [transferId, 'processing'],
      [transferId, 'completed'],
    ]);
    // Cursors are opaque: commit order is the events API's, and the stream came in that order, with the same cursors.
    const listed = (await api.get('/v0/events')).body.items;
    expect(live.items.map((e: any) => e.cursor)).toEqual(listed.map((e: any) => e.cursor));
    expect(live.items.map((e: any) => e.databaseId)).toEqual(listed.map((e: any) => e.event_id));

    // Disconnect; what happens meanwhile is missed.
    const lastCursor = live.items.at(-1).cursor;
    await first.dispose();
    const missed = [await createCustomer(api, { approved: false }), await createCustomer(api, { approved: false })];

    // Reconnect with the last cursor: exactly the missed events, then the live ones.
    const resumed = subscribe(connect(key), EVENTS, { after: lastCursor }, 'events');
    await waitFor(() => resumed.items.length >= 2, 10_000, 'the missed events');
    const later = await createCustomer(api, { approved: false });
    await waitFor(() => resumed.items.length >= 3, 10_000, 'the live event');
    await sleep(300);
    expect(resumed.items.map((e: any) => e.entityId)).toEqual([...missed, later]);
    expect(resumed.items.every((e: any) => e.type === 'CUSTOMER_CREATED')).toBe(true);
    expect(resumed.errors).toEqual([]);

    // The other partner saw none of it; its own event shows its stream works.
    const own = await createCustomer(other.api, { approved: false });
    await waitFor(() => theirs.items.length >= 1, 10_000, "the other partner's own event");
    await sleep(300);
    expect(theirs.items.map((e: any) => e.entityId)).toEqual([own]);
    expect(production.items).toEqual([]);
  });

  it('filters by event type', async () => {
    const { key, api } = await newPartner();
    const sub = subscribe(connect(key), EVENTS, { after: '0', types: ['CUSTOMER_KYCS_UPDATED'] }, 'events');
    const a = await createCustomer(api);
    const b = await createCustomer(api);
    await waitFor(() => sub.items.length >= 2, 10_000, 'two kyc events');
    await sleep(200);
    expect(sub.items.map((e: any) => [e.type, e.entityId])).toEqual([
      ['CUSTOMER_KYCS_UPDATED', a],
      ['CUSTOMER_KYCS_UPDATED', b],
    ]);
  });

  it('without a cursor starts with the next event', async () => {
    const { key, api } = await newPartner();
    await createCustomer(api, { approved: false });
    const sub = subscribe(connect(key), EVENTS, {}, 'events');
    await sleep(300);
    const next = await createCustomer(api, { approved: false });
    await waitFor(() => sub.items.length >= 1, 10_000, 'the next event');
    expect(sub.items.map((e: any) => e.entityId)).toEqual([next]);
  });

  it('refuses a malformed cursor and an unknown event type', async () => {
    const { key } = await newPartner();
    const client = connect(key);
    const bad = subscribe(client, EVENTS, { after: 'yesterday' }, 'events');
    // The REST spelling is not an EventType: refused when the variables are read, before anything runs.
    const unknown = subscribe(client, EVENTS, { types: ['customer.created'] }, 'events');
    await waitFor(() => bad.errors.length && unknown.errors.length, 5_000, 'errors');
    expect(JSON.stringify(bad.errors)).toContain('VALIDATION_FAILED');
    expect(JSON.stringify(unknown.errors)).toContain('Value \\"customer.created\\" does not exist in \\"EventType\\" enum');
  });

  it('carries subscriptions only: a query over the socket is refused, pointing to HTTP', async () => {
    const { key } = await newPartner();
    const query = subscribe(connect(key), '{ customers { edges { cursor } } }', {}, 'customers');
    await waitFor(() => query.errors.length, 5_000, 'the refusal');
    expect(JSON.stringify(query.errors)).toContain('SUBSCRIPTIONS_ONLY');
    expect(query.items).toEqual([]);
  });

  it('holds at most 20 subscriptions on one connection', async () => {
    const { key } = await newPartner();
    const client = connect(key);
    const subs = Array.from({ length: 21 }, () => subscribe(client, EVENTS, {}, 'events'));
    await waitFor(() => subs.some((s) => s.errors.length), 5_000, 'the refusal');
    const refused = subs.filter((s) => JSON.stringify(s.errors).includes('TOO_MANY_SUBSCRIPTIONS'));
    expect(refused).toHaveLength(1);
    for (const sub of subs) sub.stop();
  });

  it('refuses a connection without a valid API key', async () => {
    const client = wsClient(t.url, 'rk_sandbox_notAValidKeyAtAllnotAValidKeyAtAll0000');
    clients.push(client);
    const sub = subscribe(client, EVENTS, {}, 'events');
    await waitFor(() => sub.errors.length, 5_000, 'the close');
    expect((sub.errors[0] as { code?: number }).code).toBe(4403);
  });
});

describe('subscription transferUpdated', () => {
  it("streams one transfer's status changes in order, and nothing of other transfers", async () => {
    const { key, api } = await newPartner();
    const customerId = await createCustomer(api);
    let sub: ReturnType<typeof subscribe> | undefined;
    const client = connect(key);
    const transferId = await fullOnramp(api, customerId, {
      afterCreate: async () => {
        const created = await waitFor(async () => (await api.get('/v0/events?types=onramp_transfer.created')).body.items[0]);
        sub = subscribe(client, TRANSFER, { id: created.entity_id, after: created.cursor }, 'transferUpdated');
      },
    });
    await fullOnramp(api, customerId); // another transfer of the same partner
    await waitFor(() => sub!.items.length >= 2, 10_000, 'two status changes');
    await sleep(300);
    // Each update's snapshot shows the transfer as that event left it (`transfer` is the live one).
    expect(sub!.items.map((u: any) => [u.event, u.snapshot.databaseId, u.snapshot.status])).toEqual([
      ['ONRAMP_TRANSFER_STATUS_UPDATED', transferId, 'PROCESSING'],
      ['ONRAMP_TRANSFER_STATUS_UPDATED', transferId, 'COMPLETED'],
    ]);
  });

  it("answers not found for an unknown transfer, another partner's, or a customer id", async () => {
    const { key, api } = await newPartner();
    const other = await newPartner();
    const theirCustomer = await createCustomer(other.api);
    const theirTransfer = await fullOnramp(other.api, theirCustomer);
    const mine = await createCustomer(api, { approved: false });
    const client = connect(key);
    for (const id of [theirTransfer, mine, '00000000-0000-4000-8000-000000000000']) {
      const sub = subscribe(client, TRANSFER, { id }, 'transferUpdated');
      await waitFor(() => sub.errors.length, 5_000, 'an error');
      expect(JSON.stringify(sub.errors)).toContain('NOT_FOUND');
      expect(sub.items).toEqual([]);
    }
  });
});
