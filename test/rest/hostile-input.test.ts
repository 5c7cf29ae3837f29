import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type ApiResponse, apiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { rawRequest } from '../support/clients/raw-request.js';

// Input no client should send still gets a documented answer.
let t: TestRamp;
let api: ApiClient;
let customerId: string;

beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
  const created = await api.post('/v0/customers', { email: 'hostile@example.com', type: 'individual', first_name: 'Ada', last_name: 'Lovelace' });
  customerId = created.body.customer_id;
});
afterAll(() => t.close());

const json = { 'content-type': 'application/json' };
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

function expectProblem(res: ApiResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body).toMatchObject({ status, code, request_id: expect.any(String) });
}

function expectEnvelope(res: ApiResponse, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ success: false, status, code: expect.stringMatching(/^EN-/), data: { error, request_id: expect.any(String) } });
}

describe('a body nested thousands deep (defect 2)', () => {
  it('answers 400 body_too_deep on /v0 before the idempotency fingerprint runs', async () => {
    const res = await api.request('POST', '/v0/customers', { raw: `{"email":${nested(5000)}}`, headers: { ...json, 'idempotency-key': 'deep-1' } });
    expectProblem(res, 400, 'body_too_deep');
  });

  it('answers in the Encryptus envelope on /v1 and /auth', async () => {
    for (const path of ['/v1/partners/forensics/whitelist/bankAccount', '/auth/importKYC']) {
      const res = await api.request('POST', path, { raw: `{"label":${nested(5000)}}`, headers: json });
      expectEnvelope(res, 400, 'body_too_deep');
      expect(res.body.code).toBe('EN-DATA-009');
    }
  });

  it('refuses 33 levels and reads 32 as an ordinary body', async () => {
    const refused = await api.request('POST', '/v0/customers', { raw: `{"email":${nested(32)}}`, headers: json });
    expectProblem(refused, 400, 'body_too_deep');
    const read = await api.request('POST', '/v0/customers', { raw: `{"email":${nested(31)}}`, headers: json });
    expectProblem(read, 400, 'validation_failed');
  });

  it('answers deeply nested GraphQL variables with a GraphQL error and a code', async () => {
    const res = await api.request('POST', '/graphql', { raw: `{"query":"{ __typename }","variables":{"a":${nested(5000)}}}`, headers: json });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BODY_TOO_DEEP');
  });
});

describe('control characters in text (defect 3)', () => {
  it('answers 400 validation_failed pointing at a field holding NUL when a customer is created', async () => {
    const res = await api.post('/v0/customers', { email: 'nul@example.com', type: 'individual', first_name: 'A\u0000B', last_name: 'C' });
    expectProblem(res, 400, 'validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/first_name', code: 'invalid_characters' })]);
  });

  it('refuses NUL when a customer is updated', async () => {
    const res = await api.put(`/v0/customers/${customerId}`, { first_name: 'A\u0000B' });
    expectProblem(res, 400, 'validation_failed');
    expect(res.body.errors[0]).toMatchObject({ pointer: '/first_name', code: 'invalid_characters' });
  });

  it('refuses NUL in a whitelisted bank account in the Encryptus envelope', async () => {
    const res = await api.post('/v1/partners/forensics/whitelist/bankAccount', { bankName: 'Bank\u0000', iban: 'x' });
    expectEnvelope(res, 400, 'validation_failed');
    expect(res.body.data.errors[0]).toMatchObject({ pointer: '/bankName', code: 'invalid_characters' });
  });

  it('refuses the other C0 controls, DEL, U+FFFF and lone surrogates, in keys too, and accepts tab and newline', async () => {
    for (const bad of ['\u0001', '\u001b[31m', '\u007f', '\uffff', '\ud800', 'x\udc00']) {
      const res = await api.post('/v0/customers', { email: 'c@example.com', type: 'individual', first_name: bad, last_name: 'C' });
      expect(res.body.errors?.[0], JSON.stringify(bad)).toMatchObject({ pointer: '/first_name', code: 'invalid_characters' });
    }
    const key = await api.post('/v0/customers', { 'first\u0000name': 'A' });
    expect(key.body.errors[0]).toMatchObject({ pointer: '/first\u0000name', code: 'invalid_characters' });
    const fine = await api.post('/v0/customers', { email: 'tab@example.com', type: 'individual', first_name: 'A\tB', last_name: 'C\nD' });
    expect(fine.status).toBe(201);
  });

  it('refuses NUL in query strings and path ids instead of sending it to the database', async () => {
    expectProblem(await api.get('/v0/customers/%00'), 400, 'validation_failed');
    expectProblem(await api.get(`/v0/customers/${customerId}/onramp-transfer?limit=%00`), 400, 'validation_failed');
    expectProblem(await api.get('/v0/events?types=a%00b'), 400, 'validation_failed');
  });

  it('answers NUL in a GraphQL variable or literal with VALIDATION_FAILED, never an internal error', async () => {
    const viaVariable = await api.graphql('mutation($i: CreateCustomerInput!) { createCustomer(input: $i) { __typename } }', {
      i: { email: 'g@example.com', type: 'INDIVIDUAL', firstName: 'A\u0000B', lastName: 'C' },
    });
    expect(viaVariable.body.errors?.[0]?.extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: [expect.objectContaining({ path: '/variables/i/firstName', code: 'invalid_characters' })],
    });
    const viaLiteral = await api.graphql('{ customers(email: "a\\u0000b") { edges { cursor } } }');
    expect(viaLiteral.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect(viaLiteral.body.data ?? null).toBeNull();
  });
});

describe('query cost (defect 4)', () => {
  const refusedBefore = (res: ApiResponse, code: string) => {
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toContain(code);
  };

  it('multiplies nested connections by their page size and refuses 100 × 100 × 100 transfers', async () => {
    const node = (inner: string) => `transfers(first: 100) { edges { node { ${inner} } } }`;
    refusedBefore(await api.graphql(`{ ${node(`customer { ${node(`customer { ${node('id')} }`)} }`)} }`), 'QUERY_COMPLEXITY');
    refusedBefore(await api.graphql('{ customers(first: 100) { edges { node { transfers(first: 100) { edges { node { id } } } } } } }'), 'QUERY_COMPLEXITY');
  });

  it('checks the variables of every request, not only of the first one with that document', async () => {
    const nestedBy = (inner: string) => `transfers(first: $n) { edges { node { ${inner} } } }`;
    const document = `query($n: Int) { ${nestedBy(`customer { ${nestedBy(`customer { ${nestedBy('id')} }`)} }`)} }`;
    expect((await api.graphql(document, { n: 1 })).body.errors).toBeUndefined();
    refusedBefore(await api.graphql(document, { n: 100 }), 'QUERY_COMPLEXITY');
    const byEmail = 'query($email: String) { customers(email: $email) { edges { cursor } } }';
    expect((await api.graphql(byEmail, { email: 'a@example.com' })).body.errors).toBeUndefined();
    refusedBefore(await api.graphql(byEmail, { email: 'a\u0000b' }), 'VALIDATION_FAILED');
  });

  it('still runs an ordinary page of customers with their KYC and transfers', async () => {
    const res = await api.graphql('{ customers(first: 100) { edges { node { id email kycs { status } transfers(first: 10) { edges { node { id } } } } } } }');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.customers.edges.length).toBeGreaterThan(0);
  });

  it('refuses alias, token and fragment bombs before running them', async () => {
    refusedBefore(await api.graphql(`{ ${Array.from({ length: 60 }, (_, i) => `a${i}: __typename`).join(' ')} }`), 'QUERY_ALIASES');
    refusedBefore(await api.graphql(`{ ${'__typename '.repeat(6000)} }`), 'QUERY_TOO_LONG');
    const fragments = Array.from(
      { length: 12 },
      (_, i) => `fragment F${i} on Query { ${i === 11 ? 'customers { edges { cursor } }' : `...F${i + 1} ...F${i + 1}`} }`,
    );
    refusedBefore(await api.graphql(`{ ...F0 } ${fragments.join(' ')}`), 'QUERY_COMPLEXITY');
  });
});

describe('framework errors in the documented shapes (defect 6)', () => {
  it('answers an id longer than any id with 404 not_found, without echoing it', async () => {
    const long = 'a'.repeat(150);
    const res = await api.get(`/v0/customers/${long}`);
    expectProblem(res, 404, 'not_found');
    expect(JSON.stringify(res.body)).not.toContain(long);
  });

  it('answers a path that is not percent-encoded UTF-8 with 400 malformed_url, without echoing it', async () => {
    const res = await api.delete('/v0/webhooks/%ff%fe');
    expectProblem(res, 400, 'malformed_url');
    expect(JSON.stringify(res.body)).not.toContain('%ff');
    expect(res.headers.get('x-request-id')).toBe(res.body.request_id);
  });

  it('routes duplicate slashes like single ones, with the key checked and the prefix shape kept', async () => {
    const v0 = await api.get(`//v0/customers/${customerId}`);
    expect(v0.status).toBe(200);
    const v1 = await api.get('//v1/partners/accountInfo');
    expect(v1.body).toMatchObject({ success: true, code: 'EN-SUCCESS-001' });
    const anonymous = apiClient(t.url, null);
    expectEnvelope(await anonymous.get('//v1/partners/accountInfo'), 401, 'unauthenticated');
    expectProblem(await anonymous.get(`//v0/customers/${customerId}`), 401, 'unauthenticated');
  });

  it('does not echo an unknown path', async () => {
    const path = `/v0/${'z'.repeat(500)}`;
    const res = await api.get(path);
    expectProblem(res, 404, 'route_not_found');
    expect(JSON.stringify(res.body)).not.toContain('zzzz');
  });

  it('answers odd and over-long headers in the shape of the path', async () => {
    expectProblem(
      await api.request('GET', `/v0/customers/${customerId}`, { headers: { authorization: `Bearer ${'x'.repeat(10_000)}` } }),
      401,
      'unauthenticated',
    );
    const huge = await api.request('GET', '/v1/partners/accountInfo', { headers: { 'x-padding': 'x'.repeat(20_000) } });
    expectEnvelope(huge, 431, 'headers_too_large');
    const control = await rawRequest(t.url, `POST /v0/customers HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\u0001b\r\nContent-Length: 2\r\n\r\n{}`);
    expect(control).toMatch(/^HTTP\/1\.1 400 /);
    expect(control).toContain('application/problem+json');
    expect(JSON.parse(control.slice(control.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400, code: 'malformed_request' });
    const odd = await api.get(`/v0/customers/${customerId}`, { 'x-request-id': 'x'.repeat(500) });
    expect(odd.status).toBe(200);
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('media types in any letter case (found by the fuzz suite)', () => {
  it('reads APPLICATION/JSON on /graphql like application/json, an empty body included', async () => {
    const post = (contentType: string, body: string) =>
      fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': contentType, accept: 'text/event-stream' },
        body,
      });
    const ran = await post('APPLICATION/JSON; charset=UTF-8', '{"query":"{ __typename }"}');
    expect(ran.status).toBe(200);
    expect(await ran.json()).toEqual({ data: { __typename: 'Query' } });
    for (const contentType of ['APPLICATION/JSON', 'application/json']) {
      const empty = await post(contentType, '');
      expect(empty.status).toBe(400);
      expect((await empty.json()).errors[0].extensions.code).toBe('BAD_REQUEST');
    }
  });
});
