import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYB_POINTERS } from '../../src/modules/kyb/rest-bodies.js';
import { restPointerOf } from '../../src/rest/routes.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { graphqlFieldErrors, restFieldErrors } from '../support/clients/faces.js';

/**
 * For the business KYB import: one use case, two faces. A rule of the domain fails
 * with the same code in REST (pointer into the spec's camelCase body) and GraphQL (path into `input`).
 */
let t: TestRamp;
let api: ApiClient;
let n = 0;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

const BASE = '/v1/partners/kyc/business';
const customer = async (type: 'corporate' | 'individual' = 'corporate') => {
  const email = `kybfaces${++n}@example.com`;
  const names = type === 'corporate' ? { company_name: `Company ${n}` } : { first_name: 'Ada', last_name: 'Lovelace' };
  expect((await api.post('/v0/customers', { email, type, ...names })).status).toBe(201);
  return email;
};
const director = (userEmail: string) => ({
  userEmail,
  legalRepresentationType: 'director',
  firstName: 'Layla',
  lastName: 'Haddad',
  dob: '1984-02-29',
  nationality: 'ARE',
  documentNo: 'N1234567',
  documentExpirationDate: '2031-05-01',
  issueCountry: 'ARE',
  documentName: 'PASSPORT',
});

/** The same director as GraphQL spells its enums (SCREAMING_SNAKE). */
const gqlDirector = (userEmail: string) => ({ ...director(userEmail), legalRepresentationType: 'DIRECTOR' });

const REP = `mutation ($input: SubmitBusinessLegalRepresentativeInput!) {
  submitBusinessLegalRepresentative(input: $input) { __typename ... on ValidationError { code fieldErrors { path code message } } }
}`;

describe('REST face', () => {
  it('points a rule only the use case knows (the customer must be corporate) at /userEmail of the body', async () => {
    const email = await customer('individual');
    expect(restFieldErrors(await api.post(`${BASE}/legalRepresentation`, director(email)))).toEqual(['/userEmail not_corporate']);
  });

  it('reports several problems of the body in one 400', async () => {
    const email = await customer();
    const res = await api.post(`${BASE}/legalRepresentation`, { ...director(email), dob: '1850-01-01', nationality: 'XXX', firstName: ' ', memo: 'x' });
    expect(restFieldErrors(res)).toEqual(['/dob date_out_of_range', '/firstName too_small', '/memo unrecognized_keys', '/nationality invalid_country']);
  });

  it('keeps the domain’s camelCase pointers as they are: the spec’s body spells its fields the same way', () => {
    expect(restPointerOf('/userEmail', KYB_POINTERS)).toBe('/userEmail');
    expect(restPointerOf('/documentExpirationDate', KYB_POINTERS)).toBe('/documentExpirationDate');
  });
});

describe('GraphQL face', () => {
  it('names the rule only the use case knows by its path in input', async () => {
    const email = await customer('individual');
    expect(await graphqlFieldErrors(api, REP, 'submitBusinessLegalRepresentative', { input: gqlDirector(email) })).toEqual(['/userEmail not_corporate']);
  });

  it('reports several problems of the input in one ValidationError', async () => {
    const email = await customer();
    const errors = await graphqlFieldErrors(api, REP, 'submitBusinessLegalRepresentative', {
      input: { ...gqlDirector(email), dob: '1850-01-01', nationality: 'XXX', firstName: ' ' },
    });
    expect(errors).toEqual(['/dob date_out_of_range', '/firstName too_small', '/nationality invalid_country']);
  });
});

describe('both faces', () => {
  it('fail one rule with the same code and the same sentence', async () => {
    const email = await customer();
    const problems = { documentExpirationDate: '2020-01-01', documentNo: '#1' };
    const rest = await api.post(`${BASE}/legalRepresentation`, { ...director(email), ...problems });
    const gql = await api.graphql(REP, { input: { ...gqlDirector(email), ...problems } });
    const restByField = Object.fromEntries(
      (rest.body.data.errors as { pointer: string; code: string; detail: string }[]).map((e) => [e.pointer, [e.code, e.detail]]),
    );
    const gqlByField = Object.fromEntries(
      (gql.body.data.submitBusinessLegalRepresentative.fieldErrors as { path: string; code: string; message: string }[]).map((e) => [
        e.path,
        [e.code, e.message],
      ]),
    );
    expect(gqlByField).toEqual(restByField);
    expect(gqlByField['/documentExpirationDate']?.[0]).toBe('document_expired');
  });
});
