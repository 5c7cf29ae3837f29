import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createDataKeys } from '../../src/modules/customers/data-keys.js';
import { masterKeyOf } from '../../src/platform/security/sealing.js';
import { scopeTo } from '../../src/platform/security/tenant.js';
import { scopeFor } from '../../src/platform/use-cases/scope.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { recordSqlStatements } from '../support/sql-statements.js';
import { idempotencyKey } from '../support/data/transfers.js';

/**
 * A customer's email, names, company name and address are sealed by its data key in the `customers` row; the email's
 * keyed digest (under the tenant's digest key) carries uniqueness and lookups. Checked on the raw rows, in PostgreSQL
 * or PGlite, as a reader of a backup would see them.
 */
const sql = recordSqlStatements();
let t: TestRamp;
let api: ApiClient;

beforeAll(async () => {
  t = await startRamp({ WEBHOOK_POLL_INTERVAL_MS: '60000', EVENTS_CATCHUP_INTERVAL_MS: '60000' });
  api = t.client(t.key);
});
afterAll(() => t.close());

/** A person no other row holds: every value carries this run's marker. */
function personOf(marker = randomBytes(4).toString('hex')) {
  return {
    email: `Ada.${marker}@Example.com`,
    type: 'individual',
    first_name: `Ada${marker}`,
    last_name: `Lovelace${marker}`,
    address: { country: 'GB', city: `London${marker}`, street_line_1: `12 St James Square ${marker}`, postal_code: 'SW1Y 4LE' },
  };
}

/** The customer's raw row, as text. */
async function rawRow(id: string): Promise<{ text: string; personal: string; email_digest: string | null; partner_id: string }> {
  const [row] = await t.sql<{ personal: string; email_digest: string | null; partner_id: string }>('select * from customers where id = ?', [id]);
  return { ...row!, text: JSON.stringify(row).toLowerCase() };
}

const valuesOf = (person: ReturnType<typeof personOf>) =>
  [person.email, person.first_name, person.last_name, person.address.street_line_1, person.address.city].map((v) => v.toLowerCase());

async function create(person: ReturnType<typeof personOf>): Promise<string> {
  const res = await api.post('/v0/customers', person, idempotencyKey());
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.customer_id;
}

describe("customers' personal data at rest", () => {
  it('stores no clear email, name or address in the row, and every face shows them opened', async () => {
    const person = personOf();
    const id = await create(person);
    const row = await rawRow(id);
    for (const value of valuesOf(person)) expect(row.text).not.toContain(value);
    expect(row.personal).toMatch(/^v1:/);
    expect(row.email_digest).toBeTruthy();

    const shown = { email: person.email.toLowerCase(), first_name: person.first_name, last_name: person.last_name, address: person.address };
    // Its event keeps the opened values (events are rewritten on erasure), never the sealed column or the digest.
    const [event] = await t.sql<{ payload: any; subject: any }>("select payload, subject from events where entity_id = ? and type = 'customer.created'", [id]);
    expect(event!.payload).toMatchObject(shown);
    expect(event!.subject).toMatchObject({ email: shown.email, firstName: person.first_name, address: person.address });
    expect(Object.keys(event!.subject)).not.toContain('personal');
    expect(Object.keys(event!.subject)).not.toContain('emailDigest');
    expect((await api.get(`/v0/customers/${id}`)).body).toMatchObject(shown);
    const gql = await api.graphql('query ($id: ID!) { customer(id: $id) { email firstName lastName address { streetLine1 } } }', { id });
    expect(gql.body.data.customer).toEqual({
      email: shown.email,
      firstName: person.first_name,
      lastName: person.last_name,
      address: { streetLine1: person.address.street_line_1 },
    });
  });

  it('keeps emails unique per partner case-insensitively, and finds a customer by email in either spelling, on both faces', async () => {
    const person = personOf();
    const id = await create(person);
    const again = await api.post('/v0/customers', { ...person, email: person.email.toUpperCase() }, idempotencyKey());
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('customer_email_taken');
    const viaGraphql = await api.graphql(
      'mutation ($input: CreateCustomerInput!) { createCustomer(input: $input) { __typename ... on ConflictError { code } } }',
      { input: { email: person.email.toLowerCase(), type: 'INDIVIDUAL', firstName: 'Other', lastName: 'Person' } },
    );
    expect(viaGraphql.body.data.createCustomer).toEqual({ __typename: 'ConflictError', code: 'CUSTOMER_EMAIL_TAKEN' });
    // Another partner may use the same email: the digest key is the tenant's.
    const other = t.client(await t.keyFor(`Other ${randomBytes(3).toString('hex')}`));
    expect((await other.post('/v0/customers', person, idempotencyKey())).status).toBe(201);

    const listed = await api.get(`/v0/customers?email=${encodeURIComponent(person.email.toUpperCase())}`);
    expect(listed.body.items.map((c: { customer_id: string }) => c.customer_id)).toEqual([id]);
    const page = await api.graphql('query ($email: String) { customers(first: 5, email: $email) { totalCount edges { node { databaseId email } } } }', {
      email: person.email,
    });
    expect(page.body.data.customers).toEqual({ totalCount: 1, edges: [{ node: { databaseId: id, email: person.email.toLowerCase() } }] });
  });

  it("opens a REST page's customers with one read of their data keys", async () => {
    await api.get('/v0/customers?limit=3'); // the API key is verified once, then kept
    // Customers no read has opened yet (a list serves the values it opened before from memory).
    for (let i = 0; i < 3; i++) await create(personOf());
    let items: { email: string }[] = [];
    const statements = await sql.during(async () => {
      items = (await api.get('/v0/customers?limit=3')).body.items;
    });
    expect(items).toHaveLength(3);
    for (const item of items) expect(item.email).toMatch(/@example\.com$/);
    expect(
      statements.filter((s) => s.includes('customer_data_keys')),
      statements.join('\n'),
    ).toHaveLength(1);
  });

  it('seals a row from before at the next job run, and finds it by email only by its digest', async () => {
    const person = personOf();
    const id = await create(person);
    // As the migration left a row from before: its values in clear in `personal`, no digest.
    const clear = JSON.stringify({
      email: person.email.toLowerCase(),
      firstName: person.first_name,
      lastName: person.last_name,
      companyName: null,
      address: person.address,
    });
    await t.sql('update customers set personal = ?, email_digest = null where id = ?', [clear, id]);
    expect((await api.get(`/v0/customers/${id}`)).body).toMatchObject({ first_name: person.first_name, address: person.address });
    expect((await api.get(`/v0/customers?email=${encodeURIComponent(person.email)}`)).body.items).toEqual([]);

    await t.ramp.jobs.runOnce();
    const row = await rawRow(id);
    for (const value of valuesOf(person)) expect(row.text).not.toContain(value);
    expect(row.personal).toMatch(/^v1:/);
    expect((await api.get(`/v0/customers?email=${encodeURIComponent(person.email)}`)).body.items.map((c: { customer_id: string }) => c.customer_id)).toEqual([
      id,
    ]);
    expect((await api.get(`/v0/customers/${id}`)).body).toMatchObject({ email: person.email.toLowerCase(), last_name: person.last_name });
  });

  it('keeps email digests through a master key rotation, which re-wraps the digest key', async () => {
    const person = personOf();
    const id = await create(person);
    const row = await rawRow(id);
    const em = scopeTo(t.ramp.db.fork(), { partnerId: row.partner_id, environment: 'sandbox' });
    const old = loadConfig({ NODE_ENV: 'test' }).encryptionMasterKey;
    const next = randomBytes(32);
    expect(await createDataKeys({ current: next, previous: old }).rewrap(em, 10_000)).toBeGreaterThan(0);
    expect(await t.sql('select partner_id from email_digest_keys where master_key_id <> ?', [masterKeyOf(next).id])).toEqual([]);
    expect(await createDataKeys({ current: next }).emailDigest(em, person.email)).toBe(row.email_digest);
    // Back to the key the running Ramp uses, so the other tests read on.
    expect(await createDataKeys({ current: old, previous: next }).rewrap(em, 10_000)).toBeGreaterThan(0);
  });

  it('leaves nothing readable in the row once the customer is erased', async () => {
    const person = personOf();
    const id = await create(person);
    expect((await api.post(`/v0/customers/${id}/redact`)).status).toBe(200);
    const row = await rawRow(id);
    for (const value of valuesOf(person)) expect(row.text).not.toContain(value);
    expect(row.email_digest).toBeNull();
    expect(JSON.parse(row.personal)).toEqual({ email: '[redacted]', firstName: '[redacted]', lastName: '[redacted]', companyName: null, address: null });
    expect(await t.sql('select customer_id from customer_data_keys where customer_id = ?', [id])).toEqual([]);
    // Its email is free again.
    expect((await api.post('/v0/customers', person, idempotencyKey())).status).toBe(201);
  });

  it('gives each read its own address: a use case that changes the address it read changes no other read of it', async () => {
    const person = personOf();
    const id = await create(person);
    const [owner] = await t.sql<{ partner_id: string }>('select partner_id from customers where id = ?', [id]);
    const actor = { partnerId: owner!.partner_id, environment: 'sandbox' as const, apiKeyId: 'test', apiKeyPrefix: 'rk_sandbox_test0000' };
    const read = () => t.ramp.services.customers.get(scopeFor(t.ramp.db.fork(), actor), id);
    // The second read opens the value the first one parsed (the kept parse), and must not share its objects.
    const first = await read();
    first.address!.city = 'Changed in memory';
    const second = await read();
    expect(second.address!.city).toBe(person.address.city);
    expect(second.address).not.toBe(first.address);
  });

  it('answers a list from the values it opened before, and shows the markers right after an erasure', async () => {
    const person = personOf();
    const id = await create(person);
    const listed = async () =>
      ((await api.get('/v0/customers?limit=100')).body.items as { customer_id: string; email: string }[]).find((c) => c.customer_id === id)!;
    expect((await listed()).email).toBe(person.email.toLowerCase());
    // The second page opens nothing and reads no data key: every value on it was opened by the first.
    let again: { email: string } | undefined;
    const statements = await sql.during(async () => {
      again = await listed();
    });
    expect(again!.email).toBe(person.email.toLowerCase());
    expect(statements.filter((s) => s.includes('customer_data_keys'))).toEqual([]);
    expect((await api.post(`/v0/customers/${id}/redact`)).status).toBe(200);
    expect((await listed()).email).toBe('[redacted]');
  });
});
