import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Customer } from '../../src/modules/customers/entities.js';
import { Quote, Transfer } from '../../src/modules/transfers/entities.js';
import { WebhookEndpoint } from '../../src/modules/webhooks/entities.js';
import { ACROSS_TENANTS, scopeTo } from '../../src/platform/security/tenant.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { createCustomer } from '../support/data/transfers.js';

/**
 * The tenant is MikroORM's `tenant` filter on every tenant-owned entity, not a
 * spread each query must remember. A query on an EntityManager with no tenant fails; one with a
 * tenant sees only that tenant's rows, in find, count, update and delete; a new row takes the
 * tenant of the EntityManager that creates it.
 */
let t: TestRamp;
let mine: ApiClient;
let theirs: ApiClient;
let myCustomer: string;
let theirCustomer: string;
let myPartner: string;
let theirPartner: string;
const partnerOf = async (customerId: string) =>
  (await t.sql<{ partner_id: string }>('select partner_id from customers where id = ?', [customerId]))[0]!.partner_id;

beforeAll(async () => {
  t = await startRamp();
  mine = t.client(t.key);
  theirs = t.client(await t.keyFor('Other Partner'));
  myCustomer = await createCustomer(mine);
  theirCustomer = await createCustomer(theirs);
  myPartner = await partnerOf(myCustomer);
  theirPartner = await partnerOf(theirCustomer);
});
afterAll(() => t.close());

describe('the tenant filter', () => {
  it('refuses a query on a tenant-owned entity from an EntityManager that has no tenant', async () => {
    for (const entity of [Customer, Transfer, Quote, WebhookEndpoint] as const) {
      await expect(t.ramp.db.fork().find(entity as typeof Customer, {})).rejects.toThrow("No arguments provided for filter 'tenant'");
    }
    await expect(t.ramp.db.fork().nativeUpdate(Customer, { id: myCustomer }, { updatedAt: new Date() })).rejects.toThrow(/filter 'tenant'/);
  });

  it('narrows find, count and update to the tenant the EntityManager is scoped to', async () => {
    const em = scopeTo(t.ramp.db.fork(), { partnerId: myPartner, environment: 'sandbox' });
    const ids = (await em.find(Customer, {})).map((c) => c.id);
    expect(ids).toContain(myCustomer);
    expect(ids).not.toContain(theirCustomer);
    expect(await em.count(Customer, { id: theirCustomer })).toBe(0);
    expect(await em.findOne(Customer, { id: theirCustomer })).toBeNull();
    expect(await em.nativeUpdate(Customer, { id: theirCustomer }, { updatedAt: new Date() })).toBe(0);
    // The production half of the same partner is another tenant.
    expect(await scopeTo(t.ramp.db.fork(), { partnerId: myPartner, environment: 'production' }).count(Customer, {})).toBe(0);
    // Work across tenants says so.
    expect(await t.ramp.db.fork().count(Customer, { id: { $in: [myCustomer, theirCustomer] } }, ACROSS_TENANTS)).toBe(2);
  });

  it('gives a row created through a scoped EntityManager that tenant, its id and its creation time, with nothing spread by hand', async () => {
    const em = scopeTo(t.ramp.db.fork(), { partnerId: theirPartner, environment: 'sandbox' });
    const now = new Date();
    const endpoint = em.create(WebhookEndpoint, {
      url: 'https://example.com/hooks',
      status: 'enabled',
      secretEncrypted: 'not-a-secret',
      startsAfterCursor: '0',
      updatedAt: now,
    });
    await em.flush();
    const rows = await t.sql<{ partner_id: string; environment: string; created_at: unknown }>(
      'select partner_id, environment, created_at from webhook_endpoints where id = ?',
      [endpoint.id],
    );
    expect(rows).toEqual([{ partner_id: theirPartner, environment: 'sandbox', created_at: expect.anything() }]);
    expect(endpoint.id).toMatch(/^[0-9a-f-]{36}$/);
    // Invisible to every other tenant.
    expect(await scopeTo(t.ramp.db.fork(), { partnerId: myPartner, environment: 'sandbox' }).findOne(WebhookEndpoint, { id: endpoint.id })).toBeNull();
  });
});
