import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;
let n = 0;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

const BASE = '/v1/partners/kyc/business';
const corporate = async (client: ApiClient = api) => {
  const email = `kyb${++n}@example.com`;
  const id = (await client.post('/v0/customers', { email, type: 'corporate', company_name: `Company ${n}` })).body.customer_id as string;
  return { id, email };
};

const basicDetails = (userEmail: string) => ({
  userEmail,
  companyName: 'Falcon Trading FZ-LLC',
  registrationNumber: 'DMCC-123456',
  country: 'ARE',
  incorporatedOn: '2019-06-30',
  type: 'limitedLiabilityCompany',
  email: 'compliance@falcon.example',
});
const address = (userEmail: string) => ({
  userEmail,
  street: 'برج الماس، أبراج بحيرات جميرا',
  streetEn: 'Almas Tower, Jumeirah Lakes Towers',
  town: 'دبي',
  townEn: 'Dubai',
  state: 'Dubai',
  country: 'United Arab Emirates',
});
const director = (userEmail: string, documentNo = 'N1234567') => ({
  userEmail,
  legalRepresentationType: 'director',
  firstName: 'Layla',
  lastName: 'Haddad',
  dob: '1984-02-29',
  nationality: 'ARE',
  documentNo,
  documentExpirationDate: '2031-05-01',
  issueCountry: 'ARE',
  documentName: 'PASSPORT',
});

/** The same sections as GraphQL spells their enums (SCREAMING_SNAKE). */
const gqlBasicDetails = (userEmail: string) => ({ ...basicDetails(userEmail), type: 'LIMITED_LIABILITY_COMPANY' });
const gqlDirector = (userEmail: string, documentNo?: string) => ({ ...director(userEmail, documentNo), legalRepresentationType: 'DIRECTOR' });

const PROFILE = `query($id: ID!) { customer(id: $id) { kycs { status } businessProfile {
  complete missingSections
  basicDetails { companyName registrationNumber country incorporatedOn type email }
  address { street streetEn town townEn state country countryCode }
  legalRepresentatives { databaseId legalRepresentationType firstName lastName dob nationality documentName documentNo documentExpirationDate issueCountry }
} } }`;

describe('business KYB import', () => {
  it('saves the three sections, each answered 201 in the Encryptus envelope, until the profile is complete', async () => {
    const { id, email } = await corporate();

    const basic = await api.post(`${BASE}/basic-details`, basicDetails(email));
    expect(basic.status).toBe(201);
    expect(basic.body).toMatchObject({ success: true, status: 201, code: 'EN-SUCCESS-001', message: 'Business basic details saved' });
    expect(basic.body.data).toMatchObject({
      customerId: id,
      userEmail: email,
      basicDetails: { companyName: 'Falcon Trading FZ-LLC', country: 'ARE', incorporatedOn: '2019-06-30', type: 'limitedLiabilityCompany' },
      address: null,
      legalRepresentatives: [],
      complete: false,
      missingSections: ['address', 'legalRepresentation'],
    });

    const addr = await api.post(`${BASE}/address`, address(email));
    expect(addr.status).toBe(201);
    expect(addr.body.data.address).toEqual({ ...address(email), userEmail: undefined, countryCode: 'ARE' });
    expect(addr.body.data.missingSections).toEqual(['legalRepresentation']);

    const rep = await api.post(`${BASE}/legalRepresentation`, director(email));
    expect(rep.status).toBe(201);
    expect(rep.body.data).toMatchObject({ complete: true, missingSections: [] });
    expect(rep.body.data.legalRepresentatives).toEqual([{ ...director(email), userEmail: undefined, documentNo: '…4567', id: expect.any(String) }]);
  });

  it('reads the profile in GraphQL with its completeness, document numbers masked', async () => {
    const { id, email } = await corporate();
    await api.post(`${BASE}/basic-details`, basicDetails(email));
    let profile = (await api.graphql(PROFILE, { id })).body.data.customer.businessProfile;
    expect(profile).toMatchObject({ complete: false, missingSections: ['ADDRESS', 'LEGAL_REPRESENTATION'], address: null, legalRepresentatives: [] });
    expect(profile.basicDetails).toEqual({ ...gqlBasicDetails(email), userEmail: undefined });

    await api.post(`${BASE}/address`, address(email));
    const rest = (await api.post(`${BASE}/legalRepresentation`, director(email, 'ZX998877'))).body.data;
    profile = (await api.graphql(PROFILE, { id })).body.data.customer.businessProfile;
    expect(profile).toMatchObject({ complete: true, missingSections: [] });
    expect(profile.address.countryCode).toBe('ARE');
    expect(profile.legalRepresentatives).toEqual([{ ...gqlDirector(email, '…8877'), userEmail: undefined, databaseId: rest.legalRepresentatives[0].id }]);
    const [stored] = await t.sql<{ document_no: string; dob: unknown }>(
      'select document_no, dob::text as dob from business_legal_representatives where customer_id = ?',
      [id],
    );
    // Kept whole but sealed at rest by the customer's data key (docs/engineering/decisions/security/022-erasure-and-encryption-at-rest.md).
    expect(stored!.document_no).toMatch(/^v1:/);
    expect(stored!.dob).toMatch(/^v1:/);
    expect(JSON.stringify(stored)).not.toMatch(/ZX998877|1984-02-29/);
  });

  it('shows an empty profile for a corporate customer without KYB, and none for an individual', async () => {
    const { id } = await corporate();
    expect((await api.graphql(PROFILE, { id })).body.data.customer.businessProfile).toEqual({
      complete: false,
      missingSections: ['BASIC_DETAILS', 'ADDRESS', 'LEGAL_REPRESENTATION'],
      basicDetails: null,
      address: null,
      legalRepresentatives: [],
    });
    const person = (await api.post('/v0/customers', { email: `person${++n}@example.com`, type: 'individual', first_name: 'I', last_name: 'P' })).body
      .customer_id;
    expect((await api.graphql(PROFILE, { id: person })).body.data.customer.businessProfile).toBeNull();
  });

  it("sends the customer's KYC to review when the profile becomes complete, recording customer.kycs.updated once", async () => {
    const { id, email } = await corporate();
    await api.post(`${BASE}/basic-details`, basicDetails(email));
    await api.post(`${BASE}/address`, address(email));
    expect((await api.get(`/v0/customers/${id}`)).body.kycs.status_breakdown[0].status).toBe('not_started');
    await api.post(`${BASE}/legalRepresentation`, director(email));
    await api.post(`${BASE}/address`, address(email)); // a later correction does not restart the review
    const kycs = (await api.get(`/v0/customers/${id}`)).body.kycs;
    expect(kycs.status_breakdown[0].status).toBe('in_review');
    const events = await t.sql<{ type: string }>(`select type from events where entity_id = ? and type = 'customer.kycs.updated'`, [id]);
    expect(events).toHaveLength(1);
  });

  it('replaces a section sent again, and keeps one representative per identity document', async () => {
    const { id, email } = await corporate();
    await api.post(`${BASE}/basic-details`, basicDetails(email));
    const again = await api.post(`${BASE}/basic-details`, { ...basicDetails(email), companyName: 'Falcon Trading DMCC' });
    expect(again.body.data.basicDetails.companyName).toBe('Falcon Trading DMCC');
    await api.post(`${BASE}/legalRepresentation`, director(email, 'A1111111'));
    await api.post(`${BASE}/legalRepresentation`, { ...director(email, 'A1111111'), lastName: 'Haddad-Nasser' });
    const second = await api.post(`${BASE}/legalRepresentation`, { ...director(email, 'B2222222'), firstName: 'Omar' });
    expect(second.body.data.legalRepresentatives.map((r: any) => [r.firstName, r.lastName, r.documentNo])).toEqual([
      ['Layla', 'Haddad-Nasser', '…1111'],
      ['Omar', 'Haddad', '…2222'],
    ]);
    expect(await t.sql('select 1 from business_profiles where customer_id = ?', [id])).toHaveLength(1);
  });

  it("fills the customer's address from the business address when it has none, in English and without a postal code", async () => {
    const { id, email } = await corporate();
    await api.post(`${BASE}/address`, address(email));
    const expected = { country: 'AE', city: 'Dubai', street_line_1: 'Almas Tower, Jumeirah Lakes Towers', state: 'Dubai' };
    expect((await api.get(`/v0/customers/${id}`)).body.address).toEqual(expected);
    const gql = await api.graphql('query($id: ID!) { customer(id: $id) { address { country city streetLine1 postalCode state } } }', { id });
    expect(gql.body.data.customer.address).toEqual({
      country: 'AE',
      city: 'Dubai',
      streetLine1: 'Almas Tower, Jumeirah Lakes Towers',
      postalCode: null,
      state: 'Dubai',
    });

    // A later business address does not replace it: the customer has one now.
    await api.post(`${BASE}/address`, { ...address(email), townEn: 'Abu Dhabi', state: 'Abu Dhabi' });
    expect((await api.get(`/v0/customers/${id}`)).body.address).toEqual(expected);
  });

  it('keeps an address the partner gave the customer', async () => {
    const given = { country: 'AE', city: 'Abu Dhabi', street_line_1: 'Al Maryah Island 1', postal_code: '00000' };
    const email = `kyb${++n}@example.com`;
    const id = (await api.post('/v0/customers', { email, type: 'corporate', company_name: 'Given Address', address: given })).body.customer_id;
    expect((await api.post(`${BASE}/address`, address(email))).status).toBe(201);
    expect((await api.get(`/v0/customers/${id}`)).body.address).toEqual(given);
  });

  it('accepts 2099-01-01 as the expiry of a document that never expires, and the other document types', async () => {
    const { email } = await corporate();
    for (const [documentName, documentNo] of [
      ['ID_CARD', 'ID-784-1984'],
      ['DRIVERS', 'D1234'],
      ['RESIDENCE', 'R 55 66'],
    ] as const) {
      const res = await api.post(`${BASE}/legalRepresentation`, { ...director(email, documentNo), documentName, documentExpirationDate: '2099-01-01' });
      expect(res.status).toBe(201);
    }
  });

  it('accepts every business type of the spec', async () => {
    const { email } = await corporate();
    for (const type of ['limitedLiabilityCompany', 'soleProprietor', 'corporation', 'partnership', 'publiclyListedCompany', 'trust']) {
      expect((await api.post(`${BASE}/basic-details`, { ...basicDetails(email), type })).status).toBe(201);
    }
  });

  it('answers at the double-slash spelling of the path too', async () => {
    const { email } = await corporate();
    expect((await api.post(`/v1//partners/kyc/business/address`, address(email))).status).toBe(201);
  });
});

describe('KYB validation: 400 EN-DATA-009 naming the failing field', () => {
  let email: string;
  beforeAll(async () => {
    email = (await corporate()).email;
  });

  const cases: Array<[string, string, (e: string) => Record<string, unknown>, string, string]> = [
    ['basic-details', 'missing companyName', (e) => ({ ...basicDetails(e), companyName: undefined }), '/companyName', 'required'],
    ['basic-details', 'empty registrationNumber', (e) => ({ ...basicDetails(e), registrationNumber: '  ' }), '/registrationNumber', 'too_small'],
    ['basic-details', 'registrationNumber with #', (e) => ({ ...basicDetails(e), registrationNumber: 'ABC#1' }), '/registrationNumber', 'invalid_regex'],
    ['basic-details', 'a 2-letter country', (e) => ({ ...basicDetails(e), country: 'AE' }), '/country', 'invalid_country'],
    ['basic-details', 'an unassigned country code', (e) => ({ ...basicDetails(e), country: 'XXX' }), '/country', 'invalid_country'],
    ['basic-details', 'a lower-case country code', (e) => ({ ...basicDetails(e), country: 'are' }), '/country', 'invalid_country'],
    ['basic-details', 'February 30th', (e) => ({ ...basicDetails(e), incorporatedOn: '2023-02-30' }), '/incorporatedOn', 'invalid_date'],
    ['basic-details', 'a date written DD/MM/YYYY', (e) => ({ ...basicDetails(e), incorporatedOn: '30/06/2019' }), '/incorporatedOn', 'invalid_date'],
    ['basic-details', 'an incorporation in the future', (e) => ({ ...basicDetails(e), incorporatedOn: '2999-01-01' }), '/incorporatedOn', 'date_in_future'],
    ['basic-details', 'an unknown type', (e) => ({ ...basicDetails(e), type: 'llc' }), '/type', 'invalid_enum_value'],
    ['basic-details', 'a missing type', (e) => ({ ...basicDetails(e), type: undefined }), '/type', 'required'],
    ['basic-details', 'a bad contact email', (e) => ({ ...basicDetails(e), email: 'compliance' }), '/email', 'invalid_email'],
    ['basic-details', 'a bad userEmail', (e) => ({ ...basicDetails(e), userEmail: 'nope' }), '/userEmail', 'invalid_email'],
    ['basic-details', 'an unknown field', (e) => ({ ...basicDetails(e), website: 'x' }), '/website', 'unrecognized_keys'],
    ['address', 'missing street', (e) => ({ ...address(e), street: undefined }), '/street', 'required'],
    ['address', 'a non-Latin streetEn', (e) => ({ ...address(e), streetEn: 'برج الماس' }), '/streetEn', 'not_latin'],
    ['address', 'missing town', (e) => ({ ...address(e), town: undefined }), '/town', 'required'],
    ['address', 'a non-Latin townEn', (e) => ({ ...address(e), townEn: 'Дубай' }), '/townEn', 'not_latin'],
    ['address', 'a non-Latin state', (e) => ({ ...address(e), state: '迪拜' }), '/state', 'not_latin'],
    ['address', 'an unknown country name', (e) => ({ ...address(e), country: 'Narnia' }), '/country', 'unknown_country'],
    ['address', 'a country code instead of a name', (e) => ({ ...address(e), country: 'ARE' }), '/country', 'unknown_country'],
    [
      'legalRepresentation',
      'another representation type',
      (e) => ({ ...director(e), legalRepresentationType: 'shareholder' }),
      '/legalRepresentationType',
      'invalid_enum_value',
    ],
    ['legalRepresentation', 'missing firstName', (e) => ({ ...director(e), firstName: undefined }), '/firstName', 'required'],
    ['legalRepresentation', 'missing lastName', (e) => ({ ...director(e), lastName: undefined }), '/lastName', 'required'],
    ['legalRepresentation', 'a dob in the future', (e) => ({ ...director(e), dob: '2999-01-01' }), '/dob', 'date_not_in_past'],
    ['legalRepresentation', 'a dob in month 13', (e) => ({ ...director(e), dob: '1985-13-01' }), '/dob', 'invalid_date'],
    ['legalRepresentation', 'a dob before 1900', (e) => ({ ...director(e), dob: '1899-12-31' }), '/dob', 'date_out_of_range'],
    ['legalRepresentation', 'a 29 February of a common year', (e) => ({ ...director(e), dob: '1985-02-29' }), '/dob', 'invalid_date'],
    ['legalRepresentation', 'an unknown nationality', (e) => ({ ...director(e), nationality: 'UAE' }), '/nationality', 'invalid_country'],
    ['legalRepresentation', 'a documentNo with symbols', (e) => ({ ...director(e), documentNo: 'N12/34*' }), '/documentNo', 'invalid_regex'],
    [
      'legalRepresentation',
      'an expired document',
      (e) => ({ ...director(e), documentExpirationDate: '2020-01-01' }),
      '/documentExpirationDate',
      'document_expired',
    ],
    [
      'legalRepresentation',
      'an impossible expiry',
      (e) => ({ ...director(e), documentExpirationDate: '2099-02-30' }),
      '/documentExpirationDate',
      'invalid_date',
    ],
    ['legalRepresentation', 'a 2-letter issueCountry', (e) => ({ ...director(e), issueCountry: 'US' }), '/issueCountry', 'invalid_country'],
    ['legalRepresentation', 'an unknown documentName', (e) => ({ ...director(e), documentName: 'VISA' }), '/documentName', 'invalid_enum_value'],
    ['legalRepresentation', 'a lower-case documentName', (e) => ({ ...director(e), documentName: 'passport' }), '/documentName', 'invalid_enum_value'],
  ];

  it.each(cases)('%s: refuses %s', async (path, _, body, pointer, code) => {
    const res = await api.post(`${BASE}/${path}`, body(email));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, status: 400, code: 'EN-DATA-009', message: 'Bad Request' });
    expect(res.body.data.errors).toContainEqual(expect.objectContaining({ pointer, code }));
  });

  it('stores nothing for a refused section', async () => {
    const { id, email: fresh } = await corporate();
    await api.post(`${BASE}/basic-details`, { ...basicDetails(fresh), country: 'XXX' });
    await api.post(`${BASE}/legalRepresentation`, { ...director(fresh), documentName: 'VISA' });
    expect(await t.sql('select 1 from business_profiles where customer_id = ?', [id])).toHaveLength(0);
  });
});

describe('KYB userEmail: one of the caller’s corporate customers in this environment', () => {
  it('refuses an email no customer has', async () => {
    const res = await api.post(`${BASE}/basic-details`, basicDetails('nobody@example.com'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'EN-DATA-009', data: { errors: [{ pointer: '/userEmail', code: 'unknown_customer' }] } });
  });

  it("refuses an individual customer's email", async () => {
    const email = `individual${++n}@example.com`;
    await api.post('/v0/customers', { email, type: 'individual', first_name: 'A', last_name: 'B' });
    const res = await api.post(`${BASE}/address`, address(email));
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([expect.objectContaining({ pointer: '/userEmail', code: 'not_corporate' })]);
  });

  it("does not let another partner import KYB for this partner's customer: it reads as unknown", async () => {
    const { id, email } = await corporate();
    const other = t.client(await t.keyFor('KYB Other Partner'));
    for (const [path, body] of [
      ['basic-details', basicDetails(email)],
      ['address', address(email)],
      ['legalRepresentation', director(email)],
    ] as const) {
      const res = await other.post(`${BASE}/${path}`, body);
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual([expect.objectContaining({ pointer: '/userEmail', code: 'unknown_customer' })]);
    }
    expect(await t.sql('select 1 from business_profiles where customer_id = ?', [id])).toHaveLength(0);
  });

  it("does not reach a sandbox customer with the same partner's production key", async () => {
    const { email } = await corporate();
    const prod = t.client(await t.keyFor('Demo Partner', 'production'));
    const res = await prod.post(`${BASE}/basic-details`, basicDetails(email));
    expect(res.body.data.errors).toEqual([expect.objectContaining({ pointer: '/userEmail', code: 'unknown_customer' })]);
  });

  it('matches userEmail in any letter case', async () => {
    const { email } = await corporate();
    expect((await api.post(`${BASE}/basic-details`, basicDetails(email.toUpperCase()))).status).toBe(201);
  });

  it('answers 401 EN-AUTH-001 without an API key', async () => {
    const res = await t.client(null as never).post(`${BASE}/basic-details`, basicDetails('x@example.com'));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, code: 'EN-AUTH-001' });
  });
});

describe('KYB over GraphQL', () => {
  const SUBMIT = `mutation($input: SubmitBusinessBasicDetailsInput!) { submitBusinessBasicDetails(input: $input) {
    __typename
    ... on SubmitBusinessBasicDetailsPayload { businessProfile { complete missingSections customer { databaseId } basicDetails { companyName type } } }
    ... on ValidationError { code fieldErrors { path code } }
  } }`;
  const REP = `mutation($input: SubmitBusinessLegalRepresentativeInput!) { submitBusinessLegalRepresentative(input: $input) {
    __typename ... on SubmitBusinessLegalRepresentativePayload { businessProfile { complete legalRepresentatives { documentNo legalRepresentationType } } } } }`;
  const ADDRESS = `mutation($input: SubmitBusinessAddressInput!) { submitBusinessAddress(input: $input) {
    __typename ... on SubmitBusinessAddressPayload { businessProfile { address { countryCode } } } ... on ValidationError { fieldErrors { path code } } } }`;

  it('submits the sections with the same rules as REST', async () => {
    const { id, email } = await corporate();
    const ok = await api.graphql(SUBMIT, { input: gqlBasicDetails(email) });
    expect(ok.body.data.submitBusinessBasicDetails).toEqual({
      __typename: 'SubmitBusinessBasicDetailsPayload',
      businessProfile: {
        complete: false,
        missingSections: ['ADDRESS', 'LEGAL_REPRESENTATION'],
        customer: { databaseId: id },
        basicDetails: { companyName: 'Falcon Trading FZ-LLC', type: 'LIMITED_LIABILITY_COMPANY' },
      },
    });
    const bad = await api.graphql(SUBMIT, { input: { ...gqlBasicDetails(email), incorporatedOn: '2023-02-30' } });
    expect(bad.body.data.submitBusinessBasicDetails).toMatchObject({
      __typename: 'ValidationError',
      fieldErrors: [{ path: '/incorporatedOn', code: 'invalid_date' }],
    });
    const rep = await api.graphql(REP, { input: gqlDirector(email, 'GQL55443322') });
    expect(rep.body.data.submitBusinessLegalRepresentative.businessProfile.legalRepresentatives).toEqual([
      { documentNo: '…3322', legalRepresentationType: 'DIRECTOR' },
    ]);
    const addr = await api.graphql(ADDRESS, { input: { ...address(email), streetEn: 'شارع' } });
    expect(addr.body.data.submitBusinessAddress).toMatchObject({ __typename: 'ValidationError', fieldErrors: [{ path: '/streetEn', code: 'not_latin' }] });
  });

  it('completes the profile over GraphQL alone, sending the KYC to review; a section sent again replaces it', async () => {
    const { id, email } = await corporate();
    await api.graphql(SUBMIT, { input: gqlBasicDetails(email) });
    expect((await api.graphql(ADDRESS, { input: address(email) })).body.data.submitBusinessAddress.businessProfile).toEqual({
      address: { countryCode: 'ARE' },
    });
    const done = await api.graphql(REP, { input: gqlDirector(email) });
    expect(done.body.data.submitBusinessLegalRepresentative.businessProfile.complete).toBe(true);
    // The same director again (a retry) updates that one: no idempotencyKey is needed.
    const again = await api.graphql(REP, { input: gqlDirector(email) });
    expect(again.body.data.submitBusinessLegalRepresentative.businessProfile.legalRepresentatives).toHaveLength(1);
    const kycs = (await api.graphql(`query($id: ID!) { customer(id: $id) { kycs { status } } }`, { id })).body.data.customer.kycs;
    expect(kycs).toEqual({ status: 'IN_REVIEW' });
  });
});
