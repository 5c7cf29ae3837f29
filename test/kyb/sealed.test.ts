import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataKeys } from '../../src/modules/customers/data-keys.js';
import { loadConfig } from '../../src/config.js';
import { scopeTo } from '../../src/platform/security/tenant.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

const BASE = '/v1/partners/kyc/business';

/** A business with every KYB section, its values carrying this run's marker. */
async function business(marker: string) {
  const email = `kyb.${marker}@example.com`;
  const created = await api.post('/v0/customers', { email, type: 'corporate', company_name: `Corp ${marker}` });
  expect(created.status).toBe(201);
  const values = {
    companyName: `Falcon "${marker}" FZ-LLC`,
    registrationNumber: `DMCC-${marker}`,
    contact: `compliance.${marker}@example.com`,
    street: `Tower ${marker}, Cluster J`,
    town: `Jumeirah ${marker}`,
    firstName: `Layla${marker}`,
    lastName: `Haddad${marker}`,
  };
  const basic = await api.post(`${BASE}/basic-details`, {
    userEmail: email,
    companyName: values.companyName,
    registrationNumber: values.registrationNumber,
    country: 'ARE',
    incorporatedOn: '2019-06-30',
    type: 'limitedLiabilityCompany',
    email: values.contact,
  });
  expect(basic.status).toBe(201);
  const address = await api.post(`${BASE}/address`, {
    userEmail: email,
    street: values.street,
    streetEn: values.street,
    town: values.town,
    townEn: values.town,
    state: 'Dubai',
    country: 'United Arab Emirates',
  });
  expect(address.status).toBe(201);
  const director = await api.post(`${BASE}/legalRepresentation`, {
    userEmail: email,
    legalRepresentationType: 'director',
    firstName: values.firstName,
    lastName: values.lastName,
    dob: '1961-07-13',
    nationality: 'ARE',
    documentName: 'PASSPORT',
    documentNo: `N${marker.toUpperCase()}`,
    documentExpirationDate: '2031-05-01',
    issueCountry: 'ARE',
  });
  expect(director.status).toBe(201);
  return { customerId: created.body.customer_id as string, values, answer: director.body.data };
}

/** The KYB tables' rows of a customer as text: what a copy of the database holds. */
async function storedText(customerId: string): Promise<string> {
  const rows = await t.sql<{ text: string }>(
    `select row_to_json(p)::text as text from business_profiles p where customer_id = ?
     union all select row_to_json(r)::text from business_legal_representatives r where customer_id = ?`,
    [customerId, customerId],
  );
  return rows.map((r) => r.text).join('\n');
}

describe('a business profile at rest', () => {
  it("is sealed by the customer's data key: the rows hold no company name, number, contact, address or director name in clear, the API still answers them", async () => {
    const marker = randomBytes(4).toString('hex');
    const { customerId, values, answer } = await business(marker);
    const stored = await storedText(customerId);
    for (const value of Object.values(values)) {
      expect(stored).not.toContain(value);
      expect(stored).not.toContain(JSON.stringify(value).slice(1, -1));
    }
    const [profile] = await t.sql<{ company_name: string; email: string; street: string }>(
      'select company_name, email, street from business_profiles where customer_id = ?',
      [customerId],
    );
    expect(profile!.company_name).toMatch(/^v1:/);
    expect(profile!.email).toMatch(/^v1:/);
    expect(profile!.street).toMatch(/^v1:/);

    expect(answer.basicDetails).toMatchObject({ companyName: values.companyName, registrationNumber: values.registrationNumber, email: values.contact });
    expect(answer.address).toMatchObject({ street: values.street, town: values.town, state: 'Dubai' });
    expect(answer.legalRepresentatives[0]).toMatchObject({ firstName: values.firstName, lastName: values.lastName });
    const read = await api.graphql(
      `query ($id: ID!) { customer(id: $id) { ... on Customer { businessProfile { basicDetails { companyName registrationNumber } legalRepresentatives { firstName } } } } }`,
      { id: customerId },
    );
    expect(read.body.data.customer.businessProfile).toEqual({
      basicDetails: { companyName: values.companyName, registrationNumber: values.registrationNumber },
      legalRepresentatives: [{ firstName: values.firstName }],
    });
  });

  it('seals a profile stored in clear before, at the next job run', async () => {
    const marker = randomBytes(4).toString('hex');
    const { customerId, values } = await business(marker);
    await t.sql('update business_profiles set company_name = ?, street = ? where customer_id = ?', [values.companyName, values.street, customerId]);
    await t.sql('update business_legal_representatives set first_name = ? where customer_id = ?', [values.firstName, customerId]);
    expect(await storedText(customerId)).toContain(values.street);
    await t.ramp.jobs.runOnce();
    const stored = await storedText(customerId);
    for (const value of [values.companyName, values.street, values.firstName]) expect(stored).not.toContain(JSON.stringify(value).slice(1, -1));
  });

  it('after erasure the sealed values cannot be opened, whatever key the reader holds', async () => {
    const marker = randomBytes(4).toString('hex');
    const { customerId } = await business(marker);
    const [before] = await t.sql<{ street: string; partner_id: string }>('select street, partner_id from business_profiles where customer_id = ?', [
      customerId,
    ]);
    const dataKeys = createDataKeys({ current: loadConfig({ NODE_ENV: 'test' }).encryptionMasterKey });
    const em = scopeTo(t.ramp.db.fork(), { partnerId: before!.partner_id, environment: 'sandbox' });
    expect(await dataKeys.open(em, customerId, before!.street)).toContain(marker);

    expect((await api.post(`/v0/customers/${customerId}/redact`)).status).toBe(200);
    // A backup taken before erasure still holds `before.street`: with the data key gone nothing opens it.
    const later = scopeTo(t.ramp.db.fork(), { partnerId: before!.partner_id, environment: 'sandbox' });
    expect(await dataKeys.open(later, customerId, before!.street)).toBeNull();
    expect(await t.sql('select customer_id from customer_data_keys where customer_id = ?', [customerId])).toEqual([]);
  });
});
