import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;
const customerCount = async () => Number((await t.sql<{ n: string }>('select count(*)::text as n from customers'))[0]!.n);

beforeAll(async () => {
  t = await startRamp({ BODY_LIMIT_BYTES: '2048' });
  api = t.client(t.key);
});
afterAll(() => t.close());

describe('bodies the API cannot read', () => {
  it('answers 400 malformed_json to a broken JSON body and stores nothing', async () => {
    const before = await customerCount();
    const res = await api.request('POST', '/v0/customers', { raw: '{"email": "a@b.com", "type": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.code).toBe('malformed_json');
    expect(await customerCount()).toBe(before);
  });

  it('answers 415 unsupported_media_type to a form-encoded body and stores nothing', async () => {
    const before = await customerCount();
    const res = await api.request('POST', '/v0/customers', {
      raw: 'email=a%40b.com&type=corporate&company_name=X',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
    expect(await customerCount()).toBe(before);
  });

  it('answers 415 to a text/plain body as to any body that is not JSON', async () => {
    const res = await api.request('POST', '/v0/customers', { raw: '{"email":"t@example.com"}', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ code: 'unsupported_media_type', title: 'Unsupported Media Type' });
  });

  it('reads an empty body sent as application/json as no body at all', async () => {
    const res = await api.request('POST', '/v0/customers', { raw: '', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('refuses a body that tries to set __proto__', async () => {
    const res = await api.request('POST', '/v0/customers', {
      raw: '{"email":"p@example.com","type":"corporate","company_name":"P","__proto__":{"admin":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });

  it('answers 413 payload_too_large to an oversized body and stores nothing', async () => {
    const before = await customerCount();
    const res = await api.post('/v0/customers', { email: 'big@example.com', type: 'corporate', company_name: 'x'.repeat(4096) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
    expect(await customerCount()).toBe(before);
  });

  it('answers a JSON body that is not an object with 400 validation_failed', async () => {
    const res = await api.request('POST', '/v0/customers', { raw: '[1,2]', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('answers 404 route_not_found as problem+json for an unknown route', async () => {
    const res = await api.get('/v0/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('route_not_found');
  });
});

describe('request ids', () => {
  it('echoes a caller-supplied X-Request-Id and puts it in error bodies', async () => {
    const res = await api.get('/v0/customers/not-a-uuid', { 'x-request-id': 'req-test-12345' });
    expect(res.headers.get('x-request-id')).toBe('req-test-12345');
    expect(res.body.request_id).toBe('req-test-12345');
  });

  it('makes one up when none is given', async () => {
    const res = await api.get('/healthz');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('health', () => {
  it('answers /healthz and /readyz (database reachable) without a key', async () => {
    expect((await api.get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await api.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
  });
});

describe('REST docs', () => {
  it('serve the partner guide (docs/api) as HTML at /docs, with anchors for its contents and for every error code link', async () => {
    const docs = await api.get('/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    const html = String(docs.body);
    for (const id of ['quick-start', 'errors', 'error-codes', 'idempotency', 'customers']) expect(html).toContain(`id="${id}"`);
    expect(html).toContain('<code>customer_email_taken</code>');
    const redirect = await fetch(`${t.url}/docs/errors`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/docs#error-codes');
  });
});
