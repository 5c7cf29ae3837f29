import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/observability/logging.js';
import { capturedLog } from '../support/log-capture.js';
import { startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
const log = capturedLog();

beforeAll(async () => {
  t = await startRamp({}, { logger: createLogger('info', log.stream) });
});
afterAll(() => t.close());

/** Fastify's last line of the request sent with this X-Request-Id. */
const completed = (requestId: string) => log.lines().find((line) => line.reqId === requestId && line.msg === 'request completed');

describe("a GraphQL request's log line", () => {
  const send = (requestId: string, body: unknown) => t.client(t.key).request('POST', '/graphql', { body, headers: { 'x-request-id': requestId } });

  it('names its operation and its type: a named query, a named mutation, the chosen one of several', async () => {
    expect((await send('op-log-query', { query: 'query CustomerList { customers { totalCount } }' })).status).toBe(200);
    const mutation =
      'mutation AddCustomer { createCustomer(input: { email: "op-log@example.com", type: INDIVIDUAL, firstName: "Op", lastName: "Log" }) { __typename } }';
    expect((await send('op-log-mutation', { query: mutation })).status).toBe(200);
    const several = 'query First { partner { id } } query Second { customers { totalCount } }';
    expect((await send('op-log-several', { query: several, operationName: 'Second' })).status).toBe(200);

    expect(completed('op-log-query')).toMatchObject({ operationType: 'query', operationName: 'CustomerList', res: { statusCode: 200 } });
    expect(completed('op-log-mutation')).toMatchObject({ operationType: 'mutation', operationName: 'AddCustomer' });
    expect(completed('op-log-several')).toMatchObject({ operationType: 'query', operationName: 'Second' });
  });

  it('says an anonymous operation has no name, and names one that was refused before it ran', async () => {
    await send('op-log-anonymous', { query: '{ partner { id } }' });
    expect(completed('op-log-anonymous')).toMatchObject({ operationType: 'query', operationName: null });
    const nested = 'query TooBig { transfers(first: 100) { edges { node { customer { transfers(first: 100) { edges { node { id } } } } } } } }';
    const refused = await send('op-log-refused', { query: nested });
    expect(refused.body.errors[0].extensions.code).toBe('QUERY_COMPLEXITY');
    expect(completed('op-log-refused')).toMatchObject({ operationType: 'query', operationName: 'TooBig' });
  });
});
