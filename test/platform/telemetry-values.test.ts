import { randomBytes } from 'node:crypto';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRamp, type TestRamp } from '../support/ramp.js';
import { subscribe, wsClient } from '../support/clients/subscriptions.js';
import { type Receiver, startReceiver, waitFor } from '../support/clients/webhook-receiver.js';
import { EXPORTED_SPAN_ATTRIBUTES } from '../../src/platform/observability/span-attributes.js';

const FAST_WEBHOOKS = { WEBHOOK_RETRY_TIME_SCALE: '0.001', WEBHOOK_POLL_INTERVAL_MS: '50', EVENTS_CATCHUP_INTERVAL_MS: '200' };

/** Everything an exported span says: its name, attributes, its events' attributes, its status message. */
const whatSpanSays = (span: ReadableSpan) =>
  JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events.map((e) => [e.name, e.attributes]), status: span.status.message ?? null });

describe('with OpenTelemetry export on, spans carry no values', () => {
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

  it('keeps every value a partner sent out of every span: REST, GraphQL, the KYC link and page, webhook secrets, the API key, graphql-ws', async () => {
    const unique = () => randomBytes(6).toString('hex');
    const values: Record<string, string> = {};
    const key = await t.keyFor(`Telemetry Partner ${unique()}`);
    values.apiKey = key;
    values.apiKeyPrefix = key.slice(0, 19);
    const api = t.client(key);

    // A graphql-ws subscription, open while the rest happens: its pushes run resolvers over the same rows.
    const socket = wsClient(t.url, key);
    const sub = subscribe(
      socket,
      'subscription Live { events(after: "0") { type entityId subject { __typename ... on CustomerSnapshot { email live { email firstName } } } } }',
      {},
      'events',
    );

    // REST: a customer.
    values.restEmail = `rest-${unique()}@example.com`;
    values.restFirstName = `Restfirst${unique()}`;
    values.restLastName = `Restlast${unique()}`;
    const rest = await api.post('/v0/customers', {
      email: values.restEmail,
      type: 'individual',
      first_name: values.restFirstName,
      last_name: values.restLastName,
    });
    expect(rest.status).toBe(201);
    const customerId = rest.body.customer_id as string;
    // A failure too: an error's message may quote what failed, and spans record errors.
    const again = await api.post('/v0/customers', { email: values.restEmail, type: 'individual', first_name: 'Again', last_name: 'Again' });
    expect(again.status).toBe(409);
    expect((await api.get(`/v0/customers?email=${encodeURIComponent(values.restEmail)}`)).status).toBe(200);

    // GraphQL: a mutation with variables, and a query with a literal.
    values.graphqlEmail = `gql-${unique()}@example.com`;
    values.graphqlFirstName = `Gqlfirst${unique()}`;
    values.graphqlLastName = `Gqllast${unique()}`;
    const created = await api.graphql(
      'mutation Create($input: CreateCustomerInput!) { createCustomer(input: $input) { ... on CreateCustomerPayload { customer { id } } } }',
      { input: { email: values.graphqlEmail, type: 'INDIVIDUAL', firstName: values.graphqlFirstName, lastName: values.graphqlLastName } },
    );
    expect(created.body.data.createCustomer.customer.id).toEqual(expect.any(String));
    const found = await api.graphql(`query Find { customers(email: "${values.graphqlEmail}") { edges { node { id } } } }`);
    expect(found.body.data.customers.edges).toHaveLength(1);

    // The KYC link and its page.
    const link = await api.post(`/v0/customers/${customerId}/kycs`, { redirect_uri: `https://partner.example/${unique()}` });
    expect(link.status).toBe(201);
    const url = new URL(link.body.kycs.kyc_flow_link);
    values.kycToken = url.searchParams.get('token')!;
    expect((await fetch(url)).status).toBe(200);

    // A webhook, registered with a secret of its own making, and delivered to.
    const registered = await api.post('/v0/webhooks', { url: receiver.url });
    expect(registered.status).toBe(201);
    values.webhookSecret = registered.body.secret ?? registered.body.signing_secret;
    const [stored] = await t.sql<{ secret_encrypted: string }>('select secret_encrypted from webhook_endpoints where id = ?', [registered.body.id]);
    values.webhookSecretEncrypted = stored!.secret_encrypted;
    const webhooked = await api.post('/v0/customers', { email: `hook-${unique()}@example.com`, type: 'corporate', company_name: `Hooked ${unique()}` });
    await waitFor(() => receiver.received.find((r) => r.json?.entity_id === webhooked.body.customer_id), 10_000, 'the webhook delivery');

    await waitFor(() => sub.items.find((e: any) => e.entityId === customerId), 10_000, 'the pushed event');
    sub.stop();
    await socket.dispose();

    for (const [name, value] of Object.entries(values)) expect(value, name).toEqual(expect.any(String));
    const spans = exporter.getFinishedSpans();
    // Every kind of work was traced: the requests, the operation, their SQL, the delivery and the push.
    for (const name of [
      /^POST \/v0\/customers$/,
      /^mutation Create$/,
      /^db (select|insert|update)/,
      /^webhook\.deliver$/,
      /^graphql\.subscription\.push$/,
      /^GET \/sandbox\/kyc/,
    ]) {
      expect(
        spans.some((s) => name.test(s.name)),
        String(name),
      ).toBe(true);
    }
    const leaks = spans.flatMap((span) => {
      const said = whatSpanSays(span);
      return Object.entries(values).flatMap(([name, value]) => (said.includes(value) ? [`${span.name}: ${name}`] : []));
    });
    expect(leaks).toEqual([]);
  });

  it('records a statement with placeholders where its values were', () => {
    const statements = exporter
      .getFinishedSpans()
      .filter((s) => s.name.startsWith('db '))
      .map((s) => String(s.attributes['db.query.text']));
    expect(statements.length).toBeGreaterThan(10);
    // No string literal survives, and the customer insert is there, parameterized.
    expect(statements.filter((sql) => /'[^']*'/.test(sql))).toEqual([]);
    expect(statements.some((sql) => /^insert into "customers"/.test(sql) && sql.includes('?'))).toBe(true);
  });

  it('exports only the attributes of its allow list', () => {
    const keys = new Set(exporter.getFinishedSpans().flatMap((s) => Object.keys(s.attributes)));
    expect([...keys].filter((k) => !EXPORTED_SPAN_ATTRIBUTES.has(k))).toEqual([]);
  });
});
