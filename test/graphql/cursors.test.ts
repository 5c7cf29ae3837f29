import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { createHmac, hash, hkdfSync } from 'node:crypto';
import { sealer } from '../../src/platform/security/sealed.js';
import { createCustomer, onrampQuoteBody, wallet } from '../support/data/transfers.js';

/**
 * Page cursors are opaque and bound to their connection and caller: a cursor tells nothing
 * of the row it stands after, and a cursor of another connection, of another partner or changed by hand
 * is refused on the field it was given to, as `invalid_cursor`, the fields beside it answered.
 */
let t: TestRamp;
let api: ApiClient;
let customerId: string;

const customersCursor = async (client: ApiClient) =>
  (await client.graphql('{ customers(first: 1) { edges { cursor } } }')).body.data.customers.edges[0].cursor as string;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
  customerId = await createCustomer(api);
  for (let i = 0; i < 2; i++) {
    const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    expect((await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() })).status).toBe(201);
  }
});
afterAll(() => t.close());

/** The error of the one field that failed, as a client reads it. */
const refusal = (path: (string | number)[], argument: string) => ({
  message: expect.any(String),
  path,
  locations: [expect.objectContaining({ line: expect.any(Number), column: expect.any(Number) })],
  extensions: { code: 'VALIDATION_FAILED', fieldErrors: [{ path: argument, code: 'invalid_cursor', message: expect.any(String) }] },
});

describe('page cursors', () => {
  it('refuses a customers cursor on transfers, on that field, and answers the fields beside it', async () => {
    const after = await customersCursor(api);
    const res = await api.graphql('query ($after: String) { partner { id } transfers(first: 1, after: $after) { edges { cursor } } }', { after });
    expect(res.body.data).toEqual({ partner: { id: expect.any(String) }, transfers: null });
    expect(res.body.errors).toEqual([refusal(['transfers'], '/after')]);
    const before = await api.graphql('query ($before: String) { transfers(last: 1, before: $before) { totalCount } }', { before: after });
    expect(before.body.errors).toEqual([refusal(['transfers'], '/before')]);
  });

  it('pages one connection with its own cursors wherever it is listed (transfers and Customer.transfers share TransferConnection)', async () => {
    const nested = await api.graphql('query ($id: ID!) { customer(id: $id) { transfers(first: 1) { edges { cursor node { databaseId } } } } }', {
      id: customerId,
    });
    const [first] = nested.body.data.customer.transfers.edges;
    const rest = await api.graphql('query ($after: String) { transfers(first: 5, after: $after) { edges { node { databaseId } } } }', { after: first.cursor });
    expect(rest.body.errors).toBeUndefined();
    expect(rest.body.data.transfers.edges.map((e: { node: { databaseId: string } }) => e.node.databaseId)).not.toContain(first.node.databaseId);
    expect(rest.body.data.transfers.edges).toHaveLength(1);
  });

  it('shows neither the time nor the id of the row a cursor stands after', async () => {
    const res = await api.graphql('{ transfers(first: 2) { edges { cursor node { databaseId createdAt } } } }');
    for (const { cursor, node } of res.body.data.transfers.edges) {
      const bytes = Buffer.from(cursor, 'base64url');
      expect(bytes.toString('latin1')).not.toContain(node.createdAt.slice(0, 10));
      expect(bytes.toString('latin1')).not.toContain(node.databaseId);
      expect(bytes.toString('hex')).not.toContain(node.databaseId.replaceAll('-', '').slice(0, 8));
      expect(bytes.toString('hex')).not.toContain(new Date(node.createdAt).getTime().toString(16));
    }
  });

  it("refuses another partner's cursor, a cursor changed in one character, and the readable cursors of before", async () => {
    const other = t.client(await t.keyFor('Cursor Partner'));
    await createCustomer(other);
    const theirs = await customersCursor(other);
    const mine = await customersCursor(api);
    const changed = `${mine.slice(0, 10)}${mine[10] === 'A' ? 'B' : 'A'}${mine.slice(11)}`;
    const readable = Buffer.from(`${new Date().toISOString()}|${customerId}`).toString('base64url');
    for (const after of [theirs, changed, readable, `${mine}A`]) {
      const res = await api.graphql('query ($after: String) { customers(first: 1, after: $after) { totalCount } }', { after });
      expect(res.body.errors, after).toEqual([refusal(['customers'], '/after')]);
    }
    expect((await api.graphql('query ($after: String) { customers(first: 1, after: $after) { totalCount } }', { after: mine })).body.errors).toBeUndefined();
  });

  it('still takes a cursor handed out before cursors were masked by hash (sealed per edge), bound as before', async () => {
    await createCustomer(api);
    const page = await api.graphql('{ partner { databaseId } customers(first: 2) { edges { cursor node { databaseId createdAt } } } }');
    const { partner, customers } = page.body.data;
    const [first, second] = customers.edges;
    const position = Buffer.alloc(24);
    position.writeBigInt64BE(BigInt(new Date(first.node.createdAt).getTime()));
    position.write(first.node.databaseId.replaceAll('-', ''), 8, 'hex');
    const earlier = sealer(t.ramp.config.eventCursorKey, 'ramp page cursor');
    const after = earlier.seal(`${partner.databaseId}/sandbox/CustomerConnection/`, position);
    expect(after).not.toBe(first.cursor);
    const res = await api.graphql('query ($after: String) { customers(first: 1, after: $after) { edges { cursor } } }', { after });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.customers.edges).toEqual([{ cursor: second.cursor }]);
    const elsewhere = earlier.seal(`${partner.databaseId}/sandbox/TransferConnection/`, position);
    const refused = await api.graphql('query ($after: String) { customers(first: 1, after: $after) { totalCount } }', { after: elsewhere });
    expect(refused.body.errors).toEqual([refusal(['customers'], '/after')]);
  });

  it('still takes a cursor of the previous shape (tag first, then the position masked by a hash of the tag)', async () => {
    const page = await api.graphql('{ partner { databaseId } customers(first: 2) { edges { cursor node { databaseId createdAt } } } }');
    const { partner, customers } = page.body.data;
    const [first, second] = customers.edges;
    const position = Buffer.alloc(24);
    position.writeBigInt64BE(BigInt(new Date(first.node.createdAt).getTime()));
    position.write(first.node.databaseId.replaceAll('-', ''), 8, 'hex');
    // That shape, made here as it was made then: k = HMAC(root, binding), tag = SHA-256(k ‖ 1 ‖ position)[:16],
    // then the position XOR SHA-256(k ‖ 2 ‖ tag).
    const root = Buffer.from(hkdfSync('sha256', t.ramp.config.eventCursorKey, '', 'ramp page cursor v2', 32));
    const previous = (binding: string) => {
      const k = createHmac('sha256', root).update(binding).digest();
      const tag = hash('sha256', Buffer.concat([k, Buffer.from([1]), position]), 'buffer').subarray(0, 16);
      const pad = hash('sha256', Buffer.concat([k, Buffer.from([2]), tag]), 'buffer');
      return Buffer.concat([tag, position.map((byte, i) => byte ^ pad[i]!)]).toString('base64url');
    };
    const after = previous(`${partner.databaseId}/sandbox/CustomerConnection/`);
    expect(after).not.toBe(first.cursor);
    const res = await api.graphql('query ($after: String) { customers(first: 1, after: $after) { edges { cursor } } }', { after });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.customers.edges).toEqual([{ cursor: second.cursor }]);
    const elsewhere = previous(`${partner.databaseId}/sandbox/TransferConnection/`);
    const refused = await api.graphql('query ($after: String) { customers(first: 1, after: $after) { totalCount } }', { after: elsewhere });
    expect(refused.body.errors).toEqual([refusal(['customers'], '/after')]);
  });
});
