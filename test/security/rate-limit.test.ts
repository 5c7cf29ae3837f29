import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ramp } from '../../src/app.js';
import { issueApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { type ApiClient, type ApiResponse, apiClient, onPostgres, startRamp, type TestRamp, uniqueRedisPrefix } from '../support/ramp.js';
import { REDIS_URL, twoInstancesOnOneRedis, useTestRedis } from '../support/shared-redis.js';

// 429 with Retry-After. docs/operations/limits.md "Rate limits".
const LIMIT = 5;
let partners = 0;

const newKey = (t: TestRamp) => t.keyFor(`Limited Partner ${++partners}`);

/** Sends one request after the other (the n-th is told its number). */
async function spend(times: number, send: (n: number) => Promise<ApiResponse>) {
  const answers: ApiResponse[] = [];
  for (let n = 0; n < times; n++) answers.push(await send(n));
  return answers;
}

function expectRateLimited(res: ApiResponse) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers.get('ratelimit-limit')).toBe(String(LIMIT));
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
  expect(res.headers.get('x-request-id')).toBeTruthy();
}

describe(`with RATE_LIMIT_PER_MINUTE=${LIMIT}, counted in memory`, () => {
  let t: TestRamp;
  beforeAll(async () => {
    t = await startRamp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(() => t.close());

  it('counts down RateLimit-Remaining, then answers the sixth /v0 request of a key 429 in problem+json', async () => {
    const api = t.client(await newKey(t));
    const answers = await spend(LIMIT, () => api.get('/v0/webhooks'));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
    expect(answers[0]!.headers.get('ratelimit-limit')).toBe('5');
    expect(Number(answers[0]!.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect(answers[0]!.headers.get('retry-after')).toBeNull();

    const limited = await api.get('/v0/webhooks');
    expectRateLimited(limited);
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(limited.body).toEqual({
      type: `${t.url}/docs#rate_limited`,
      title: 'Too Many Requests',
      status: 429,
      detail: expect.stringMatching(/^Rate limit of 5 requests per minute exceeded; retry in \d+ s$/),
      code: 'rate_limited',
      request_id: limited.headers.get('x-request-id'),
    });
  });

  it('answers the sixth /v1 request of a key 429 in the Encryptus envelope with EN-RATE-429', async () => {
    const api = t.client(await newKey(t));
    const answers = await spend(LIMIT, () => api.get('/v1/partners/accountInfo'));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const limited = await api.get('/v1/partners/accountInfo');
    expectRateLimited(limited);
    expect(limited.body).toMatchObject({
      success: false,
      status: 429,
      code: 'EN-RATE-429',
      message: 'Too Many Requests',
      data: { error: 'rate_limited', request_id: limited.headers.get('x-request-id') },
    });
  });

  it('gives a key one budget across REST and GraphQL, and answers /graphql 429 with a RATE_LIMITED GraphQL error', async () => {
    const api = t.client(await newKey(t));
    await spend(3, () => api.get('/v0/webhooks'));
    const graphql = await spend(2, () => api.graphql('query Webhooks { webhookEndpoints { totalCount } }'));
    expect(graphql.map((r) => [r.status, r.body.errors])).toEqual([
      [200, undefined],
      [200, undefined],
    ]);
    const limited = await api.graphql('query Webhooks { webhookEndpoints { totalCount } }');
    expectRateLimited(limited);
    expect(limited.body).toEqual({
      errors: [
        {
          message: expect.stringMatching(/^Rate limit of 5 requests per minute exceeded/),
          extensions: { code: 'RATE_LIMITED', retryAfter: Number(limited.headers.get('retry-after')), requestId: limited.headers.get('x-request-id') },
        },
      ],
    });
    expect((await api.post('/v0/customers', { email: 'late@example.com', type: 'individual' })).status).toBe(429);
  });

  it.each([
    ['a REST read', 'read.listWebhooks', (api: ApiClient) => api.get('/v0/webhooks')],
    ['a GraphQL request', 'graphql.request', (api: ApiClient) => api.graphql('query Webhooks { webhookEndpoints { totalCount } }')],
  ])("records a key's first refusal of its window in the audit log, and no more: %s", async (_, action, send) => {
    const key = await newKey(t);
    const api = t.client(key);
    await spend(LIMIT, () => send(api));
    const refused = await spend(3, () => send(api));
    expect(refused.map((r) => r.status)).toEqual([429, 429, 429]);
    const rows = await t.sql('select action, outcome, code, api_key_prefix, request_id from audit_events where api_key_prefix = ?', [key.slice(0, 19)]);
    expect(rows).toEqual([
      { action, outcome: 'refused', code: 'rate_limited', api_key_prefix: key.slice(0, 19), request_id: refused[0]!.headers.get('x-request-id') },
    ]);
  });

  it("leaves another partner's key its whole budget when one key is used up", async () => {
    const spent = t.client(await newKey(t));
    await spend(LIMIT, () => spent.get('/v0/webhooks'));
    expect((await spent.get('/v0/webhooks')).status).toBe(429);

    const other = t.client(await t.keyFor('Other Partner', 'production'));
    const res = await other.get('/v0/webhooks');
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).toBe('4');
  });

  it('never limits /healthz, /readyz, /docs or /metrics', async () => {
    const anonymous = apiClient(t.url, null);
    for (const path of ['/healthz', '/readyz', '/docs', '/metrics']) {
      const answers = await spend(LIMIT + 3, () => anonymous.get(path));
      expect(answers.map((r) => r.status)).toEqual(Array(LIMIT + 3).fill(200));
      expect(answers.every((r) => r.headers.get('ratelimit-limit') === null)).toBe(true);
    }
  });

  it('limits requests without a valid key by client address: five 401s, then 429', async () => {
    const wrong = apiClient(t.url, 'rk_sandbox_AAAAAAAAbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb');
    const answers = await spend(LIMIT, () => wrong.get('/v0/webhooks'));
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    const limited = await apiClient(t.url, null).get('/v0/webhooks');
    expectRateLimited(limited);
    expect(limited.body.code).toBe('rate_limited');
    // a valid key is counted by itself, not by the address
    expect((await t.client(await newKey(t)).get('/v0/webhooks')).status).toBe(200);
  });
});

describe('with REDIS_URL', () => {
  const { redis, keysUnder, clean } = useTestRedis();

  it('counts in Redis under RATE_LIMIT_REDIS_PREFIX, by key id (never the secret), and closes its connection on shutdown', async () => {
    const prefix = uniqueRedisPrefix();
    const t = await startRamp({ RATE_LIMIT_PER_MINUTE: String(LIMIT), REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix });
    try {
      const key = await newKey(t);
      const api = t.client(key);
      await spend(LIMIT, () => api.get('/v0/webhooks'));
      expect((await api.get('/v0/webhooks')).status).toBe(429);
      const [apiKey] = await t.sql<{ id: string }>('select id from api_keys where prefix = ?', [key.slice(0, 19)]);
      expect(await keysUnder(prefix)).toEqual([`${prefix}key:${apiKey!.id}`]);
      expect(await redis.get(`${prefix}key:${apiKey!.id}`)).toBe('6');
      const ttl = await redis.pttl(`${prefix}key:${apiKey!.id}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(await connectionsNamed(redis, prefix)).toBe(1);
    } finally {
      await t.close();
      await clean(prefix);
    }
    expect(await connectionsNamed(redis, prefix)).toBe(0);
  });

  it('lets requests through, and counts it in /metrics, when Redis is unreachable (fails open)', async () => {
    const t = await startRamp({ RATE_LIMIT_PER_MINUTE: '1', REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_REDIS_PREFIX: uniqueRedisPrefix() });
    try {
      const api = t.client(await newKey(t));
      const answers = await spend(3, () => api.get('/v0/webhooks'));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      const metrics = await apiClient(t.url, null).get('/metrics');
      expect(metrics.body).toMatch(/^rate_limit_fail_open_total 3$/m);
    } finally {
      await t.close();
    }
  });

  // Several instances, one budget.
  describe.runIf(onPostgres)('two instances on one database', () => {
    const prefix = uniqueRedisPrefix();
    let shared: Awaited<ReturnType<typeof twoInstancesOnOneRedis>>;
    let instances: Ramp[] = [];
    beforeAll(async () => {
      shared = await twoInstancesOnOneRedis(prefix, { RATE_LIMIT_PER_MINUTE: String(LIMIT) });
      ({ instances } = shared);
    });
    afterAll(async () => {
      await shared.close();
      await clean(prefix);
    });

    it('shares one budget per key between the instances', async () => {
      const em = instances[0]!.db.fork();
      const key = await issueApiKey(em, (await ensurePartner(em, 'Scaled Partner')).partner, 'sandbox');
      const [a, b]: ApiClient[] = instances.map((ramp) => apiClient(ramp.url(), key));
      const answers = await spend(LIMIT, (n) => (n % 2 ? b! : a!).get('/v0/webhooks'));
      expect(answers.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
      expectRateLimited(await a!.get('/v0/webhooks'));
      expectRateLimited(await b!.get('/v0/webhooks'));
    });
  });
});

/** Ramp names its Redis connection after the prefix (CLIENT LIST shows which deployment holds it). */
async function connectionsNamed(redis: Redis, prefix: string) {
  const list = (await redis.client('LIST')) as string;
  return list.split('\n').filter((line) => line.includes(` name=ramp-rate-limit:${prefix} `)).length;
}
