import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { subscribe, wsClient } from '../support/clients/subscriptions.js';
import { createCustomer, onrampQuoteBody, wallet } from '../support/data/transfers.js';

let t: TestRamp;
let partners = 0;

beforeAll(async () => {
  t = await startRamp();
});
afterAll(() => t?.close());

/** The fragments a client already uses in its queries, reused on event subjects. */
const TRANSFER_ROW = 'fragment TransferRow on Transfer { id databaseId status }';
const FRAGMENTS = `
  ${TRANSFER_ROW}
  fragment CustomerRow on CustomerSnapshot { id databaseId kycs { status } live { id } }`;
const SUBJECT =
  '__typename ...TransferRow ...CustomerRow ... on OnrampTransferSnapshot { live { id status } } ... on VirtualAccountSnapshot { id accountStatus: status }';

async function onramp(client: ApiClient, customerId: string, actions: string[]) {
  const base = `/v0/customers/${customerId}/onramp-transfer`;
  const quote = (await client.post(`${base}/quote`, onrampQuoteBody())).body;
  const transfer = (await client.post(`${base}/quote/${quote.quote_id}`, { destination_address: wallet() })).body;
  for (const action of actions) expect((await client.post(`${base}/simulate`, { action, transfer_id: transfer.id })).status).toBe(200);
  return transfer.id as string;
}

const until = async <T>(probe: () => T | undefined, what: string, ms = 10_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('Event.subject: the typed object as it was at the event', () => {
  it('deprecates the untyped payload in favour of subject (webhooks do not need it)', async () => {
    const res = await t
      .client(t.key)
      .graphql('{ __type(name: "Event") { fields(includeDeprecated: true) { name type { name } isDeprecated deprecationReason } } }');
    const fields = Object.fromEntries(res.body.data.__type.fields.map((f: { name: string }) => [f.name, f]));
    expect(fields.payload).toMatchObject({ isDeprecated: true, deprecationReason: expect.stringContaining('subject') });
    expect(fields.subject).toMatchObject({ type: { name: 'EventSubject' }, isDeprecated: false });
  });

  it('shows each event its own state of the object, with the fragments of queries', async () => {
    const client = t.client(await t.keyFor(`Subjects ${++partners}`));
    const customerId = await createCustomer(client, { approved: false });
    await client.graphql('mutation ($id: ID!) { simulateKycDecision(input: { customerId: $id, decision: APPROVED }) { __typename } }', { id: customerId });
    const transferId = await onramp(client, customerId, ['fiat_deposit', 'complete_transfer']);

    const res = await client.graphql(`{ events(first: 20) { edges { node { type occurredAt subject { ${SUBJECT} } } } } } ${FRAGMENTS}`);
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    const seen = res.body.data.events.edges.map(({ node }: { node: { type: string; subject: Record<string, any> } }) => [
      node.type,
      node.subject.__typename,
      node.subject.databaseId,
      node.subject.status ?? node.subject.kycs.status,
    ]);
    // The customer and the transfer are approved and completed now; each event still shows its own moment.
    expect(seen).toEqual([
      ['CUSTOMER_CREATED', 'CustomerSnapshot', customerId, 'NOT_STARTED'],
      ['CUSTOMER_KYCS_UPDATED', 'CustomerSnapshot', customerId, 'APPROVED'],
      ['ONRAMP_TRANSFER_CREATED', 'OnrampTransferSnapshot', transferId, 'PENDING'],
      ['ONRAMP_TRANSFER_STATUS_UPDATED', 'OnrampTransferSnapshot', transferId, 'PROCESSING'],
      ['ONRAMP_TRANSFER_STATUS_UPDATED', 'OnrampTransferSnapshot', transferId, 'COMPLETED'],
    ]);
    // A snapshot's id is its own (the event's): a normalized cache never files an old state under the live object. `live` is that object.
    const { data } = (await client.graphql(`query ($id: ID!) { transfer(id: $id) { id } }`, { id: transferId })).body;
    const subjects = res.body.data.events.edges.map(({ node }: { node: { subject: { id: string } } }) => node.subject);
    expect(new Set(subjects.map((s: { id: string }) => s.id)).size).toBe(5);
    expect(subjects.map((s: { id: string }) => s.id)).not.toContain(data.transfer.id);
    expect(subjects[2].live).toEqual({ id: data.transfer.id, status: 'COMPLETED' });
    // Each snapshot is a node: node(id:) reads it back as it was.
    const again = await client.graphql(`query ($id: ID!) { node(id: $id) { __typename ...TransferRow } } ${TRANSFER_ROW}`, { id: subjects[3].id });
    expect(again.body.data.node).toEqual({ __typename: 'OnrampTransferSnapshot', id: subjects[3].id, databaseId: transferId, status: 'PROCESSING' });
  });

  it('streams typed subjects over graphql-ws, only the subscriber’s own', async () => {
    const key = await t.keyFor(`Subjects ${++partners}`);
    const client = t.client(key);
    const stranger = subscribe(wsClient(t.url, await t.keyFor(`Subjects ${++partners}`)), `subscription { events { type } }`, {}, 'events');
    const live = subscribe(wsClient(t.url, key), `subscription { events { cursor type subject { ${SUBJECT} } } } ${FRAGMENTS}`, {}, 'events');
    await new Promise((r) => setTimeout(r, 300));
    const customerId = await createCustomer(client);
    const transferId = await onramp(client, customerId, ['fiat_deposit']);
    const items = await until(() => (live.items.length >= 4 ? live.items : undefined), 'four events');
    expect(JSON.stringify(live.errors)).toBe('[]');
    expect(items.map((e: any) => [e.type, e.subject.__typename, e.subject.status ?? e.subject.kycs.status])).toEqual([
      ['CUSTOMER_CREATED', 'CustomerSnapshot', 'NOT_STARTED'],
      ['CUSTOMER_KYCS_UPDATED', 'CustomerSnapshot', 'APPROVED'],
      ['ONRAMP_TRANSFER_CREATED', 'OnrampTransferSnapshot', 'PENDING'],
      ['ONRAMP_TRANSFER_STATUS_UPDATED', 'OnrampTransferSnapshot', 'PROCESSING'],
    ]);
    expect(items[3].subject.databaseId).toBe(transferId);
    expect(stranger.items).toEqual([]);
    live.stop();
    stranger.stop();
  });

  it('transferUpdated yields the live transfer read fresh, and the snapshot each event left, resuming after a cursor', async () => {
    const key = await t.keyFor(`Subjects ${++partners}`);
    const client = t.client(key);
    const customerId = await createCustomer(client);
    const transferId = await onramp(client, customerId, ['fiat_deposit', 'complete_transfer']);
    const { id } = (await client.graphql(`query ($id: ID!) { transfer(id: $id) { id } }`, { id: transferId })).body.data.transfer;
    const QUERY = `subscription ($id: ID!, $after: String) { transferUpdated(id: $id, after: $after) { cursor event transfer { ...TransferRow } snapshot { ... on Transfer { ...TransferRow } } } } ${TRANSFER_ROW}`;
    const replay = subscribe(wsClient(t.url, key), QUERY, { id, after: '0' }, 'transferUpdated');
    const all = await until(() => (replay.items.length >= 3 || replay.errors.length ? replay.items : undefined), 'three updates');
    expect(JSON.stringify(replay.errors)).toBe('[]');
    // A replayed update says the transfer changed: it carries the transfer as it is now; the history is in `snapshot`, under ids of its own.
    expect(all.map((u: any) => [u.event, u.transfer.id, u.transfer.status, u.snapshot.status, u.snapshot.id !== id])).toEqual([
      ['ONRAMP_TRANSFER_CREATED', id, 'COMPLETED', 'PENDING', true],
      ['ONRAMP_TRANSFER_STATUS_UPDATED', id, 'COMPLETED', 'PROCESSING', true],
      ['ONRAMP_TRANSFER_STATUS_UPDATED', id, 'COMPLETED', 'COMPLETED', true],
    ]);
    const resumed = subscribe(wsClient(t.url, key), QUERY, { id, after: all[0].cursor }, 'transferUpdated');
    const rest = await until(() => (resumed.items.length >= 2 ? resumed.items : undefined), 'the two later updates');
    expect(rest.map((u: any) => u.snapshot.status)).toEqual(['PROCESSING', 'COMPLETED']);
    replay.stop();
    resumed.stop();
  });

  it('reads a live subject’s relations afresh for each event, not as the first event left them', async () => {
    const key = await t.keyFor(`Subjects ${++partners}`);
    const client = t.client(key);
    const customerId = await createCustomer(client);
    const transferId = await onramp(client, customerId, []);
    const QUERY = `subscription ($id: ID!) { transferUpdated(id: $id) { event transfer { status ... on OnrampTransfer { statusHistory { to } postings { movement } } } } }`;
    const live = subscribe(wsClient(t.url, key), QUERY, { id: transferId }, 'transferUpdated');
    await new Promise((r) => setTimeout(r, 300));
    const base = `/v0/customers/${customerId}/onramp-transfer/simulate`;
    for (const [n, action] of [
      [1, 'fiat_deposit'],
      [2, 'complete_transfer'],
    ] as const) {
      expect((await client.post(base, { action, transfer_id: transferId })).status).toBe(200);
      await until(() => (live.items.length >= n ? live.items : undefined), `update ${n}`);
    }
    const [deposited, completed] = live.items.map((u: any) => u.transfer);
    expect(deposited.statusHistory.map((h: { to: string }) => h.to)).toEqual(['PENDING', 'PROCESSING']);
    expect(completed.status).toBe('COMPLETED');
    expect(completed.statusHistory.map((h: { to: string }) => h.to)).toEqual(['PENDING', 'PROCESSING', 'COMPLETED']);
    expect(completed.postings.length).toBeGreaterThan(deposited.postings.length);
    live.stop();
  });
});
