import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Ramp } from '../../src/app.js';
import { type ApiResponse, apiClient, onPostgres, startRamp, type TestRamp, uniqueRedisPrefix } from '../support/ramp.js';
import { REDIS_URL, twoInstancesOnOneRedis, useTestRedis } from '../support/shared-redis.js';

// Shopify's model: every operation is charged its cost to a leaky bucket per API key (docs/api/security.md).
const SIZE = 60;
const RATE = 20;
const BUDGET = { GRAPHQL_COST_BUCKET_SIZE: String(SIZE), GRAPHQL_COST_RESTORE_RATE: String(RATE) };
// 11 points: a connection (1) and ten endpoints (1 each).
const WEBHOOKS = 'query Webhooks { webhookEndpoints(first: 10) { edges { node { id url } } } }';
let partners = 0;

const costOf = (res: ApiResponse) => res.body.extensions?.cost;

/** Spends the key's bucket with one query until it is refused; returns the refusal. */
async function spendUntilThrottled(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
  for (let n = 0; n < 100; n++) {
    const res = await send();
    if (res.status === 429) return res;
    expect(res.status).toBe(200);
  }
  throw new Error('never throttled');
}

describe(`with GRAPHQL_COST_BUCKET_SIZE=${SIZE} and GRAPHQL_COST_RESTORE_RATE=${RATE}, in memory`, () => {
  let t: TestRamp;
  beforeAll(async () => {
    t = await startRamp(BUDGET);
  });
  afterAll(() => t.close());
  const newKey = () => t.keyFor(`Budget Partner ${++partners}`);

  it('carries extensions.cost on every answer: the requested and actual cost and the bucket after it', async () => {
    const api = t.client(await newKey());
    const first = await api.graphql(WEBHOOKS);
    expect(first.status).toBe(200);
    const cost = costOf(first);
    expect(cost).toEqual({
      requestedQueryCost: expect.any(Number),
      actualQueryCost: cost.requestedQueryCost,
      throttleStatus: { maximumAvailable: SIZE, currentlyAvailable: expect.any(Number), restoreRate: RATE },
    });
    expect(cost.requestedQueryCost).toBeGreaterThan(0);
    expect(cost.throttleStatus.currentlyAvailable).toBe(SIZE - cost.requestedQueryCost);
    // A page costs by its size: first: 5 costs more than first: 1.
    const page = (n: number) => api.graphql(`query Page { customers(first: ${n}) { edges { node { id email } } } }`);
    expect(costOf(await page(5)).requestedQueryCost).toBeGreaterThan(costOf(await page(1)).requestedQueryCost);
  });

  it('charges a mutation a fixed cost on top of what it selects', async () => {
    const api = t.client(await newKey());
    const res = await api.graphql(
      'mutation Create($input: CreateCustomerInput!) { createCustomer(input: $input) { ... on CreateCustomerPayload { customer { id } } } }',
      {
        input: { email: `cost-${Date.now()}@example.com`, type: 'INDIVIDUAL', firstName: 'Ada', lastName: 'Cost' },
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.createCustomer.customer.id).toEqual(expect.any(String));
    expect(costOf(res).requestedQueryCost).toBeGreaterThanOrEqual(10);
  });

  it("refuses an operation over the key's budget with 429 THROTTLED and Retry-After, unrun, while another key is unaffected", async () => {
    const api = t.client(await newKey());
    const throttled = await spendUntilThrottled(() => api.graphql(WEBHOOKS));
    const retryAfter = Number(throttled.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(throttled.body.data).toBeUndefined();
    expect(throttled.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Throttled/), extensions: { code: 'THROTTLED' } })]);
    const cost = costOf(throttled);
    expect(cost.actualQueryCost).toBe(0);
    expect(cost.throttleStatus.currentlyAvailable).toBeLessThan(cost.requestedQueryCost);

    const other = await t.client(await newKey()).graphql(WEBHOOKS);
    expect(other.status).toBe(200);
    expect(costOf(other).throttleStatus.currentlyAvailable).toBe(SIZE - costOf(other).requestedQueryCost);
  });

  it('refills the bucket at the restore rate: after Retry-After the operation runs again', async () => {
    const api = t.client(await newKey());
    const throttled = await spendUntilThrottled(() => api.graphql(WEBHOOKS));
    await new Promise((resolve) => setTimeout(resolve, Number(throttled.headers.get('retry-after')) * 1000 + 100));
    const again = await api.graphql(WEBHOOKS);
    expect(again.status).toBe(200);
    expect(again.body.errors).toBeUndefined();
  });

  it('refuses an operation that costs more than a full bucket as MAX_COST_EXCEEDED (400)', async () => {
    const res = await t.client(await newKey()).graphql('query Big { customers(first: 100) { edges { node { id email } } } }');
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0].extensions.code).toBe('MAX_COST_EXCEEDED');
  });

  it('answers REST with the RateLimit-Policy and RateLimit fields of its request limit', async () => {
    const limited = await startRamp({ RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const res = await limited.client(limited.key).get('/v0/webhooks');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60');
      expect(res.headers.get('ratelimit')).toMatch(/^"default";r=4;t=\d+$/);
    } finally {
      await limited.close();
    }
  });
});

describe('with REDIS_URL', () => {
  const { redis, clean } = useTestRedis();

  it("keeps a key's bucket in Redis under <RATE_LIMIT_REDIS_PREFIX>cost:<key id>", async () => {
    const prefix = uniqueRedisPrefix();
    const t = await startRamp({ ...BUDGET, REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix });
    try {
      const key = await t.keyFor('Redis Budget Partner');
      const res = await t.client(key).graphql(WEBHOOKS);
      const [apiKey] = await t.sql<{ id: string }>('select id from api_keys where prefix = ?', [key.slice(0, 19)]);
      const stored = await redis.hgetall(`${prefix}cost:${apiKey!.id}`);
      expect(Math.floor(Number(stored.available))).toBe(costOf(res).throttleStatus.currentlyAvailable);
      expect(await redis.pttl(`${prefix}cost:${apiKey!.id}`)).toBeGreaterThan(0);
    } finally {
      await t.close();
      await clean(prefix);
    }
  });

  it('falls back to a bucket in memory when Redis is unreachable', async () => {
    const t = await startRamp({ ...BUDGET, REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_REDIS_PREFIX: uniqueRedisPrefix() });
    try {
      const api = t.client(await t.keyFor('Fallback Budget Partner'));
      const first = await api.graphql(WEBHOOKS);
      expect(first.status).toBe(200);
      expect(costOf(first).throttleStatus.currentlyAvailable).toBe(SIZE - costOf(first).requestedQueryCost);
      expect((await spendUntilThrottled(() => api.graphql(WEBHOOKS))).body.errors[0].extensions.code).toBe('THROTTLED');
    } finally {
      await t.close();
    }
  });

  // Several instances, one bucket per key.
  describe.runIf(onPostgres)('two instances on one database and one Redis', () => {
    const prefix = uniqueRedisPrefix();
    let shared: Awaited<ReturnType<typeof twoInstancesOnOneRedis>>;
    let instances: Ramp[] = [];
    let urls: string[] = [];
    beforeAll(async () => {
      // A slow refill, so what one instance took is still missing when the other answers.
      shared = await twoInstancesOnOneRedis(prefix, { ...BUDGET, GRAPHQL_COST_RESTORE_RATE: '1' });
      ({ instances, urls } = shared);
    });
    afterAll(async () => {
      await shared.close();
      await clean(prefix);
    });

    it('spends one bucket per key from both instances', async () => {
      const key = instances[0]!.demoKey!;
      const [a, b] = urls.map((url) => apiClient(url, key));
      const onA = await a!.graphql(WEBHOOKS);
      const onB = await b!.graphql(WEBHOOKS);
      const cost = costOf(onA).requestedQueryCost;
      expect(costOf(onB).throttleStatus.currentlyAvailable).toBeLessThanOrEqual(costOf(onA).throttleStatus.currentlyAvailable - cost + 1);
      const throttled = await spendUntilThrottled(() => a!.graphql(WEBHOOKS));
      expect(throttled.status).toBe(429);
      const onBAfter = await b!.graphql(WEBHOOKS);
      expect(onBAfter.status).toBe(429);
      expect(onBAfter.body.errors?.[0].extensions.code).toBe('THROTTLED');
    });
  });
});

/** The worked examples of the partner guide's "Cost of an operation": each row's operation and the cost it states. */
function documentedExamples(): { operation: string; cost: number }[] {
  const guide = readFileSync(new URL('../../docs/api/graphql.md', import.meta.url), 'utf8');
  const section = guide.slice(guide.indexOf('## Cost of an operation'), guide.indexOf('## Limits and protection'));
  return [...section.matchAll(/^\| `(.+)` \| ([\d,]+) \|/gm)].map((row) => ({ operation: row[1]!, cost: Number(row[2]!.replaceAll(',', '')) }));
}

describe('prices, with the default budget (5,000 points, 250 a second)', () => {
  let t: TestRamp;
  beforeAll(async () => {
    t = await startRamp({ GRAPHQL_COST_BUCKET_SIZE: '5000', GRAPHQL_COST_RESTORE_RATE: '250' });
  });
  afterAll(() => t.close());
  const newKey = () => t.keyFor(`Priced Partner ${++partners}`);
  const RELAY_PAGE =
    'query Page($after: String) { transfers(first: 100, after: $after) { pageInfo { hasNextPage endCursor } edges { cursor node { id status amount customer { id email } quote { id sourceAmount } } } } }';

  it("charges each of the partner guide's worked examples exactly the cost the guide states", async () => {
    const examples = documentedExamples();
    expect(examples.length).toBeGreaterThanOrEqual(8);
    const api = t.client(await newKey());
    for (const { operation, cost } of examples) {
      const res = await api.graphql(operation);
      expect(res.status, operation).toBe(200);
      expect(res.body.errors, operation).toBeUndefined();
      expect({ operation, cost: costOf(res).requestedQueryCost }).toEqual({ operation, cost });
    }
  });

  it('prices a Relay page of 100 transfers with their customers and quotes at 301, so ten pages in a row fit the default bucket', async () => {
    const api = t.client(await newKey());
    for (let page = 0; page < 10; page++) {
      const res = await api.graphql(RELAY_PAGE);
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(costOf(res).requestedQueryCost).toBe(301);
    }
  });

  it('charges the mutation surcharge per mutation field wherever it is written: directly, in a named fragment, in an inline fragment', async () => {
    const api = t.client(await newKey());
    const create = (alias: string) =>
      `${alias}: createCustomer(input: { email: "${alias}-${randomUUID()}@example.com", type: INDIVIDUAL, firstName: "Ada", lastName: "Cost" }) { ... on CreateCustomerPayload { customer { id } } }`;
    const three = () => ['a', 'b', 'c'].map(create).join(' ');
    const direct = await api.graphql(`mutation { ${three()} }`);
    const named = await api.graphql(`mutation { ...F } fragment F on Mutation { ${three()} }`);
    const inline = await api.graphql(`mutation { ... on Mutation { ${three()} } }`);
    for (const res of [direct, named, inline]) {
      expect(res.body.errors).toBeUndefined();
      expect(Object.keys(res.body.data)).toEqual(['a', 'b', 'c']);
    }
    // Each: 10 for the write, 1 for its result, 1 for the customer.
    expect([direct, named, inline].map((res) => costOf(res).requestedQueryCost)).toEqual([36, 36, 36]);
  });

  it('charges __typename nothing, so a client that adds it everywhere (urql, Apollo) pays what the document without it costs', async () => {
    const api = t.client(await newKey());
    const plain = await api.graphql('{ transfers(first: 50) { edges { node { id customer { id } } } } }');
    const typed = await api.graphql(
      '{ __typename transfers(first: 50) { __typename edges { __typename node { __typename id customer { __typename id } } } } }',
    );
    expect(costOf(typed).requestedQueryCost).toBe(costOf(plain).requestedQueryCost);
  });

  it('gives an answer in parts (@defer) its extensions.cost in the first part', async () => {
    const key = await newKey();
    const response = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'multipart/mixed' },
      body: JSON.stringify({ query: '{ partner { id ... @defer { name } } customers(first: 10) { edges { node { id } } } }' }),
    });
    expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
    const parts = (await response.text())
      .split(/\r\n---/)
      .map((part) => part.slice(part.indexOf('\r\n\r\n') + 4).trim())
      .filter((part) => part.startsWith('{'))
      .map((part) => JSON.parse(part));
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(parts[0].hasNext).toBe(true);
    expect(parts[0].extensions.cost).toEqual({
      requestedQueryCost: 12,
      actualQueryCost: 12,
      throttleStatus: { maximumAvailable: 5000, currentlyAvailable: expect.any(Number), restoreRate: 250 },
    });
  });

  it('answers an operation over the complexity limit with HTTP 400 QUERY_COMPLEXITY, errors alone, whatever the client accepts', async () => {
    const api = t.client(await newKey());
    const nested = '{ transfers(first: 100) { edges { node { customer { transfers(first: 100) { edges { node { id } } } } } } } }';
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const res = await api.request('POST', '/graphql', { body: { query: nested }, headers: { accept } });
      expect(res.status, accept).toBe(400);
      expect(res.body.data, accept).toBeUndefined();
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'QUERY_COMPLEXITY', queryComplexity: { max: 5000, actual: 10301 } });
    }
    // The same figure through a variable, checked with this request's value.
    const sized = await api.graphql(
      'query($n: Int) { transfers(first: $n) { edges { node { customer { transfers(first: $n) { edges { node { id } } } } } } } }',
      { n: 100 },
    );
    expect(sized.status).toBe(400);
    expect(sized.body.errors?.[0].extensions.code).toBe('QUERY_COMPLEXITY');
  });
});
