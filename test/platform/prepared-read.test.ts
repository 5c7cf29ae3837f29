import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { preparedRead, readsOver } from '../../src/platform/reads/queries.js';
import { type Scope, scopeFor } from '../../src/platform/use-cases/scope.js';
import type { CustomerTables } from '../../src/modules/customers/entities.js';
import { type ApiClient, type TestRamp, startRamp } from '../support/ramp.js';
import { createCustomer, onrampQuoteBody, wallet } from '../support/data/transfers.js';

/**
 * A prepared read (platform/reads/queries.ts) compiles its statement once and runs it with each call's values and each
 * caller's tenant. The first caller's values and tenant must never stay in it: each partner reads its own
 * transfers only, whoever read first, and a read that would carry a value in its text is refused.
 */
let t: TestRamp;
const partners: { api: ApiClient; customerId: string; transferId: string }[] = [];
const { tenant } = readsOver<CustomerTables>();

async function partnerWithTransfer(key: string) {
  const api = t.client(key);
  const customerId = await createCustomer(api);
  const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
  const transfer = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
  expect(transfer.status).toBe(201);
  return { api, customerId, transferId: transfer.body.id as string };
}

beforeAll(async () => {
  t = await startRamp();
  partners.push(await partnerWithTransfer(t.key), await partnerWithTransfer(await t.keyFor('Prepared Reads Other Ltd')));
});
afterAll(() => t.close());

const TRANSFER = 'query ($id: ID!) { transfer(id: $id) { id status amount } }';

describe('a prepared read runs its one compiled statement with each caller’s values and tenant', () => {
  it('REST: after one partner’s read, the other reads its own transfer and never the first one’s', async () => {
    const [a, b] = partners as [(typeof partners)[0], (typeof partners)[0]];
    const own = await a.api.get(`/v0/customers/${a.customerId}/onramp-transfer/${a.transferId}`);
    expect(own.status).toBe(200);
    expect(own.body.id).toBe(a.transferId);
    expect((await b.api.get(`/v0/customers/${a.customerId}/onramp-transfer/${a.transferId}`)).status).toBe(404);
    const theirs = await b.api.get(`/v0/customers/${b.customerId}/onramp-transfer/${b.transferId}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.id).toBe(b.transferId);
    // The values of the call, not of the first: another customer's transfer under this customer is unknown.
    expect((await b.api.get(`/v0/customers/${b.customerId}/onramp-transfer/${a.transferId}`)).status).toBe(404);
    expect((await b.api.get(`/v0/customers/${b.customerId}/offramp-transfer/${b.transferId}`)).status).toBe(404);
  });

  it('GraphQL transfer(id): the same selection answers each partner with its own transfer only', async () => {
    const [a, b] = partners as [(typeof partners)[0], (typeof partners)[0]];
    expect((await a.api.graphql(TRANSFER, { id: a.transferId })).body.data.transfer.status).toBe('PENDING');
    expect((await b.api.graphql(TRANSFER, { id: a.transferId })).body.data.transfer).toBeNull();
    expect((await b.api.graphql(TRANSFER, { id: b.transferId })).body.data.transfer.amount).toBeDefined();
    expect((await a.api.graphql(TRANSFER, { id: b.transferId })).body.data.transfer).toBeNull();
  });

  it('refuses a read that writes a value into its text, or leaves the tenant out', async () => {
    const [owner] = await t.sql<{ partner_id: string }>('select partner_id from customers where id = ?', [partners[0]!.customerId]);
    const scope: Scope = scopeFor(t.ramp.db.fork(), {
      partnerId: owner!.partner_id,
      environment: 'sandbox',
      apiKeyId: 'test',
      apiKeyPrefix: 'rk_sandbox_test0000',
    });
    const inlined = preparedRead((s, { id }: { id: string }) =>
      tenant(s, 'customers', 'c')
        .select('c.id')
        .where(sql<boolean>`c.id = ${sql.lit(id)}`),
    );
    await expect(inlined(scope, { id: partners[0]!.customerId }, undefined)).rejects.toThrow(/written into the statement text/);
    const dropped = preparedRead((s, _: { id: string }) => tenant(s, 'customers', 'c').select('c.id'));
    await expect(dropped(scope, { id: partners[0]!.customerId }, undefined)).rejects.toThrow(/id never reached the statement/);
    const read = preparedRead((s, { id }: { id: string }) => tenant(s, 'customers', 'c').select('c.id').where('c.id', '=', id));
    expect(await read(scope, { id: partners[0]!.customerId }, undefined)).toEqual([{ id: partners[0]!.customerId }]);
    expect(await read(scope, { id: partners[1]!.customerId }, undefined)).toEqual([]);
  });
});
