import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxApplicant } from '../../src/modules/kyc-import/sandbox-provider.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { openedProfile } from '../support/data/sealed.js';

/** PUT /v0/customers/{id} with external_kyc_provider_data imports the provider's verification (docs/api/kyc.md "KYC by share token on update"). */

let t: TestRamp;
let api: ApiClient;
let n = 0;
/** A fresh applicant part for sandbox tokens, so tests do not share people. */
const applicant = () => `update-${++n}-${Date.now().toString(36)}`;
const applicantEmail = (who: string) => `${who}@sandbox-kyc.example.com`;
const TOKEN_POINTER = '/external_kyc_provider_data/provider_share_kyc_token';

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

async function individual(email: string, client: ApiClient = api): Promise<string> {
  const res = await client.post('/v0/customers', { email, type: 'individual', first_name: 'Typo', last_name: 'Name' });
  expect(res.status).toBe(201);
  return res.body.customer_id;
}
const withToken = (token: string, more: Record<string, unknown> = {}) => ({ external_kyc_provider_data: { provider_share_kyc_token: token }, ...more });
const eventsOf = async (id: string) => (await t.sql<{ type: string }>('select type from events where entity_id = ? order by cursor', [id])).map((e) => e.type);
const claimsOf = (id: string) => t.sql('select result from kyc_imports where customer_id = ?', [id]);
const statusOf = async (id: string) => (await api.get(`/v0/customers/${id}`)).body.kycs.status;

describe('PUT /v0/customers/{id} with a provider share token', () => {
  it("approves the customer from an approve_ token: the verified person's names, address and document, one customer.kycs.updated", async () => {
    const who = applicant();
    const id = await individual(applicantEmail(who));
    const res = await api.put(`/v0/customers/${id}`, withToken(`approve_${who}`));
    expect(res.status).toBe(200);
    const person = sandboxApplicant(who);
    expect(res.body).toMatchObject({
      customer_id: id,
      email: applicantEmail(who),
      first_name: person.firstName,
      last_name: person.lastName,
      address: person.address,
      kycs: { status: 'approved', sub_status: 'kyc_approved' },
    });
    expect(res.body.kycs.status_breakdown.every((r: any) => r.status === 'approved')).toBe(true);
    const [row] = await t.sql<{ profile: any }>('select profile from customers where id = ?', [id]);
    // Sealed at rest (decision 022); opened, it is the verified document.
    expect(row!.profile.identifying_information.id_document.number).toMatch(/^v1:/);
    expect((await openedProfile(t, id)).identifying_information.id_document).toEqual({
      number: person.idDocument.number,
      issuing_country: person.idDocument.issuingCountry,
    });
    // The token itself is not kept: only its hash, in the claim.
    expect(JSON.stringify(row!.profile)).not.toContain(`approve_${who}`);
    expect(await claimsOf(id)).toEqual([{ result: 'approved' }]);
    expect(await eventsOf(id)).toEqual(['customer.created', 'customer.kycs.updated']);
  });

  it('rejects the customer from a reject_ token, and leaves it in review from a review_ token', async () => {
    const rejected = applicant();
    const a = await individual(applicantEmail(rejected));
    expect((await api.put(`/v0/customers/${a}`, withToken(`reject_${rejected}`))).body.kycs).toMatchObject({ status: 'rejected', sub_status: 'kyc_rejected' });
    const reviewed = applicant();
    const b = await individual(applicantEmail(reviewed));
    expect((await api.put(`/v0/customers/${b}`, withToken(`review_${reviewed}`))).body.kycs).toMatchObject({
      status: 'in_review',
      sub_status: 'kyc_form_submitted',
    });
    // A rejected applicant resubmits with a new token: approved.
    expect((await api.put(`/v0/customers/${a}`, withToken(`approve_${rejected}`))).body.kycs.status).toBe('approved');
  });

  it("accepts an email set in the same request: the applicant is known by the customer's new email", async () => {
    const who = applicant();
    const id = await individual(`before-${who}@example.com`);
    const res = await api.put(`/v0/customers/${id}`, withToken(`approve_${who}`, { email: applicantEmail(who) }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: applicantEmail(who), kycs: { status: 'approved' } });
  });

  it("refuses another person's token with 400 kyc_applicant_mismatch naming the field, changing nothing and leaving the token unused", async () => {
    const who = applicant();
    const id = await individual(`someone-else-${who}@example.com`);
    const res = await api.put(`/v0/customers/${id}`, withToken(`approve_${who}`, { last_name: 'Changed' }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: TOKEN_POINTER, code: 'kyc_applicant_mismatch' })]);
    const stored = (await api.get(`/v0/customers/${id}`)).body;
    expect(stored).toMatchObject({ last_name: 'Name', kycs: { status: 'not_started' } });
    expect(await eventsOf(id)).toEqual(['customer.created']);
    // Unused: the applicant's own customer can still import it.
    const own = await individual(applicantEmail(who));
    expect((await api.put(`/v0/customers/${own}`, withToken(`approve_${who}`))).status).toBe(200);
  });

  it('refuses a reused token with 400 kyc_token_already_used naming the field, changing nothing', async () => {
    const who = applicant();
    const id = await individual(applicantEmail(who));
    expect((await api.put(`/v0/customers/${id}`, withToken(`review_${who}`))).status).toBe(200);
    const again = await api.put(
      `/v0/customers/${id}`,
      withToken(`review_${who}`, { address: { country: 'PT', city: 'Lisbon', street_line_1: 'Rua 1', postal_code: '1100-001' } }),
    );
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([expect.objectContaining({ pointer: TOKEN_POINTER, code: 'kyc_token_already_used' })]);
    expect((await api.get(`/v0/customers/${id}`)).body.address.country).not.toBe('PT');
    expect(await eventsOf(id)).toEqual(['customer.created', 'customer.kycs.updated']);
  });

  it('shares the single-use rule with /auth/importKYC, both ways', async () => {
    const imported = applicant();
    const id = await individual(applicantEmail(imported));
    expect((await api.post('/auth/importKYC', { providersharedtoken: `approve_${imported}` })).status).toBe(201);
    const put = await api.put(`/v0/customers/${id}`, withToken(`approve_${imported}`));
    expect(put.body.errors).toEqual([expect.objectContaining({ pointer: TOKEN_POINTER, code: 'kyc_token_already_used' })]);

    const updated = applicant();
    await api.put(`/v0/customers/${await individual(applicantEmail(updated))}`, withToken(`approve_${updated}`));
    const auth = await api.post('/auth/importKYC', { providersharedtoken: `approve_${updated}` });
    expect(auth.status).toBe(400);
    expect(auth.body.data.error).toBe('kyc_token_already_used');
  });

  it('uses a token exactly once when several updates send it at the same moment', async () => {
    const who = applicant();
    const id = await individual(applicantEmail(who));
    const results = await Promise.all(Array.from({ length: 4 }, () => api.put(`/v0/customers/${id}`, withToken(`approve_${who}`))));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
    for (const refused of results.filter((r) => r.status === 400)) expect(refused.body.errors[0].code).toBe('kyc_token_already_used');
    expect(await claimsOf(id)).toHaveLength(1);
    expect(await eventsOf(id)).toEqual(['customer.created', 'customer.kycs.updated']);
  });

  it('answers a malformed token with 400 malformed_token naming the field', async () => {
    const id = await individual(`${applicant()}@example.com`);
    const res = await api.put(`/v0/customers/${id}`, withToken('tok_123'));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: TOKEN_POINTER, code: 'malformed_token' })]);
    expect(await statusOf(id)).toBe('not_started');
  });

  it('refuses a corporate customer (a share token verifies a person): 400 kyc_import_customer_is_corporate', async () => {
    const who = applicant();
    const id = (await api.post('/v0/customers', { email: applicantEmail(who), type: 'corporate', company_name: 'Not A Person' })).body.customer_id;
    const res = await api.put(`/v0/customers/${id}`, withToken(`approve_${who}`));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: TOKEN_POINTER, code: 'kyc_import_customer_is_corporate' })]);
  });

  it('refuses a result the KYC table forbids with 409 kyc_transition_not_allowed, the token still unused', async () => {
    const who = applicant();
    const id = await individual(applicantEmail(who));
    await api.put(`/v0/customers/${id}`, withToken(`approve_${who}`));
    const res = await api.put(`/v0/customers/${id}`, withToken(`reject_${who}`));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('kyc_transition_not_allowed');
    expect(await statusOf(id)).toBe('approved');
    expect(await claimsOf(id)).toEqual([{ result: 'approved' }]);
  });

  it('answers 404 for an unknown customer without using the token', async () => {
    const who = applicant();
    const res = await api.put('/v0/customers/5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e', withToken(`approve_${who}`));
    expect(res.status).toBe(404);
    expect(await t.sql('select 1 from kyc_imports where customer_id is null')).toEqual([]);
    expect((await api.put(`/v0/customers/${await individual(applicantEmail(who))}`, withToken(`approve_${who}`))).status).toBe(200);
  });

  it('answers 403 kyc_provider_not_configured with a production key', async () => {
    const production = t.client(await t.keyFor('Token Production', 'production'));
    const who = applicant();
    const id = await individual(applicantEmail(who), production);
    const res = await production.put(`/v0/customers/${id}`, withToken(`approve_${who}`));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('kyc_provider_not_configured');
  });
});

describe('GraphQL updateCustomer(input: { providerShareKycToken })', () => {
  const UPDATE = `mutation($input: UpdateCustomerInput!) { updateCustomer(input: $input) {
    __typename
    ... on UpdateCustomerPayload { customer { firstName kycs { status subStatus } } }
    ... on Error { code }
    ... on ValidationError { fieldErrors { path code } } } }`;
  const update = (customerId: string, changes: Record<string, unknown>) => api.graphql(UPDATE, { input: { customerId, ...changes } });

  it('imports the verification, and names the field with the same codes', async () => {
    const who = applicant();
    const id = await individual(applicantEmail(who));
    const ok = await update(id, { providerShareKycToken: `approve_${who}` });
    expect(ok.body.data.updateCustomer).toEqual({
      __typename: 'UpdateCustomerPayload',
      customer: { firstName: sandboxApplicant(who).firstName, kycs: { status: 'APPROVED', subStatus: 'kyc_approved' } },
    });
    const reused = await update(id, { providerShareKycToken: `approve_${who}` });
    expect(reused.body.data.updateCustomer).toEqual({
      __typename: 'ValidationError',
      code: 'VALIDATION_FAILED',
      fieldErrors: [{ path: '/providerShareKycToken', code: 'kyc_token_already_used' }],
    });
  });

  it('reports a malformed token with the input’s other problems, at once', async () => {
    const id = await individual(`${applicant()}@example.com`);
    const res = await update(id, { providerShareKycToken: 'nope', taxNumber: '' });
    expect(res.body.data.updateCustomer.fieldErrors).toEqual(
      expect.arrayContaining([
        { path: '/providerShareKycToken', code: 'malformed_token' },
        { path: '/taxNumber', code: expect.any(String) },
      ]),
    );
    expect(res.body.data.updateCustomer.fieldErrors).toHaveLength(2);
  });
});
