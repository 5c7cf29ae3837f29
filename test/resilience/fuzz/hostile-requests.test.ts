import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLSchema } from 'graphql';
import { features } from '../../../src/features.js';
import { buildSchema } from '../../../src/graphql/schema.js';
import { startRamp, type TestRamp } from '../../support/ramp.js';
import { type FuzzAnswer, type FuzzRequest, contractBreach, inParallel, send, sendRaw } from './answers.js';
import { hostileGraphQLRequest } from './graphql-operations.js';
import { headerText } from './hostile-values.js';
import { type Route, type Seeded, hostileRequest, routeTable, seed } from './rest-routes.js';

/**
 * Tens of thousands of generated bad requests at every REST route and GraphQL operation.
 * Every answer: no 5xx, no hang, in the shape its prefix documents, with a stable code.
 * FUZZ_SEED replays a run (each failure message names it); FUZZ_SCALE multiplies the request counts.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const CONCURRENCY = 16;
const COUNTS = { rest: Math.round(14_000 * SCALE), graphql: Math.round(5_000 * SCALE), raw: Math.round(1_200 * SCALE) };

let t: TestRamp;
let routes: Route[];
let seeded: Seeded;
let sent = 0;
let schema: GraphQLSchema;

beforeAll(async () => {
  t = await startRamp();
  schema = await buildSchema(features);
  routes = routeTable(t.ramp.http.app);
  seeded = await seed(t.client(t.key));
});
afterAll(async () => {
  await t?.close();
});

const describeRequest = (r: FuzzRequest) =>
  `${r.method} ${r.path.slice(0, 200)} headers=${JSON.stringify(r.headers).slice(0, 200)} body=${JSON.stringify(r.body?.slice(0, 300))}`;

/** Sends every request, CONCURRENCY at a time, and returns the distinct contract breaches. */
async function fire(requests: FuzzRequest[], transport: (r: FuzzRequest) => Promise<FuzzAnswer> = (r) => send(t.url, r)) {
  const breaches = new Map<string, string>();
  await inParallel(CONCURRENCY, requests, async (request) => {
    sent++;
    let breach: string | null;
    let answer: FuzzAnswer | undefined;
    try {
      answer = await transport(request);
      breach = contractBreach(request, answer);
    } catch (error) {
      breach = `no answer: ${(error as Error).message}`;
    }
    const kind = `${breach} (${request.method} ${request.path
      .split('?')[0]!
      .replace(/[0-9a-f-]{36}/gi, ':id')
      .slice(0, 80)})`;
    if (breach && !breaches.has(kind)) breaches.set(kind, `${describeRequest(request)} → ${answer?.status} ${answer?.text.slice(0, 300)}`);
  });
  return [...breaches].map(([kind, example]) => `${kind}\n    e.g. ${example}`);
}

describe(`hostile requests (FUZZ_SEED=${SEED})`, () => {
  it('fuzzes a route table that covers the spec and the extensions', () => {
    const paths = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const expected of [
      'POST /v0/customers',
      'PUT /v0/customers/:customer_id',
      'POST /v0/customers/:customer_id/offramp-transfer/:transfer_id/complete',
      'POST /v1/partners/forensics/whitelist/bankAccount',
      'POST /auth/importKYC',
      'DELETE /v0/webhooks/:webhookId',
      'POST /graphql',
    ]) {
      expect(paths).toContain(expected);
    }
  });

  it(`answers ${COUNTS.rest} broken REST requests in the documented shapes`, async () => {
    const rest = routes.filter((r) => r.path !== '/graphql');
    const requests = fc.sample(hostileRequest(rest, seeded, t.key), { numRuns: COUNTS.rest, seed: SEED });
    expect(await fire(requests)).toEqual([]);
  });

  it(`answers ${COUNTS.graphql} broken GraphQL operations with coded errors or typed results`, async () => {
    const ids = Object.values(seeded.ids).flat();
    const requests = fc.sample(hostileGraphQLRequest(schema, ids, t.key), { numRuns: COUNTS.graphql, seed: SEED + 1 });
    expect(await fire(requests)).toEqual([]);
  });

  it(`answers ${COUNTS.raw} requests with control characters and oversized headers in the path's shape`, async () => {
    const raw = fc.record({
      path: fc.constantFrom('/v0/customers', '/v1/partners/accountInfo', '/auth/importKYC', '/graphql', '//v1/partners/accountInfo'),
      header: fc.constantFrom('Authorization', 'Idempotency-Key', 'X-Request-Id', 'Content-Type'),
      value: fc.oneof(
        fc
          .tuple(headerText, fc.constantFrom('\u0000', '\u0001', '\u001b', '\u007f', '\r', '\n'), headerText)
          .map(([a, c, b]) => a.slice(0, 50) + c + b.slice(0, 50)),
        fc.integer({ min: 17_000, max: 40_000 }).map((n) => 'h'.repeat(n)),
      ),
    });
    const requests = fc.sample(raw, { numRuns: COUNTS.raw, seed: SEED + 2 }).map((r) => ({
      method: 'POST',
      path: r.path,
      headers: {},
      body: `POST ${r.path} HTTP/1.1\r\nHost: ramp\r\nAuthorization: Bearer ${t.key}\r\n${r.header}: ${r.value}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
    }));
    expect(await fire(requests, (r) => sendRaw(t.url, r.body!))).toEqual([]);
  });

  it('sent at least 20,000 requests and is still healthy', async () => {
    expect(sent).toBeGreaterThanOrEqual(20_000 * Math.min(SCALE, 1));
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
  });
});
