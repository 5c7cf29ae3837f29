import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../../src/domain/environment.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { subscribe, wsClient } from '../support/clients/subscriptions.js';
import { createCustomer } from '../support/data/transfers.js';
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

interface Partner {
  name: string;
  key: string;
  api: ApiClient;
}

async function newPartner(): Promise<Partner> {
  const name = `Cursor partner ${++partners}`;
  const key = await t.keyFor(name);
  return { name, key, api: t.client(key) };
}
async function keyOf(partner: Partner, environment: Environment) {
  return t.client(await t.keyFor(partner.name, environment));
}
function connect(key: string) {
  const client = wsClient(t.url, key);
  clients.push(client);
  return client;
}

/** One event each: `customer.created`. */
const customers = async (api: ApiClient, n: number) => {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await createCustomer(api, { approved: false }));
  return ids;
};
const listed = async (api: ApiClient, query = '') => (await api.get(`/v0/events?limit=100${query}`)).body.items as { cursor: string; entity_id: string }[];
/** The outbox's own position of an event: what the cursor must not show. */
const positionOf = async (entityId: string) =>
  (await t.sql<{ position: string }>('select cursor::text as position from events where entity_id = ?', [entityId]))[0]!.position;

const EVENTS_PAGE = `query($first: Int, $after: String, $last: Int, $before: String) {
  events(first: $first, after: $after, last: $last, before: $before) { edges { cursor node { cursor entityId } } pageInfo { hasNextPage endCursor } } }`;
const EVENTS_SUBSCRIPTION = 'subscription($after: String) { events(after: $after) { cursor entityId } }';
const TRANSFER_SUBSCRIPTION = 'subscription($id: ID!, $after: String) { transferUpdated(id: $id, after: $after) { cursor } }';

/** The same refused cursor through each face: 400 in REST, a coded error in GraphQL and in a subscription. */
async function expectRefusedEverywhere(partner: Partner, cursor: string) {
  const rest = await partner.api.get(`/v0/events?after=${encodeURIComponent(cursor)}`);
  expect(rest.status, cursor).toBe(400);
  expect(rest.body.errors).toEqual([expect.objectContaining({ pointer: '/after', code: 'invalid_cursor' })]);
  for (const variables of [
    { first: 5, after: cursor },
    { last: 5, before: cursor },
  ]) {
    const graphql = await partner.api.graphql(EVENTS_PAGE, variables);
    expect(graphql.body.errors?.[0]?.extensions, JSON.stringify(variables)).toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: [expect.objectContaining({ code: 'invalid_cursor' })],
    });
  }
  const client = connect(partner.key);
  const events = subscribe(client, EVENTS_SUBSCRIPTION, { after: cursor }, 'events');
  const transfer = subscribe(client, TRANSFER_SUBSCRIPTION, { id: '00000000-0000-4000-8000-000000000000', after: cursor }, 'transferUpdated');
  await waitFor(() => events.errors.length && transfer.errors.length, 5_000, 'the refusals');
  for (const sub of [events, transfer]) {
    expect(JSON.stringify(sub.errors)).toContain('invalid_cursor');
    expect(sub.items).toEqual([]);
  }
}

describe('event cursors', () => {
  it("tell a partner nothing of another partner's volume: B's first cursor after A's fifty events shows neither its position nor an order", async () => {
    const a = await newPartner();
    const b = await newPartner();
    await customers(a.api, 50);
    const [bFirst] = await customers(b.api, 1);

    const [bEvent] = await listed(b.api);
    const position = await positionOf(bFirst!);
    // The outbox's own number would have said "fifty events came before yours".
    expect(BigInt(position)).toBeGreaterThan(50n);
    expect(bEvent!.cursor).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(bEvent!.cursor).not.toContain(position);
    const plain = Buffer.alloc(8);
    plain.writeBigUInt64BE(BigInt(position));
    expect(Buffer.from(bEvent!.cursor, 'base64url').includes(plain)).toBe(false);

    // A's cursors are the same shape as B's first, and sort in no relation to commit order.
    const aCursors = (await listed(a.api)).map((e) => e.cursor);
    expect(aCursors).toHaveLength(50);
    expect(new Set(aCursors.map((c) => c.length))).toEqual(new Set([bEvent!.cursor.length]));
    expect(new Set(aCursors).size).toBe(50);
    expect([...aCursors].sort()).not.toEqual(aCursors);
    expect([...aCursors].sort().reverse()).not.toEqual(aCursors);
  });

  it("resumes exactly after a cursor in REST and in the GraphQL connection, past another partner's events in between", async () => {
    const a = await newPartner();
    const b = await newPartner();
    const mine: string[] = [];
    for (let i = 0; i < 6; i++) {
      mine.push(...(await customers(a.api, 1)));
      await customers(b.api, 1);
    }
    const all = await listed(a.api);
    expect(all.map((e) => e.entity_id)).toEqual(mine);

    for (const [i, event] of all.entries()) {
      const rest = await a.api.get(`/v0/events?after=${event.cursor}`);
      expect(rest.body.items.map((e: any) => e.entity_id)).toEqual(mine.slice(i + 1));
      const graphql = (await a.api.graphql(EVENTS_PAGE, { first: 100, after: event.cursor })).body.data.events;
      // The connection's cursors are the events API's cursors.
      expect(graphql.edges.map((e: any) => [e.cursor, e.node.cursor, e.node.entityId])).toEqual(all.slice(i + 1).map((e) => [e.cursor, e.cursor, e.entity_id]));
    }

    // Page by page, forwards with endCursor and backwards with before: every event once, in commit order.
    const forwards: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = (await a.api.graphql(EVENTS_PAGE, { first: 4, after })).body.data.events;
      forwards.push(...page.edges.map((e: any) => e.node.entityId));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(forwards).toEqual(mine);
    const before = (await a.api.graphql(EVENTS_PAGE, { last: 2, before: all[4]!.cursor })).body.data.events;
    expect(before.edges.map((e: any) => e.node.entityId)).toEqual(mine.slice(2, 4));
  });

  it("resumes a subscription exactly after a cursor: the events after it, then live ones, none of another partner's", async () => {
    const a = await newPartner();
    const b = await newPartner();
    const mine: string[] = [];
    for (let i = 0; i < 4; i++) {
      mine.push(...(await customers(a.api, 1)));
      await customers(b.api, 1);
    }
    const all = await listed(a.api);
    const resumed = subscribe(connect(a.key), EVENTS_SUBSCRIPTION, { after: all[1]!.cursor }, 'events');
    await waitFor(() => resumed.items.length >= 2, 10_000, 'the events after the cursor');
    await customers(b.api, 1);
    const [live] = await customers(a.api, 1);
    await waitFor(() => resumed.items.length >= 3, 10_000, 'the live event');
    await sleep(300);
    expect(resumed.errors).toEqual([]);
    expect(resumed.items.map((e: any) => e.entityId)).toEqual([...mine.slice(2), live]);
    // The subscription hands out the same cursors as the events API.
    expect(resumed.items.map((e: any) => e.cursor)).toEqual((await listed(a.api)).slice(2).map((e) => e.cursor));

    // Resuming from the subscription's own last cursor brings only what comes next.
    const again = subscribe(connect(a.key), EVENTS_SUBSCRIPTION, { after: resumed.items.at(-1).cursor }, 'events');
    const [next] = await customers(a.api, 1);
    await waitFor(() => again.items.length >= 1, 10_000, 'the next event');
    await sleep(300);
    expect(again.items.map((e: any) => e.entityId)).toEqual([next]);
  });

  it("refuses another partner's cursor, and the same partner's from the other environment, as invalid_cursor", async () => {
    const a = await newPartner();
    const b = await newPartner();
    await customers(a.api, 2);
    await customers(b.api, 2);
    const [aCursor] = (await listed(a.api)).map((e) => e.cursor);
    await expectRefusedEverywhere(b, aCursor!);
    const production = await keyOf(a, 'production');
    const refused = await production.get(`/v0/events?after=${aCursor}`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ pointer: '/after', code: 'invalid_cursor' });
    // A's own key still resumes from it.
    expect((await a.api.get(`/v0/events?after=${aCursor}`)).body.items).toHaveLength(1);
  });

  it('refuses a tampered cursor and a bare outbox number as invalid_cursor', async () => {
    const a = await newPartner();
    const [id] = await customers(a.api, 2);
    const [cursor] = (await listed(a.api)).map((e) => e.cursor);
    const tampered = cursor!.slice(0, 10) + (cursor![10] === 'A' ? 'B' : 'A') + cursor!.slice(11);
    await expectRefusedEverywhere(a, tampered);
    await expectRefusedEverywhere(a, await positionOf(id!));
  });

  it('takes "0" as the start of the stream for everyone, and answers an empty page with next_cursor "0"', async () => {
    const a = await newPartner();
    expect((await a.api.get('/v0/events')).body).toEqual({ items: [], has_more: false, next_cursor: '0' });
    const ids = await customers(a.api, 2);
    expect((await listed(a.api, '&after=0')).map((e) => e.entity_id)).toEqual(ids);
    const page = (await a.api.graphql(EVENTS_PAGE, { first: 10, after: '0' })).body.data.events;
    expect(page.edges.map((e: any) => e.node.entityId)).toEqual(ids);
    const replay = subscribe(connect(a.key), EVENTS_SUBSCRIPTION, { after: '0' }, 'events');
    await waitFor(() => replay.items.length >= 2, 10_000, 'the replay');
    expect(replay.items.map((e: any) => e.entityId)).toEqual(ids);
  });
});
