import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
let api: ApiClient;

beforeAll(async () => {
  t = await startRamp({
    NODE_ENV: 'production',
    CORS_ORIGINS: 'https://app.partner.example',
    WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    ENCRYPTION_MASTER_KEY: Buffer.alloc(32, 8).toString('base64'),
  });
  api = t.client(t.key);
});
afterAll(() => t.close());

describe('a deployment started with NODE_ENV=production', () => {
  it('does not serve GraphiQL', async () => {
    const res = await api.get('/graphql', { accept: 'text/html' });
    expect(String(res.body)).not.toContain('GraphiQL');
  });

  it('refuses introspection', async () => {
    const res = await api.graphql('{ __schema { queryType { name } } }');
    expect(res.body.data?.__schema).toBeUndefined();
    expect(res.body.errors?.[0]?.message).toMatch(/introspection/i);
  });

  it('still answers ordinary operations', async () => {
    const res = await api.graphql('{ customers { edges { node { id } } } }');
    expect(res.body.data.customers.edges).toEqual([]);
  });

  it('allows CORS only for the configured origins', async () => {
    const allowed = await api.request('OPTIONS', '/v0/customers', {
      headers: { origin: 'https://app.partner.example', 'access-control-request-method': 'POST' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.partner.example');
    const refused = await api.request('OPTIONS', '/v0/customers', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});
