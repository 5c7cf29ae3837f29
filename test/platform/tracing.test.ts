import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openTracing } from '../../src/platform/observability/tracing.js';
import { type ApiClient, startRamp, type TestRamp } from '../support/ramp.js';
import { type Receiver, type ReceivedRequest, startReceiver, waitFor } from '../support/clients/webhook-receiver.js';
import { subscribe, wsClient } from '../support/clients/subscriptions.js';

const FAST_WEBHOOKS = { WEBHOOK_RETRY_TIME_SCALE: '0.001', WEBHOOK_POLL_INTERVAL_MS: '50', EVENTS_CATCHUP_INTERVAL_MS: '200' };
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

const newTraceparent = () => ({ traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex') });
const traceIdOf = (header: unknown) => TRACEPARENT.exec(String(header))?.[1];

let partners = 0;
async function partnerWithWebhook(t: TestRamp, receiver: Receiver): Promise<ApiClient> {
  const api = t.client(await t.keyFor(`Traced Partner ${++partners}`));
  expect((await api.post('/v0/webhooks', { url: receiver.url })).status).toBe(201);
  return api;
}
const customerBody = () => ({ email: `traced${Math.random()}@example.com`, type: 'corporate', company_name: 'Traced' });
const deliveryOf = (receiver: Receiver, customerId: string) =>
  waitFor(() => receiver.received.find((r: ReceivedRequest) => r.json?.entity_id === customerId), 10_000, 'the webhook delivery');

describe('trace context with spans exported', () => {
  const exporter = new InMemorySpanExporter();
  let t: TestRamp;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startRamp(FAST_WEBHOOKS, { traceExporter: exporter });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const spansOf = (traceId: string) => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const named = (spans: ReadableSpan[], pattern: RegExp) => spans.filter((s) => pattern.test(s.name));
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it('continues a caller traceparent from the GraphQL request through its SQL and outbox write to the webhook delivery and its traceparent header', async () => {
    const api = await partnerWithWebhook(t, receiver);
    const caller = newTraceparent();
    const res = await api.request('POST', '/graphql', {
      body: {
        query: 'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { ... on CreateCustomerPayload { customer { databaseId } } } }',
        variables: { input: { email: `gql${Math.random()}@example.com`, type: 'INDIVIDUAL', firstName: 'Ada', lastName: 'Lovelace' } },
      },
      headers: { traceparent: `00-${caller.traceId}-${caller.spanId}-01`, tracestate: 'partner=abc' },
    });
    const customerId = res.body.data.createCustomer.customer.databaseId;
    const delivery = await deliveryOf(receiver, customerId);

    expect(traceIdOf(delivery.headers.traceparent)).toBe(caller.traceId);
    expect(delivery.headers.tracestate).toBe('partner=abc');
    const spans = await waitFor(() => {
      const found = spansOf(caller.traceId);
      return named(found, /^webhook\.deliver$/).length && named(found, /^POST \/graphql$/).length ? found : null;
    });
    const [request] = named(spans, /^POST \/graphql$/);
    const [operation] = named(spans, /^mutation createCustomer$/);
    const [outbox] = named(spans, /^outbox\.record$/);
    const [deliver] = named(spans, /^webhook\.deliver$/);
    // The caller's span is the request's parent; each step nests in the one that caused it.
    expect(parentOf(request!)).toBe(caller.spanId);
    expect(parentOf(operation!)).toBe(request!.spanContext().spanId);
    expect(operation!.attributes['graphql.operation.type']).toBe('mutation');
    const outboxSql = named(spans, /^db /).filter((s) => parentOf(s) === outbox!.spanContext().spanId);
    expect(outboxSql.some((s) => String(s.attributes['db.query.text']).includes('insert into events'))).toBe(true);
    expect(named(spans, /^db /).some((s) => parentOf(s) === operation!.spanContext().spanId)).toBe(true);
    // The delivery is the child of the outbox write, and the receiver's traceparent names the delivery's span.
    expect(parentOf(deliver!)).toBe(outbox!.spanContext().spanId);
    expect(delivery.headers.traceparent).toBe(`00-${caller.traceId}-${deliver!.spanContext().spanId}-01`);
    const [stored] = await t.sql<{ traceparent: string; tracestate: string }>('select traceparent, tracestate from events where entity_id = ?', [customerId]);
    expect(stored).toEqual({ traceparent: `00-${caller.traceId}-${outbox!.spanContext().spanId}-01`, tracestate: 'partner=abc' });
  });

  it('starts a trace for a REST request without traceparent, and its webhook carries that same trace id', async () => {
    const api = await partnerWithWebhook(t, receiver);
    const res = await api.post('/v0/customers', customerBody());
    expect(res.status).toBe(201);
    const delivery = await deliveryOf(receiver, res.body.customer_id);
    const traceId = traceIdOf(delivery.headers.traceparent)!;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const spans = await waitFor(() => (named(spansOf(traceId), /^webhook\.deliver$/).length ? spansOf(traceId) : null));
    const [request] = named(spans, /^POST \/v0\/customers$/);
    expect(request).toBeDefined();
    expect(parentOf(request!)).toBeUndefined();
    expect(named(spans, /^outbox\.record$/)).toHaveLength(1);
    expect(named(spans, /^db /).length).toBeGreaterThan(1);
  });

  it('pushes a subscription event in a span of the trace of the request that caused it', async () => {
    const key = await t.keyFor(`Traced Subscriber ${++partners}`);
    const client = wsClient(t.url, key);
    const sub = subscribe(client, 'subscription { events(after: "0") { type entityId } }', {}, 'events');
    try {
      const caller = newTraceparent();
      const res = await t.client(key).post('/v0/customers', customerBody(), { traceparent: `00-${caller.traceId}-${caller.spanId}-01` });
      await waitFor(() => sub.items.find((e: any) => e.entityId === res.body.customer_id), 10_000, 'the pushed event');
      const push = await waitFor(() => named(spansOf(caller.traceId), /^graphql\.subscription\.push$/)[0]);
      const [outbox] = named(spansOf(caller.traceId), /^outbox\.record$/);
      expect(parentOf(push)).toBe(outbox!.spanContext().spanId);
    } finally {
      sub.stop();
      await client.dispose();
    }
  });
});

describe('trace context with export off', () => {
  const exporter = new InMemorySpanExporter();
  let t: TestRamp;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    // An exporter is there, but OTEL_SDK_DISABLED wins: no spans are made.
    t = await startRamp({ ...FAST_WEBHOOKS, OTEL_SDK_DISABLED: 'true' }, { traceExporter: exporter });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('exports no span, yet hands the caller traceparent on to the webhook unchanged', async () => {
    const api = await partnerWithWebhook(t, receiver);
    const traceparent = `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
    const res = await api.post('/v0/customers', customerBody(), { traceparent, tracestate: 'partner=xyz' });
    expect(res.status).toBe(201);
    const delivery = await deliveryOf(receiver, res.body.customer_id);
    expect(delivery.headers.traceparent).toBe(traceparent);
    expect(delivery.headers.tracestate).toBe('partner=xyz');
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('sends no traceparent for a request that carried none, and ignores a malformed one', async () => {
    const api = await partnerWithWebhook(t, receiver);
    const plain = await api.post('/v0/customers', customerBody());
    const malformed = await api.post('/v0/customers', customerBody(), { traceparent: 'not-a-trace' });
    expect([plain.status, malformed.status]).toEqual([201, 201]);
    for (const res of [plain, malformed]) expect((await deliveryOf(receiver, res.body.customer_id)).headers.traceparent).toBeUndefined();
  });
});

describe('OTLP export', () => {
  const otlpUrlOf = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env }).otlpTracesUrl;

  it('goes to the traces endpoint as given, else to the base endpoint /v1/traces, and nowhere when unset or switched off', async () => {
    expect(otlpUrlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' })).toBe('http://127.0.0.1:4318/v1/traces');
    const both = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:9999/traces' };
    expect(otlpUrlOf(both)).toBe('http://127.0.0.1:9999/traces');
    expect(otlpUrlOf({})).toBeNull();
    expect(otlpUrlOf({ ...both, OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(otlpUrlOf({ ...both, OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
    expect((await openTracing(loadConfig({ NODE_ENV: 'test' }))).enabled).toBe(false);
  });

  it('sends the spans of a request to an OTLP/HTTP collector, flushed when Ramp stops', async () => {
    const collector = await startReceiver();
    const t = await startRamp({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collector.url, OTEL_SERVICE_NAME: 'ramp-under-test' });
    let running = true;
    try {
      const caller = newTraceparent();
      const res = await t.client(t.key).post('/v0/customers', customerBody(), { traceparent: `00-${caller.traceId}-${caller.spanId}-01` });
      expect(res.status).toBe(201);
      running = false;
      await t.close();
      const exported = collector.received.map((r) => r.body).join('\n');
      expect(exported).toContain(caller.traceId);
      expect(exported).toContain('ramp-under-test');
      expect(exported).toContain('outbox.record');
    } finally {
      if (running) await t.close();
      await collector.close();
    }
  });
});

describe('OpenTelemetry packages', () => {
  it('are installed once each, so the API and the SDK share one copy', () => {
    const tree = JSON.parse(
      execFileSync('npm', ['ls', '--all', '--json', '@opentelemetry/api', '@opentelemetry/core', '@opentelemetry/sdk-trace'], { encoding: 'utf8' }),
    );
    const versions = new Map<string, Set<string>>();
    const walk = (deps: Record<string, { version: string; dependencies?: Record<string, unknown> }> = {}) => {
      for (const [name, dep] of Object.entries(deps)) {
        if (name.startsWith('@opentelemetry/')) versions.set(name, (versions.get(name) ?? new Set()).add(dep.version));
        walk(dep.dependencies as never);
      }
    };
    walk(tree.dependencies);
    for (const name of ['@opentelemetry/api', '@opentelemetry/core', '@opentelemetry/sdk-trace']) expect([name, versions.get(name)?.size]).toEqual([name, 1]);
  });
});
