import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createDataKeys } from '../../src/modules/customers/data-keys.js';
import { masterKeyOf } from '../../src/platform/security/sealing.js';
import { scopeTo } from '../../src/platform/security/tenant.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { createCustomer, ibanAccount, idempotencyKey, ledgerSums, offrampQuoteBody, onrampQuoteBody, txHash, wallet } from '../support/data/transfers.js';
import { type Receiver, startReceiver, waitFor } from '../support/clients/webhook-receiver.js';

let t: TestRamp;
let api: ApiClient;
let receiver: Receiver;

beforeAll(async () => {
  t = await startRamp({ WEBHOOK_RETRY_TIME_SCALE: '0.001' });
  api = t.client(t.key);
  receiver = await startReceiver();
  expect((await api.post('/v0/webhooks', { url: receiver.url })).status).toBe(201);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

/** An IBAN no other row holds (the sandbox bank's own deposit account is the usual example one). */
const IBAN = 'DE30370400440532013771';

/** Personal data no other row of the database holds: each value carries this run's own marker. */
function personOf(marker: string) {
  return {
    email: `erin.${marker}@example.com`,
    firstName: `Erinyes${marker}`,
    lastName: `Quillfeather${marker}`,
    street: `7 Quillfeather Lane ${marker}`,
    documentNumber: `P${marker.toUpperCase()}`,
    taxNumber: `TAX-${marker}`,
  };
}

const REDACT = `mutation ($id: ID!) { redactCustomer(input: { customerId: $id }) {
  __typename ... on Error { code message } ... on RedactCustomerPayload { customer { databaseId email firstName lastName address { city } redactedAt } } } }`;

/** Every text, json and date column of every table of ours, searched for each value; returns where each was found. */
async function whereFound(values: readonly string[]): Promise<string[]> {
  const columns = await t.sql<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
     where table_schema = 'public' and data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'date', 'ARRAY')`,
  );
  const found: string[] = [];
  const patterns = values.map((value) => `%${value.toLowerCase()}%`);
  for (const { table_name: table, column_name: column } of columns) {
    // One statement per column: how many rows hold each value.
    const counts = values.map((_, i) => `count(*) filter (where lower("${column}"::text) like ?)::int as v${i}`).join(', ');
    const [row] = await t.sql<Record<string, number>>(`select ${counts} from "${table}"`, patterns);
    values.forEach((value, i) => {
      if (row![`v${i}`]! > 0) found.push(`${value} in ${table}.${column}`);
    });
  }
  return found;
}

describe('POST /v0/customers/{customer_id}/redact', () => {
  it('refuses with 409 customer_has_transfers_in_flight while a transfer is pending, in both faces, changing nothing', async () => {
    const customerId = await createCustomer(api);
    const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    const transfer = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
    expect(transfer.body.status).toBe('pending');

    const rest = await api.post(`/v0/customers/${customerId}/redact`);
    expect(rest.status).toBe(409);
    expect(rest.body.code).toBe('customer_has_transfers_in_flight');
    const gql = await api.graphql(REDACT, { id: customerId });
    expect(gql.body.data.redactCustomer).toMatchObject({ __typename: 'ConflictError', code: 'CUSTOMER_HAS_TRANSFERS_IN_FLIGHT' });

    const customer = await api.get(`/v0/customers/${customerId}`);
    expect(customer.body.first_name).toBe('Ada');
    expect(customer.body).not.toHaveProperty('redacted_at');
  });

  it('answers 404 for an unknown customer', async () => {
    const res = await api.post(`/v0/customers/${randomUUID()}/redact`);
    expect(res.status).toBe(404);
  });

  it('erases the personal data from every table while transfers, amounts and the ledger stay, and announces customer.redacted', async () => {
    const marker = randomBytes(5).toString('hex');
    const person = personOf(marker);
    const created = await api.post(
      '/v0/customers',
      { email: person.email, type: 'individual', first_name: person.firstName, last_name: person.lastName },
      idempotencyKey(),
    );
    expect(created.status).toBe(201);
    const customerId = created.body.customer_id as string;
    const updated = await api.put(`/v0/customers/${customerId}`, {
      address: { country: 'DE', city: 'Berlin', street_line_1: person.street, postal_code: '10117' },
      identifying_information: { id_document: { number: person.documentNumber, issuing_country: 'DE' }, tax_number: person.taxNumber },
    });
    expect(updated.status).toBe(200);
    await api.post(`/v0/customers/${customerId}/kycs/simulate`, { action: 'approve_kyc' });

    // At rest the document and tax numbers are sealed by the customer's data key, never in clear.
    const [stored] = await t.sql<{ profile: any }>('select profile from customers where id = ?', [customerId]);
    const identity = stored!.profile.identifying_information;
    expect(identity.id_document.number).toMatch(/^v1:[0-9a-f-]{36}:[^:]+:[^:]+:[^:]+$/);
    expect(identity.tax_number).toMatch(/^v1:/);
    expect(JSON.stringify(stored!.profile)).not.toContain(person.documentNumber);
    expect(await t.sql('select customer_id from customer_data_keys where customer_id = ?', [customerId])).toHaveLength(1);

    // A saved bank account, and an off-ramp to an inline one, taken to completed: both carry the holder and the IBAN.
    const holder = {
      account_holder_first_name: person.firstName,
      account_holder_last_name: person.lastName,
      iban: { bic: 'DEUTDEFFXXX', iban_number: IBAN },
    };
    const address = { country: 'DE', city: 'Berlin', street_line_1: person.street, postal_code: '10117' };
    const account = await api.post(
      `/v0/customers/${customerId}/external-accounts`,
      ibanAccount({ ...holder, account_holder_address: address }),
      idempotencyKey(),
    );
    expect(account.status).toBe(201);
    const quote = await api.post(
      `/v0/customers/${customerId}/offramp-transfer/quote`,
      offrampQuoteBody({ destination_bank_account: ibanAccount({ ...holder, account_holder_address: address }), transfer_purpose: 'travel' }),
      idempotencyKey(),
    );
    expect(quote.status).toBe(201);
    const transferId = quote.body.transfer_id as string;
    const completed = await api.post(
      `/v0/customers/${customerId}/offramp-transfer/${transferId}/complete`,
      { deposit_transaction_hash: txHash() },
      idempotencyKey(),
    );
    expect(completed.status).toBe(200);
    const settled = await api.post(`/v0/customers/${customerId}/offramp-transfer/simulate`, { action: 'complete_transfer', transfer_id: transferId });
    expect(settled.body.status).toBe('completed');
    const before = (await api.get(`/v0/customers/${customerId}/offramp-transfer/${transferId}`)).body;
    const entriesBefore = await t.sql('select account, currency, amount::text as amount from ledger_entries where transfer_id = ? order by id', [transferId]);
    await waitFor(() => receiver.received.some((r) => r.json?.entity_id === transferId), 10_000, 'the off-ramp webhooks');

    const erased = [person.email, person.firstName, person.lastName, person.street, person.documentNumber, person.taxNumber, IBAN];
    expect(await whereFound(erased)).not.toEqual([]);

    const res = await api.post(`/v0/customers/${customerId}/redact`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      customer_id: customerId,
      email: '[redacted]',
      first_name: '[redacted]',
      last_name: '[redacted]',
      address: null,
      redacted_at: expect.any(String),
    });

    expect(await whereFound(erased)).toEqual([]);
    expect(await t.sql('select customer_id from customer_data_keys where customer_id = ?', [customerId])).toEqual([]);

    // The books: the transfer reads with its amounts and status, the ledger entries are the same and still sum to zero.
    const after = (await api.get(`/v0/customers/${customerId}/offramp-transfer/${transferId}`)).body;
    expect(after).toMatchObject({ id: transferId, status: 'completed', quote: before.quote });
    expect(after.destination_bank_account.iban.iban_number).not.toContain('3771');
    expect(await t.sql('select account, currency, amount::text as amount from ledger_entries where transfer_id = ? order by id', [transferId])).toEqual(
      entriesBefore,
    );
    expect(Object.values(await ledgerSums(t)).every((sum) => Number(sum) === 0)).toBe(true);

    // One customer.redacted event, delivered to the webhook, carrying no personal data.
    const delivered = await waitFor(() => receiver.received.find((r) => r.json?.event_type === 'customer.redacted' && r.json.entity_id === customerId));
    expect(delivered.json.event_payload).toMatchObject({ customer_id: customerId, email: '[redacted]', redacted_at: res.body.redacted_at });
    expect(await t.sql(`select id from events where type = 'customer.redacted' and entity_id = ?`, [customerId])).toHaveLength(1);

    // GraphQL reads it as redacted too; a second redaction answers it as it is, with no second event.
    const again = await api.graphql(REDACT, { id: customerId });
    expect(again.body.data.redactCustomer.customer).toEqual({
      databaseId: customerId,
      email: '[redacted]',
      firstName: '[redacted]',
      lastName: '[redacted]',
      address: null,
      redactedAt: res.body.redacted_at,
    });
    expect(await t.sql(`select id from events where type = 'customer.redacted' and entity_id = ?`, [customerId])).toHaveLength(1);
  });

  it("erases a business's KYB profile and its directors' names, birth dates and documents", async () => {
    const marker = randomBytes(5).toString('hex');
    const email = `kyb.${marker}@example.com`;
    const company = `Falcon ${marker} FZ-LLC`;
    const created = await api.post('/v0/customers', { email, type: 'corporate', company_name: company });
    const customerId = created.body.customer_id as string;
    const director = { firstName: `Layla${marker}`, lastName: `Haddad${marker}`, documentNo: `N${marker.toUpperCase()}`, dob: '1961-07-13' };
    const base = '/v1/partners/kyc/business';
    const basic = await api.post(`${base}/basic-details`, {
      userEmail: email,
      companyName: company,
      registrationNumber: `DMCC-${marker}`,
      country: 'ARE',
      incorporatedOn: '2019-06-30',
      type: 'limitedLiabilityCompany',
      email: `compliance.${marker}@example.com`,
    });
    expect(basic.status).toBe(201);
    const rep = await api.post(`${base}/legalRepresentation`, {
      userEmail: email,
      legalRepresentationType: 'director',
      nationality: 'ARE',
      documentExpirationDate: '2031-05-01',
      issueCountry: 'ARE',
      documentName: 'PASSPORT',
      ...director,
    });
    expect(rep.status).toBe(201);
    // At rest the birth date and document number are sealed; the API still shows the date and the masked number.
    const [stored] = await t.sql<{ dob: string; document_no: string }>('select dob, document_no from business_legal_representatives where customer_id = ?', [
      customerId,
    ]);
    expect(stored!.dob).toMatch(/^v1:/);
    expect(stored!.document_no).toMatch(/^v1:/);
    expect(rep.body.data.legalRepresentatives[0]).toMatchObject({ dob: director.dob, documentNo: `…${director.documentNo.slice(-4)}` });
    const again = await api.post(`${base}/legalRepresentation`, {
      userEmail: email,
      legalRepresentationType: 'director',
      nationality: 'ARE',
      documentExpirationDate: '2032-05-01',
      issueCountry: 'ARE',
      documentName: 'PASSPORT',
      ...director,
    });
    // The same document updates its director (the digest finds it), never adds a second one.
    expect(again.body.data.legalRepresentatives).toHaveLength(1);
    expect(again.body.data.legalRepresentatives[0].documentExpirationDate).toBe('2032-05-01');
    const erased = [email, company, director.firstName, director.lastName, director.documentNo, `DMCC-${marker}`, `compliance.${marker}@example.com`];
    expect(await whereFound([...erased, director.dob])).not.toEqual([]);

    const res = await api.post(`/v0/customers/${customerId}/redact`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ company_name: '[redacted]', email: '[redacted]' });
    expect(await whereFound([...erased, director.dob])).toEqual([]);
  });
});

describe('document and tax numbers at rest', () => {
  it('seals numbers stored in clear before encryption at the next job run, and the master key rotates by re-wrapping data keys', async () => {
    const customerId = await createCustomer(api, { approved: false });
    const clear = { identifying_information: { id_document: { number: 'OLDDOC4242', issuing_country: 'DE' }, tax_number: 'OLDTAX4242' } };
    await t.sql('update customers set profile = ?::jsonb where id = ?', [JSON.stringify(clear), customerId]);
    await t.ramp.jobs.runOnce();
    const [row] = await t.sql<{ profile: any; partner_id: string; environment: 'sandbox' }>(
      'select profile, partner_id, environment from customers where id = ?',
      [customerId],
    );
    const sealed = row!.profile.identifying_information;
    expect(sealed.id_document).toMatchObject({ number: expect.stringMatching(/^v1:/), issuing_country: 'DE' });
    expect(sealed.tax_number).toMatch(/^v1:/);

    // Rotation: the data keys the old master key wrapped are re-wrapped by the new one, and still open the numbers.
    const old = loadConfig({ NODE_ENV: 'test' }).encryptionMasterKey;
    const next = randomBytes(32);
    const rotated = createDataKeys({ current: next, previous: old });
    const em = scopeTo(t.ramp.db.fork(), { partnerId: row!.partner_id, environment: row!.environment });
    expect(await rotated.rewrap(em, 10_000)).toBeGreaterThan(0);
    expect(await t.sql('select customer_id from customer_data_keys where master_key_id <> ?', [masterKeyOf(next).id])).toEqual([]);
    expect(await createDataKeys({ current: next }).open(em, customerId, sealed.tax_number)).toBe('OLDTAX4242');
    await expect(createDataKeys({ current: old }).open(em, customerId, sealed.tax_number)).rejects.toThrow(/not configured/);
    // Back to the key the running Ramp uses, so the other tests read on.
    expect(await createDataKeys({ current: old, previous: next }).rewrap(em, 10_000)).toBeGreaterThan(0);
  });
});

describe('ENCRYPTION_MASTER_KEY', () => {
  const webhookKey = Buffer.alloc(32, 1).toString('base64');

  it('is required in production, with one clear sentence', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: webhookKey })).toThrow(/ENCRYPTION_MASTER_KEY is required when NODE_ENV=production/);
    expect(() => loadConfig({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: webhookKey, ENCRYPTION_MASTER_KEY: 'c2hvcnQ=' })).toThrow(/32 bytes/);
    const key = randomBytes(32);
    expect(
      loadConfig({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: webhookKey, ENCRYPTION_MASTER_KEY: key.toString('base64') }).encryptionMasterKey.equals(key),
    ).toBe(true);
  });

  it('needs no configuration outside production', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).encryptionMasterKey).toHaveLength(32);
  });
});
