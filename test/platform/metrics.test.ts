import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { type Receiver, startReceiver, waitFor } from '../support/clients/webhook-receiver.js';

// docs/operations/metrics.md.
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Reads the Prometheus text format: one sample per line, comments skipped. */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

const sampleValue = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

async function scrape(t: TestRamp, headers?: Record<string, string>) {
  const res = await apiClient(t.url, null).get('/metrics', headers);
  return { ...res, samples: res.status === 200 ? parse(res.body as string) : [] };
}

describe('GET /metrics', () => {
  let t: TestRamp;
  let api: ApiClient;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    t = await startRamp({ WEBHOOK_RETRY_TIME_SCALE: '0.001', WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_TIMEOUT_MS: '1500' });
    api = t.client(t.key);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('answers without an API key, in the Prometheus text format, with the Node process metrics', async () => {
    const res = await scrape(t);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.samples.map((s) => s.name)).toEqual(expect.arrayContaining(['process_cpu_user_seconds_total', 'nodejs_heap_size_used_bytes']));
  });

  it('names no gauge with the _total suffix Prometheus keeps for counters (promtool check metrics)', async () => {
    const res = await scrape(t);
    const gauges = [...(res.body as string).matchAll(/^# TYPE (\S+) gauge$/gm)].map((m) => m[1]!);
    expect(gauges).toEqual(expect.arrayContaining(['nodejs_active_handles', 'outbox_undispatched_events']));
    expect(gauges.filter((name) => name.endsWith('_total'))).toEqual([]);
  });

  it('counts requests by method, route pattern and status, with no ids in the labels', async () => {
    const created = await api.post('/v0/customers', { email: 'metrics@example.com', type: 'corporate', company_name: 'Metrics Ltd' });
    expect(created.status).toBe(201);
    const id = created.body.customer_id as string;
    expect((await api.get(`/v0/customers/${id}`)).status).toBe(200);
    expect((await api.get(`/v0/customers/${id}`)).status).toBe(200);
    expect((await api.get('/v0/customers/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await api.get(`/v0/no-such-thing/${id}`)).status).toBe(404);

    const res = await scrape(t);
    const get = { method: 'GET', route: '/v0/customers/:customer_id' };
    expect(sampleValue(res.samples, 'http_requests_total', { ...get, status_code: '200' })).toBe(2);
    expect(sampleValue(res.samples, 'http_requests_total', { ...get, status_code: '404' })).toBe(1);
    expect(sampleValue(res.samples, 'http_requests_total', { method: 'POST', route: '/v0/customers', status_code: '201' })).toBe(1);
    expect(sampleValue(res.samples, 'http_requests_total', { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(sampleValue(res.samples, 'http_request_duration_seconds_count', { ...get, status_code: '200' })).toBe(2);
    expect(sampleValue(res.samples, 'http_request_duration_seconds_bucket', { ...get, status_code: '200', le: '+Inf' })).toBe(2);
    expect(res.body).not.toContain(id);
    expect(res.body).not.toContain('00000000-0000-4000-8000-000000000000');
    expect(res.body).not.toContain('no-such-thing');
  });

  it('counts GraphQL operations by type and name, and unnamed ones as anonymous', async () => {
    await api.graphql('query Endpoints { webhookEndpoints { totalCount } }');
    await api.graphql('query Endpoints { webhookEndpoints { totalCount } }');
    await api.graphql('{ webhookEndpoints { totalCount } }');
    const registered = await api.graphql('mutation Register($url: String!) { registerWebhook(input: { url: $url }) { __typename } }', {
      url: 'http://127.0.0.1:9/m',
    });
    expect(registered.body.data.registerWebhook.__typename).toBe('RegisterWebhookPayload');
    await api.graphql('query { __typename }');

    const { samples } = await scrape(t);
    expect(sampleValue(samples, 'graphql_operations_total', { operation_type: 'query', operation_name: 'Endpoints' })).toBe(2);
    expect(sampleValue(samples, 'graphql_operations_total', { operation_type: 'query', operation_name: 'anonymous' })).toBe(2);
    expect(sampleValue(samples, 'graphql_operations_total', { operation_type: 'mutation', operation_name: 'Register' })).toBe(1);
    expect(sampleValue(samples, 'http_requests_total', { method: 'POST', route: '/graphql', status_code: '200' })).toBe(5);
  });

  it('counts webhook delivery attempts that succeeded and that failed', async () => {
    const ok = await startReceiver(() => 200);
    const failing = await startReceiver(() => 500);
    receivers.push(ok, failing);
    const partner = t.client(await t.keyFor('Metrics Webhook Partner'));
    expect((await partner.post('/v0/webhooks', { url: ok.url })).status).toBe(201);
    expect((await partner.post('/v0/webhooks', { url: failing.url })).status).toBe(201);
    await partner.post('/v0/customers', { email: 'hooked@example.com', type: 'corporate', company_name: 'Hooked' });

    await waitFor(() => ok.received.length >= 1 && failing.received.length >= 2, 10_000, 'one delivery and two failed attempts');
    const { samples } = await waitFor(async () => {
      const scraped = await scrape(t);
      return sampleValue(scraped.samples, 'webhook_delivery_attempts_total', { result: 'failed' }) >= 2 && scraped;
    });
    expect(sampleValue(samples, 'webhook_delivery_attempts_total', { result: 'succeeded' })).toBe(1);
    expect(samples.map((s) => s.name)).toEqual(expect.arrayContaining(['outbox_undispatched_events', 'outbox_oldest_undispatched_age_seconds']));
  });

  it('keeps each instance its own counters (several instances in one process)', async () => {
    const other = await startRamp();
    try {
      const { samples } = await scrape(other);
      expect(sampleValue(samples, 'http_requests_total', { route: '/v0/customers/:customer_id' })).toBe(0);
      expect(sampleValue((await scrape(t)).samples, 'http_requests_total', { route: '/v0/customers/:customer_id' })).toBe(3);
    } finally {
      await other.close();
    }
  });
});

describe('with METRICS_TOKEN', () => {
  const token = 'metrics-token-0123456789abcdef';
  let t: TestRamp;
  beforeAll(async () => {
    t = await startRamp({ METRICS_TOKEN: token });
  });
  afterAll(() => t.close());

  it('answers 401 without the token or with another, and 200 with `Authorization: Bearer <token>`', async () => {
    expect((await scrape(t)).status).toBe(401);
    expect((await scrape(t, { authorization: `Bearer ${token}x` })).status).toBe(401);
    expect((await scrape(t, { authorization: t.key })).status).toBe(401);
    const res = await scrape(t, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(res.samples.length).toBeGreaterThan(0);
  });
});
