import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restPointerOf } from '../../src/rest/routes.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { openedProfile } from '../support/data/sealed.js';
import { graphqlFieldErrors, restFieldErrors } from '../support/clients/faces.js';

/**
 * For customers: one use case, two faces. A rule of the domain fails with the
 * same code in REST and GraphQL; REST points into the spec's snake_case body, GraphQL into `input`.
 */
let t: TestRamp;
let api: ApiClient;
let n = 0;
const email = () => `faces${++n}@example.com`;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

async function newCustomer(type: 'individual' | 'corporate'): Promise<string> {
  const names = type === 'individual' ? { first_name: 'Ada', last_name: 'Lovelace' } : { company_name: 'Acme Ltd' };
  const res = await api.post('/v0/customers', { email: email(), type, ...names });
  expect(res.status).toBe(201);
  return res.body.customer_id;
}

/** The one 400's field errors as `pointer code` lines, sorted. */

const UPDATE = `mutation ($input: UpdateCustomerInput!) {
  updateCustomer(input: $input) { __typename ... on ValidationError { code fieldErrors { path code message } } }
}`;
const CREATE = `mutation ($input: CreateCustomerInput!) {
  createCustomer(input: $input) { __typename ... on ValidationError { code fieldErrors { path code message } } }
}`;

describe('REST face', () => {
  it('points a bad tax number at /identifying_information/tax_number of the PUT body', async () => {
    const id = await newCustomer('individual');
    const res = await api.put(`/v0/customers/${id}`, { identifying_information: { tax_number: '' } });
    expect(restFieldErrors(res)).toEqual(['/identifying_information/tax_number too_small']);
  });

  it('reports nested body problems and the names the stored type refuses in one 400', async () => {
    const id = await newCustomer('corporate');
    const res = await api.put(`/v0/customers/${id}`, {
      first_name: 'Bob',
      identifying_information: { id_document: { number: 'X1', issuing_country: 'gb' }, tax_number: '' },
      address: { country: 'DE', city: 'Berlin', street_line_1: '', postal_code: '10117' },
      documents: [{ file_id: '', purpose: 'proof_of_address' }],
    });
    expect(restFieldErrors(res)).toEqual([
      '/address/street_line_1 too_small',
      '/documents/0/file_id too_small',
      '/first_name not_allowed',
      '/identifying_information/id_document/issuing_country invalid_regex',
      '/identifying_information/tax_number too_small',
    ]);
  });

  it('maps a rule only the use case knows (names of the other type) back into the snake_case body', async () => {
    const id = await newCustomer('individual');
    const res = await api.put(`/v0/customers/${id}`, { company_name: 'Acme' });
    expect(restFieldErrors(res)).toEqual(['/company_name not_allowed']);
  });

  it('maps domain pointers to body pointers by snake-casing, with renames where the body nests', () => {
    const renames = { '/taxNumber': '/identifying_information/tax_number', '/idDocument': '/identifying_information/id_document' };
    expect(restPointerOf('/idDocument/issuingCountry', renames)).toBe('/identifying_information/id_document/issuing_country');
    expect(restPointerOf('/taxNumber', renames)).toBe('/identifying_information/tax_number');
    expect(restPointerOf('/address/streetLine1')).toBe('/address/street_line_1');
    expect(restPointerOf('/documents/10/fileId')).toBe('/documents/10/file_id');
  });
});

describe('GraphQL face', () => {
  it('names a bad taxNumber by its path in input, not by the REST body’s nesting', async () => {
    const id = await newCustomer('individual');
    expect(await graphqlFieldErrors(api, UPDATE, 'updateCustomer', { input: { customerId: id, taxNumber: '' } })).toEqual(['/taxNumber too_small']);
    const res = await api.graphql(
      `mutation ($input: UpdateCustomerInput!) { changed: updateCustomer(input: $input) { ... on ValidationError { fieldErrors { argumentPath } } } }`,
      { input: { customerId: id, taxNumber: '' } },
    );
    expect(res.body.data.changed.fieldErrors).toEqual([{ argumentPath: ['input', 'taxNumber'] }]);
  });

  it('reports nested input problems and the names the stored type refuses in one ValidationError', async () => {
    const id = await newCustomer('corporate');
    const errors = await graphqlFieldErrors(api, UPDATE, 'updateCustomer', {
      input: {
        customerId: id,
        firstName: 'Bob',
        idDocument: { number: 'X1', issuingCountry: 'gb' },
        taxNumber: '',
        address: { country: 'DE', city: 'Berlin', streetLine1: '', postalCode: '10117' },
        documents: [{ fileId: '', purpose: 'proof_of_address' }],
      },
    });
    expect(errors).toEqual([
      '/address/streetLine1 too_small',
      '/documents/0/fileId too_small',
      '/firstName not_allowed',
      '/idDocument/issuingCountry invalid_regex',
      '/taxNumber too_small',
    ]);
  });

  it('names the fields of createCustomer’s input, nested ones included', async () => {
    const errors = await graphqlFieldErrors(api, CREATE, 'createCustomer', {
      input: { email: 'nope', type: 'INDIVIDUAL', firstName: 'Ada', address: { country: 'de', city: 'Berlin', streetLine1: 'A 1', postalCode: '' } },
    });
    expect(errors).toEqual(['/address/country invalid_regex', '/address/postalCode too_small', '/email invalid_email', '/lastName required']);
  });
});

describe('both faces', () => {
  it('fail one rule with the same code and the same sentence', async () => {
    const id = await newCustomer('individual');
    const rest = await api.put(`/v0/customers/${id}`, { identifying_information: { tax_number: 'x'.repeat(101) }, company_name: 'Acme' });
    const gql = await api.graphql(UPDATE, { input: { customerId: id, taxNumber: 'x'.repeat(101), companyName: 'Acme' } });
    const restByField = Object.fromEntries(
      (rest.body.errors as { pointer: string; code: string; detail: string }[]).map((e) => [e.pointer, [e.code, e.detail]]),
    );
    const gqlByField = Object.fromEntries(
      (gql.body.data.updateCustomer.fieldErrors as { path: string; code: string; message: string }[]).map((e) => [e.path, [e.code, e.message]]),
    );
    expect(gqlByField['/taxNumber']).toEqual(restByField['/identifying_information/tax_number']);
    expect(gqlByField['/companyName']).toEqual(restByField['/company_name']);
    expect(gqlByField['/taxNumber']?.[0]).toBe('too_big');
  });

  it('store the same KYC data whichever face sent it', async () => {
    const viaRest = await newCustomer('individual');
    const viaGraphql = await newCustomer('individual');
    const doc = { number: 'X1234567', issuing_country: 'GB' };
    await api.put(`/v0/customers/${viaRest}`, {
      identifying_information: { id_document: doc, tax_number: 'TX-1' },
      documents: [{ file_id: 'f1', purpose: 'id' }],
    });
    const gql = await api.graphql(UPDATE, {
      input: {
        customerId: viaGraphql,
        idDocument: { number: 'X1234567', issuingCountry: 'GB' },
        taxNumber: 'TX-1',
        documents: [{ fileId: 'f1', purpose: 'id', description: null }],
      },
    });
    expect(gql.body.data.updateCustomer.__typename).toBe('UpdateCustomerPayload');
    // Opened: the numbers are sealed at rest, each sealing with its own IV.
    const [a, b] = [await openedProfile(t, viaRest), await openedProfile(t, viaGraphql)];
    expect(a).toEqual(b);
    expect(a).toEqual({ identifying_information: { id_document: doc, tax_number: 'TX-1' }, documents: [{ file_id: 'f1', purpose: 'id' }] });
  });
});
