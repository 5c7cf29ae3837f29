import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { type ApiClient, apiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;
beforeAll(async () => {
  t = await startRamp();
  api = t.client(t.key);
});
afterAll(() => t.close());

let seq = 0;
const email = () => `conventions-${++seq}-${Date.now()}@example.com`;
const individual = (address: string) => ({ email: address, type: 'individual', first_name: 'Ada', last_name: 'Lovelace' });

describe('GET /v0/customers', () => {
  it('lists customers oldest first, limit at a time after skip, with has_more', async () => {
    const other = t.client(await t.keyFor('Conventions Lister'));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await other.post('/v0/customers', individual(email()))).body.customer_id);
    const first = await other.get('/v0/customers?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.items.map((c: { customer_id: string }) => c.customer_id)).toEqual(ids.slice(0, 2));
    expect(first.body.has_more).toBe(true);
    const rest = await other.get('/v0/customers?limit=2&skip=2');
    expect(rest.body).toEqual({ items: [expect.objectContaining({ customer_id: ids[2], kycs: expect.any(Object) })], has_more: false });
  });

  it('finds the customer with an email, and nobody for an unknown one', async () => {
    const address = email();
    const id = (await api.post('/v0/customers', individual(address))).body.customer_id;
    const found = await api.get(`/v0/customers?email=${encodeURIComponent(address)}`);
    expect(found.body.items.map((c: { customer_id: string }) => c.customer_id)).toEqual([id]);
    expect((await api.get(`/v0/customers?email=${encodeURIComponent(email())}`)).body).toEqual({ items: [], has_more: false });
  });

  it('answers 400 for limits out of bounds, like every list', async () => {
    for (const query of ['limit=0', 'limit=101', 'skip=-1', 'skip=10001', 'limit=abc']) {
      const res = await api.get(`/v0/customers?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
  });

  it('names what is wrong with limit and skip: not a whole number (invalid_type, as their OpenAPI type: integer says) or out of bounds', async () => {
    const cases = [
      ['limit=abc', '/limit', 'invalid_type'],
      ['limit=1.5', '/limit', 'invalid_type'],
      ['skip=', '/skip', 'invalid_type'],
      ['limit=0', '/limit', 'too_small'],
      ['skip=-1', '/skip', 'too_small'],
      ['limit=101', '/limit', 'too_big'],
      ['limit=99999999999999999999', '/limit', 'too_big'],
    ] as const;
    for (const [query, pointer, code] of cases) {
      // The events API pages by cursor: it takes limit, not skip.
      for (const path of pointer === '/limit' ? ['/v0/customers', '/v0/events'] : ['/v0/customers']) {
        const res = await api.get(`${path}?${query}`);
        expect(res.body.errors, `${path}?${query}`).toEqual([{ pointer, code, detail: expect.any(String) }]);
      }
    }
    expect((await api.get('/v0/events?limit=x')).body.errors[0].detail).toBe('must be a whole number');
  });
});

describe('has_more on every { items } list', () => {
  it('is present on external accounts, virtual accounts, transfers and webhooks', async () => {
    const id = (await api.post('/v0/customers', individual(email()))).body.customer_id;
    for (const path of [
      `/v0/customers/${id}/external-accounts`,
      `/v0/customers/${id}/virtual-account`,
      `/v0/customers/${id}/onramp-transfer`,
      `/v0/customers/${id}/offramp-transfer`,
      '/v0/webhooks',
    ]) {
      const res = await api.get(path);
      expect(res.status, path).toBe(200);
      expect(res.body.has_more, path).toBe(false);
    }
  });
});

describe('409 for a duplicate customer', () => {
  it('names the customer that already has the email', async () => {
    const address = email();
    const existing = (await api.post('/v0/customers', individual(address))).body.customer_id;
    const duplicate = await api.post('/v0/customers', individual(address.toUpperCase()));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'customer_email_taken', customer_id: existing });
  });
});

describe('problem type', () => {
  it("is an absolute URL of the code's anchor in /docs, which that page has", async () => {
    const res = await api.get('/v0/customers/00000000-0000-4000-8000-000000000000');
    expect(res.body.type).toBe(`${t.url}/docs#not_found`);
    const docs = await (await fetch(`${t.url}/docs`)).text();
    expect(docs).toContain('<tr id="not_found">');
  });

  it('uses PUBLIC_URL when it is set', async () => {
    const behindProxy = await startRamp({ PUBLIC_URL: 'https://ramp.example.com' });
    try {
      // startRamp's url is PUBLIC_URL; the requests go to the loopback address it listens on.
      const { port } = behindProxy.ramp.http.app.server.address() as AddressInfo;
      const res = await apiClient(`http://127.0.0.1:${port}`, behindProxy.key).get('/v0/customers/00000000-0000-4000-8000-000000000000');
      expect(res.body.type).toBe('https://ramp.example.com/docs#not_found');
    } finally {
      await behindProxy.close();
    }
  });
});

describe('405 for a known path with another method', () => {
  it('answers 405 with Allow naming the methods the path takes', async () => {
    const res = await api.request('PATCH', '/v0/customers');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(res.body).toMatchObject({ status: 405, code: 'method_not_allowed', type: `${t.url}/docs#method_not_allowed` });
    const customer = await api.request('DELETE', '/v0/customers/00000000-0000-4000-8000-000000000000');
    expect(customer.headers.get('allow')).toBe('GET, HEAD, PUT');
  });

  it('answers in the Encryptus envelope under /v1, and 404 for a path nothing serves', async () => {
    const res = await api.get('/v1//partners/forensics/whitelist/walletAddress');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.body).toMatchObject({ success: false, status: 405, data: { error: 'method_not_allowed' } });
    expect((await api.request('PATCH', '/v0/nothing-here')).status).toBe(404);
  });

  it('answers 405 (or 404) before reading the body: a QUERY without Content-Type, a body that is not JSON', async () => {
    const cases = [
      ['QUERY', '/v0/customers', {}, undefined, 405],
      ['QUERY', '/v0/customers', { 'content-type': 'application/json' }, '{', 405],
      ['PUT', '/v0/customers', { 'content-type': 'application/json' }, '{', 405],
      ['QUERY', '/v0/nothing-here', {}, undefined, 404],
      ['POST', '/v0/nothing-here', { 'content-type': 'application/json' }, '{', 404],
    ] as const;
    for (const [method, path, headers, raw, status] of cases) {
      const res = await api.request(method, path, { headers, raw });
      const label = `${method} ${path} ${raw ?? ''}`;
      expect(res.status, label).toBe(status);
      expect(res.headers.get('content-type'), label).toMatch(/^application\/problem\+json/);
      expect(res.body.code, label).toBe(status === 405 ? 'method_not_allowed' : 'route_not_found');
      if (status === 405) expect(res.headers.get('allow'), label).toBe('GET, HEAD, POST');
    }
    const envelope = await api.request('QUERY', '/v1//partners/forensics/whitelist/walletAddress');
    expect(envelope.status).toBe(405);
    expect(envelope.body).toMatchObject({ success: false, status: 405, data: { error: 'method_not_allowed' } });
  });
});

describe('Idempotency-Key as the IETF draft writes it', () => {
  it('reads a structured-field string: "key" and the bare key are the same key', async () => {
    const body = individual(email());
    const first = await api.post('/v0/customers', body, { 'idempotency-key': '"conventions-key-1"' });
    expect(first.status).toBe(201);
    const again = await api.post('/v0/customers', body, { 'idempotency-key': 'conventions-key-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it.each([
    ['an empty key', '', 'empty'],
    ['an empty string', '""', 'empty'],
    ['an unterminated string', '"abc', 'invalid'],
    ['a string with a bad escape', '"a\\b"', 'invalid'],
  ])('answers 400 for %s, never "no key"', async (_, header, code) => {
    const res = await api.post('/v0/customers', individual(email()), { 'idempotency-key': header });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/headers/idempotency-key', code })]);
  });
});

describe('503 while the database or a chain is unavailable', () => {
  it('is documented for every route as database_unavailable, beside chain_unavailable (a node down) and overloaded (a saturated instance)', async () => {
    const document = await (await fetch(`${t.url}/openapi.json`)).json();
    const listed = document.paths['/v0/customers/{customer_id}'].get.responses['503'];
    const name = 'ProblemDatabaseUnavailableOrChainUnavailableOrOverloaded';
    expect(listed).toEqual({ $ref: `#/components/responses/${name}` });
    const codes = document.components.responses[name].content['application/problem+json'].schema.allOf[1].properties.code.enum;
    expect(codes).toEqual(['database_unavailable', 'chain_unavailable', 'overloaded']);
  });
});
