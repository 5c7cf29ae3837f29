import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxApplicant } from '../../src/modules/kyc-import/sandbox-provider.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;
let n = 0;
/** A fresh applicant part for sandbox tokens, so tests do not share people. */
const applicant = () => `applicant-${++n}-${Date.now().toString(36)}`;
const importKyc = (token: unknown, client: ApiClient = api, headers?: Record<string, string>) =>
  client.post('/auth/importKYC', { providersharedtoken: token }, headers);

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

const eventsOf = async (id: string) => (await t.sql<{ type: string }>('select type from events where entity_id = ? order by cursor', [id])).map((e) => e.type);

describe('POST /auth/importKYC', () => {
  it('creates an approved individual customer from an approve_ token, 201 in the Encryptus envelope', async () => {
    const who = applicant();
    const res = await importKyc(`approve_${who}`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, status: 201, code: 'EN-SUCCESS-001', message: 'KYC imported' });
    const person = sandboxApplicant(who);
    const customer = res.body.data;
    expect(customer).toMatchObject({
      email: `${who}@sandbox-kyc.example.com`,
      type: 'individual',
      first_name: person.firstName,
      last_name: person.lastName,
      address: person.address,
      kycs: { sub_status: 'kyc_approved' },
    });
    expect(customer.kycs.status_breakdown.every((r: any) => r.status === 'approved')).toBe(true);
    const stored = await api.get(`/v0/customers/${customer.customer_id}`);
    expect(stored.body.kycs.status_breakdown[0].status).toBe('approved');
    expect(await eventsOf(customer.customer_id)).toEqual(['customer.created', 'customer.kycs.updated']);
  });

  it('turns the same applicant part into the same person every time', async () => {
    expect(sandboxApplicant('Same-Person-1')).toEqual(sandboxApplicant('same-person-1'));
    const who = applicant();
    const first = (await importKyc(`review_${who}`)).body.data;
    const second = (await importKyc(`approve_${who}`)).body.data;
    expect(second.customer_id).toBe(first.customer_id);
    expect(second).toMatchObject({ first_name: first.first_name, last_name: first.last_name, address: first.address });
  });

  it('rejects the applicant of a reject_ token', async () => {
    const res = await importKyc(`reject_${applicant()}`);
    expect(res.status).toBe(201);
    expect(res.body.data.kycs).toMatchObject({ sub_status: 'kyc_rejected' });
    expect(res.body.data.kycs.status_breakdown[0].status).toBe('rejected');
  });

  it('leaves the applicant of a review_ token in review', async () => {
    const res = await importKyc(`review_${applicant()}`);
    expect(res.body.data.kycs.status_breakdown[0].status).toBe('in_review');
  });

  it("updates the partner's existing customer with the applicant's email instead of creating one", async () => {
    const who = applicant();
    const created = await api.post('/v0/customers', { email: `${who}@sandbox-kyc.example.com`, type: 'individual', first_name: 'Typo', last_name: 'Name' });
    const res = await importKyc(`approve_${who}`);
    expect(res.status).toBe(201);
    expect(res.body.data.customer_id).toBe(created.body.customer_id);
    expect(res.body.data.first_name).toBe(sandboxApplicant(who).firstName);
    const [row] = await t.sql<{ profile: any }>('select profile from customers where id = ?', [created.body.customer_id]);
    // The verified document is kept, its number sealed at rest by the customer's data key.
    expect(row!.profile.identifying_information.id_document).toEqual({
      number: expect.stringMatching(/^v1:/),
      issuing_country: sandboxApplicant(who).idDocument.issuingCountry,
    });
    expect(JSON.stringify(row!.profile)).not.toContain(sandboxApplicant(who).idDocument.number);
    expect(await eventsOf(created.body.customer_id)).toEqual(['customer.created', 'customer.kycs.updated']);
  });

  it('approves a previously rejected applicant on a new approve_ token (a resubmission)', async () => {
    const who = applicant();
    const id = (await importKyc(`reject_${who}`)).body.data.customer_id;
    const res = await importKyc(`approve_${who}`);
    expect(res.body.data.customer_id).toBe(id);
    expect(res.body.data.kycs.status_breakdown[0].status).toBe('approved');
  });

  it('refuses a reject_ token for an approved customer: 400 EN-STATE-004 kyc_transition_not_allowed', async () => {
    const who = applicant();
    const id = (await importKyc(`approve_${who}`)).body.data.customer_id;
    const res = await importKyc(`reject_${who}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, status: 400, code: 'EN-STATE-004', data: { error: 'kyc_transition_not_allowed' } });
    expect((await api.get(`/v0/customers/${id}`)).body.kycs.status_breakdown[0].status).toBe('approved');
    // The refused import did not consume its token.
    expect(await t.sql('select 1 from kyc_imports where customer_id = ?', [id])).toHaveLength(1);
  });

  it('refuses an applicant whose email is a corporate customer of the partner', async () => {
    const who = applicant();
    await api.post('/v0/customers', { email: `${who}@sandbox-kyc.example.com`, type: 'corporate', company_name: 'Not A Person' });
    const res = await importKyc(`approve_${who}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'EN-STATE-004', data: { error: 'kyc_import_customer_is_corporate' } });
  });

  it('refuses a token used twice with 400 EN-STATE-004, changing nothing', async () => {
    const token = `approve_${applicant()}`;
    const first = await importKyc(token);
    const again = await importKyc(token);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, status: 400, code: 'EN-STATE-004', message: 'Bad Request', data: { error: 'kyc_token_already_used' } });
    expect(again.body.data.request_id).toBe(again.headers.get('x-request-id'));
    expect(await eventsOf(first.body.data.customer_id)).toEqual(['customer.created', 'customer.kycs.updated']);
  });

  it('accepts a token exactly once when it is sent several times at the same moment', async () => {
    const token = `approve_${applicant()}`;
    const results = await Promise.all(Array.from({ length: 5 }, () => importKyc(token)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400]);
    for (const refused of results.filter((r) => r.status === 400)) expect(refused.body.data.error).toBe('kyc_token_already_used');
    const id = results.find((r) => r.status === 201)!.body.data.customer_id;
    expect(await eventsOf(id)).toEqual(['customer.created', 'customer.kycs.updated']);
  });

  it('keeps only a hash of the token', async () => {
    const token = `approve_${applicant()}`;
    const id = (await importKyc(token)).body.data.customer_id;
    const rows = await t.sql<{ token_hash: string; provider: string; result: string }>(
      'select token_hash, provider, result from kyc_imports where customer_id = ?',
      [id],
    );
    expect(rows).toEqual([{ token_hash: expect.stringMatching(/^[0-9a-f]{64}$/), provider: 'sandbox', result: 'approved' }]);
    const dump = JSON.stringify(await t.sql('select * from kyc_imports')) + JSON.stringify(await t.sql('select * from customers'));
    expect(dump).not.toContain(token);
  });

  it('replays the first response for a repeated Idempotency-Key instead of refusing the token', async () => {
    const token = `approve_${applicant()}`;
    const first = await importKyc(token, api, { 'idempotency-key': `import-${token}` });
    const replay = await importKyc(token, api, { 'idempotency-key': `import-${token}` });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it.each([
    ['not a sandbox token', 'hello-world-token', '/providersharedtoken', 'malformed_token'],
    ['an unknown outcome', 'accept_abcdef', '/providersharedtoken', 'malformed_token'],
    ['a too short applicant part', 'approve_abc', '/providersharedtoken', 'malformed_token'],
    ['an empty token', '', '/providersharedtoken', 'too_small'],
    // The code of a wrong type comes from the shared zod mapping (domain/validation.ts); the field is what matters here.
    ['a number', 12345678, '/providersharedtoken', expect.any(String)],
  ])('answers 400 EN-DATA-009 to %s', async (_, token, pointer, code) => {
    const res = await importKyc(token);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toMatchObject({ success: false, status: 400, code: 'EN-DATA-009', message: 'Bad Request' });
    expect(res.body.data.errors).toContainEqual(expect.objectContaining({ pointer, code }));
  });

  it('answers 400 EN-DATA-009 to a missing or an extra field', async () => {
    const missing = await api.post('/auth/importKYC', {});
    expect(missing.body.data.errors).toContainEqual(expect.objectContaining({ pointer: '/providersharedtoken', code: 'required' }));
    const extra = await api.post('/auth/importKYC', { providersharedtoken: `approve_${applicant()}`, email: 'x@example.com' });
    expect(extra.body).toMatchObject({ code: 'EN-DATA-009', data: { errors: [expect.objectContaining({ code: 'unrecognized_keys' })] } });
  });

  it('answers 401 EN-AUTH-001 without a valid Authorization header', async () => {
    for (const client of [t.client(null as never), t.client('rk_sandbox_invalid')]) {
      const res = await importKyc(`approve_${applicant()}`, client);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, status: 401, code: 'EN-AUTH-001' });
    }
  });

  it('answers 415 EN-DATA-015 to a form-encoded body', async () => {
    const res = await api.request('POST', '/auth/importKYC', {
      raw: 'providersharedtoken=approve_abcdef',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ success: false, code: 'EN-DATA-015' });
  });

  it('answers 403 EN-AUTH-003 in production, where no KYC provider is configured', async () => {
    const prod = t.client(await t.keyFor('Demo Partner', 'production'));
    const res = await importKyc(`approve_${applicant()}`, prod);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 'EN-AUTH-003', data: { error: 'kyc_provider_not_configured' } });
  });

  it("keeps partners apart: the same token imports into each partner's own customer", async () => {
    const who = applicant();
    const otherKey = await t.keyFor('Import Other Partner');
    const other = t.client(otherKey);
    const mine = (await importKyc(`approve_${who}`)).body.data.customer_id;
    const res = await importKyc(`reject_${who}`, other);
    expect(res.status).toBe(201);
    expect(res.body.data.customer_id).not.toBe(mine);
    expect((await api.get(`/v0/customers/${mine}`)).body.kycs.status_breakdown[0].status).toBe('approved');
    expect((await other.get(`/v0/customers/${mine}`)).status).toBe(404);
  });
});

describe('importKyc over GraphQL', () => {
  const IMPORT = `mutation($input: ImportKycInput!) { importKyc(input: $input) {
    __typename
    ... on ImportKycPayload { customer { id databaseId email kycs { status subStatus } } }
    ... on Error { code }
    ... on ValidationError { fieldErrors { path code argumentPath } }
  } }`;
  const graphqlImport = (providerSharedToken: string, idempotencyKey?: string, client = api) =>
    client.graphql(IMPORT, { input: { providerSharedToken, idempotencyKey } });

  it('imports a token, then refuses it the second time with ConflictError', async () => {
    const who = applicant();
    const ok = await graphqlImport(`approve_${who}`);
    expect(ok.body.data.importKyc).toMatchObject({
      __typename: 'ImportKycPayload',
      customer: { email: `${who}@sandbox-kyc.example.com`, kycs: { status: 'APPROVED', subStatus: 'kyc_approved' } },
    });
    const rest = await api.get(`/v0/customers/${ok.body.data.importKyc.customer.databaseId}`);
    expect(rest.body.email).toBe(`${who}@sandbox-kyc.example.com`);
    const again = await graphqlImport(`approve_${who}`);
    expect(again.body.data.importKyc).toEqual({ __typename: 'ConflictError', code: 'KYC_TOKEN_ALREADY_USED' });
  });

  it('replays the first result for a repeated idempotencyKey instead of refusing the token', async () => {
    const token = `approve_${applicant()}`;
    const first = await graphqlImport(token, `import-gql-${token}`);
    const replay = await graphqlImport(token, `import-gql-${token}`);
    expect(first.body.data.importKyc.__typename).toBe('ImportKycPayload');
    expect(replay.body.data.importKyc).toEqual(first.body.data.importKyc);
    expect(await eventsOf(first.body.data.importKyc.customer.databaseId)).toEqual(['customer.created', 'customer.kycs.updated']);
  });

  it('returns a typed ValidationError naming the input field for a malformed token', async () => {
    const res = await graphqlImport('bogus');
    expect(res.body.data.importKyc).toMatchObject({
      __typename: 'ValidationError',
      fieldErrors: [{ path: '/providerSharedToken', code: 'malformed_token', argumentPath: ['input', 'providerSharedToken'] }],
    });
  });

  it('returns ForbiddenError kyc_provider_not_configured in production', async () => {
    const prod = t.client(await t.keyFor('Demo Partner', 'production'));
    const res = await graphqlImport(`approve_${applicant()}`, undefined, prod);
    expect(res.body.data.importKyc).toEqual({ __typename: 'ForbiddenError', code: 'KYC_PROVIDER_NOT_CONFIGURED' });
  });
});
