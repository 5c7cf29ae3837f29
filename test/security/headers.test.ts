import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, apiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
beforeAll(async () => {
  t = await startRamp();
});
afterAll(() => t.close());
const anonymous = () => apiClient(t.url, null);

function expectProtected(res: ApiResponse, what: string) {
  expect(res.headers.get('cache-control'), what).toBe('no-store');
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(res.headers.get('x-frame-options'), what).toBe('DENY');
  expect(res.headers.get('content-security-policy'), what).toContain("frame-ancestors 'none'");
  expect(res.headers.get('strict-transport-security'), what).toBeNull(); // production only
}

describe('every answer', () => {
  it('is not cacheable and carries the security headers: REST, Encryptus, GraphQL, errors and unknown routes', async () => {
    const api = t.client(t.key);
    const created = await api.post('/v0/customers', { email: 'headers@example.com', type: 'individual', first_name: 'Ada', last_name: 'L' });
    const answers: Array<[string, ApiResponse]> = [
      ['REST 201', created],
      ['REST 200', await api.get(`/v0/customers/${created.body.customer_id}`)],
      ['REST 400', await api.post('/v0/customers', { email: 'nope' })],
      ['REST malformed JSON', await api.request('POST', '/v0/customers', { raw: '{', headers: { 'content-type': 'application/json' } })],
      ['REST 401', await anonymous().get('/v0/customers')],
      ['REST 401 bad key', await t.client('rk_sandbox_wrong').get('/v0/customers')],
      ['unknown route', await api.get('/v0/nowhere')],
      ['Encryptus 200', await api.get('/v1/partners/account-info')],
      ['Encryptus 401', await anonymous().get('/v1/partners/account-info')],
      ['GraphQL', await api.graphql('{ customers(first: 1) { edges { node { id } } } }')],
      ['GraphQL error', await api.graphql('{ nope }')],
      ['GraphQL 401', await t.client('rk_sandbox_wrong').graphql('{ customers { edges { node { id } } } }')],
      ['health', await api.get('/healthz')],
      ['docs', await api.get('/docs')],
    ];
    for (const [what, res] of answers) expectProtected(res, what);
  });

  it('gives the HTML pages a policy that runs only scripts of Ramp (the guide: its copy buttons) or none, allows inline styles and posts forms only to Ramp', async () => {
    const docs = await anonymous().get('/docs');
    const policy = docs.headers.get('content-security-policy')!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(policy).toContain("style-src 'self' 'unsafe-inline'");
    expect(policy).toContain("form-action 'self'");

    const customer = await t.client(t.key).post('/v0/customers', { email: 'kyc-headers@example.com', type: 'individual', first_name: 'K', last_name: 'Y' });
    const read = await t.client(t.key).get(`/v0/customers/${customer.body.customer_id}`);
    const link = new URL(read.body.kycs.kyc_flow_link);
    const page = await anonymous().get(link.pathname + link.search);
    expect(page.status).toBe(200);
    expectProtected(page, 'KYC page');
    expect(page.headers.get('content-security-policy')).not.toContain('script-src');
  });

  it('lets GraphiQL run its own inline script, by hash, and nothing else', async () => {
    const res = await anonymous().get('/graphql', { accept: 'text/html' });
    expect(res.status).toBe(200);
    expectProtected(res, 'GraphiQL');
    const policy = res.headers.get('content-security-policy')!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(String(res.body))![1]!;
    expect(policy).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(policy).toContain('worker-src blob:');
    expect(policy).toContain("connect-src 'self'");
  });
});

describe('in production', () => {
  let prod: TestRamp;
  beforeAll(async () => {
    prod = await startRamp({
      NODE_ENV: 'production',
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
      ENCRYPTION_MASTER_KEY: Buffer.alloc(32, 8).toString('base64'),
    });
  });
  afterAll(() => prod.close());

  it('tells browsers to use HTTPS only (HSTS), on answers and refusals alike', async () => {
    for (const res of [await prod.client(prod.key).get('/v0/customers'), await apiClient(prod.url, null).get('/v0/customers')]) {
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});
