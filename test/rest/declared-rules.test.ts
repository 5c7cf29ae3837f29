import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestRamp, startRamp } from '../support/ramp.js';
import { createCustomer, onrampQuoteBody } from '../support/data/transfers.js';
import { rawRequest } from '../support/clients/raw-request.js';

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('refusals in clear words, one pointer style, one code per rule', () => {
  let t: TestRamp;
  let customer: string;
  beforeAll(async () => {
    t = await startRamp();
    customer = await createCustomer(t.client(t.key));
  });
  afterAll(() => t?.close());

  it('answers a method this API does not know with 501 method_not_implemented, naming it, in the shape of the path', async () => {
    const v0 = await rawRequest(t.url, `FOO /v0/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.key}\r\n\r\n`);
    expect(v0).toMatch(/^HTTP\/1\.1 501 /);
    expect(v0).toContain('application/problem+json');
    expect(bodyOf(v0)).toMatchObject({ status: 501, code: 'method_not_implemented', detail: expect.stringMatching(/^FOO is not a method this API answers/) });
    const v1 = await rawRequest(t.url, 'BREW /v1/partners/accountInfo HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(v1).toMatch(/^HTTP\/1\.1 501 /);
    expect(bodyOf(v1)).toMatchObject({ success: false, status: 501, data: { error: 'method_not_implemented' } });
    expect(bodyOf(v1).data.detail).toMatch(/^BREW is not a method/);
  });

  it('points every query parameter error at the parameter’s name: /cursor of the audit log as /after of events', async () => {
    const api = t.client(t.key);
    const audit = await api.get('/v0/audit-events?cursor=bogus');
    expect(audit.status).toBe(400);
    expect(audit.body.errors).toEqual([expect.objectContaining({ pointer: '/cursor', code: 'invalid_cursor' })]);
    const events = await api.get('/v0/events?after=bogus');
    expect(events.body.errors).toEqual([expect.objectContaining({ pointer: '/after', code: 'invalid_cursor' })]);
    const limit = await api.get('/v0/customers?limit=0');
    expect(limit.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/limit']);
  });

  it('refuses a negative amount as not_positive, as it refuses zero, over REST and GraphQL', async () => {
    const api = t.client(t.key);
    for (const amount of ['-5', '-0.01', '0']) {
      const res = await api.post(`/v0/customers/${customer}/onramp-transfer/quote`, onrampQuoteBody({ source_amount: amount }));
      expect(res.status, amount).toBe(400);
      expect(res.body.errors, amount).toEqual([expect.objectContaining({ pointer: '/source_amount', code: 'not_positive' })]);
    }
    const graphql = await api.graphql(
      `mutation ($input: CreateOnrampQuoteInput!) { createOnrampQuote(input: $input) { __typename ... on ValidationError { fieldErrors { path code } } } }`,
      {
        input: {
          customerId: customer,
          sourceAmount: '-5',
          sourceCurrency: 'EUR',
          sourcePaymentRails: 'SEPA',
          destinationToken: 'USDC',
          destinationNetwork: 'POLYGON',
        },
      },
    );
    expect(graphql.body.data.createOnrampQuote.fieldErrors).toEqual([{ path: '/sourceAmount', code: 'not_positive' }]);
    const faucet = await api.post('/v0/sandbox/faucet', {
      network: 'polygon',
      token: 'usdc',
      address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      amount: '-5',
    });
    expect(faucet.body.errors).toEqual([expect.objectContaining({ pointer: '/amount', code: 'not_positive' })]);
  });
});
