import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Actor } from '../../domain/environment.js';
import { STATUS_OF_CODE } from '../../domain/error-codes.js';
import { RateLimitedError } from '../../domain/errors.js';
import type { Authenticate } from './auth.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../observability/logging.js';
import type { Metrics } from '../observability/metrics.js';
import { closeRedis, connectRedis } from '../runtime/redis.js';

const WINDOW_MS = 60_000;
/** The one quota policy's name in the RateLimit-Policy and RateLimit fields. */
const POLICY = 'default';
/** The API: limited. Health, readiness, docs, metrics and the sandbox KYC page are not. */
const LIMITED = /^\/(v0|v1|auth)\/|^\/graphql(\?|$)/;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The rate limiter refused this request, and it is the key's first refusal of its window on this instance: the
     * one the audit log records on a read (decision 019), so a throttled key shows in the log at most once a window.
     */
    firstThrottled: boolean;
  }
}

type RateLimitConfig = Pick<Config, 'NODE_ENV' | 'RATE_LIMIT_PER_MINUTE' | 'REDIS_URL' | 'RATE_LIMIT_REDIS_PREFIX'>;

/** Requests per minute per key when RATE_LIMIT_PER_MINUTE is not set. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

/** Requests per minute in force: RATE_LIMIT_PER_MINUTE, else 600 (off under NODE_ENV=test, whose suites fire bursts). */
export const rateLimitPerMinute = (config: RateLimitConfig) => config.RATE_LIMIT_PER_MINUTE ?? (config.NODE_ENV === 'test' ? 0 : DEFAULT_RATE_LIMIT_PER_MINUTE);

/** The path with repeated slashes folded, as the router sees it (`/v1//partners` routes like `/v1/partners`). */
const pathOf = (request: FastifyRequest) => request.url.split('?')[0]!.replace(/\/{2,}/g, '/');

/**
 * Limits /v0, /v1, /auth and /graphql per API key (by its id, never the secret) and, for requests
 * without a valid key, per client address. The budget is a fixed one-minute window, counted in
 * Redis when REDIS_URL is set (shared by every instance) or in memory (per instance). When Redis
 * fails, requests go through unchecked and a warning is logged: an outage of the limiter must not
 * become an outage of the API.
 *
 * Runs before authentication, so unauthenticated floods are limited too; it resolves the caller's
 * key once and leaves it on `request.actor` for the authentication hook to reuse.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  deps: { config: RateLimitConfig; db: Database; logger: Logger; metrics?: Metrics; authenticate: Authenticate },
) {
  const { config, logger, metrics, authenticate } = deps;
  const max = rateLimitPerMinute(config);
  if (max === 0) return;

  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL, `ramp-rate-limit:${config.RATE_LIMIT_REDIS_PREFIX}`, logger, 'rate limiting') : null;
  if (redis) app.addHook('onClose', () => closeRedis(redis));
  await app.register(rateLimit, {
    global: false,
    max,
    timeWindow: WINDOW_MS,
    ...(redis && { redis, nameSpace: config.RATE_LIMIT_REDIS_PREFIX }),
    // Errors reach us instead of being skipped silently: we log them, then let the request through.
    skipOnError: false,
    keyGenerator: (request) => (request.actor ? `key:${request.actor.apiKeyId}` : `ip:${rateLimit.normalizeIP(request.ip)}`),
  });
  const check = app.createRateLimit();
  const firstOfWindow = firstRefusalsOfWindows();
  let storeFailing = false;
  app.decorateRequest('firstThrottled', false);

  app.addHook('onRequest', async (request, reply) => {
    if (!LIMITED.test(pathOf(request))) return;
    request.actor = await actorOf(authenticate, request);
    let outcome: Awaited<ReturnType<typeof check>>;
    try {
      outcome = await check(request);
      if (storeFailing) logger.info('rate limiting: the store answers again');
      storeFailing = false;
    } catch (error) {
      if (!storeFailing) logger.warn({ err: error }, 'rate limiting: the store (Redis) failed; requests pass unchecked until it is back');
      storeFailing = true;
      metrics?.rateLimitFailedOpen();
      return;
    }
    if (outcome.isAllowed) return;
    reply.header('ratelimit-limit', outcome.max);
    reply.header('ratelimit-remaining', outcome.remaining);
    reply.header('ratelimit-reset', outcome.ttlInSeconds);
    // The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers): the policy, then what is left of it.
    reply.header('ratelimit-policy', `"${POLICY}";q=${outcome.max};w=${WINDOW_MS / 1000}`);
    reply.header('ratelimit', `"${POLICY}";r=${outcome.remaining};t=${outcome.ttlInSeconds}`);
    if (!outcome.isExceeded) return;
    reply.header('retry-after', outcome.ttlInSeconds);
    reply.header('x-request-id', request.id);
    if (request.actor) request.firstThrottled = firstOfWindow(request.actor.apiKeyId, outcome.ttl);
    const error = new RateLimitedError(outcome.ttlInSeconds, max);
    if (pathOf(request) === '/graphql') return graphqlRateLimited(request, reply, error);
    throw error; // answered as problem+json or the Encryptus envelope by the app's error handler
  });
}

/**
 * Whether a key's refusal is the first of its window: per key, when the window it was refused in ends. Keys whose
 * window is over are forgotten once many are kept, so a flood of keys holds no more than that.
 */
function firstRefusalsOfWindows(kept = 10_000) {
  const windowEnds = new Map<string, number>();
  return (apiKeyId: string, windowLeftMs: number): boolean => {
    const now = Date.now();
    if ((windowEnds.get(apiKeyId) ?? 0) > now) return false;
    if (windowEnds.size >= kept) for (const [id, end] of windowEnds) if (end <= now) windowEnds.delete(id);
    windowEnds.set(apiKeyId, now + windowLeftMs);
    return true;
  };
}

/** The caller's API key when the request carries a valid one; null otherwise (the auth hook answers 401 later). */
async function actorOf(authenticate: Authenticate, request: FastifyRequest): Promise<Actor | null> {
  if (!request.headers.authorization) return null;
  try {
    return await authenticate(request.requestEm, request.headers.authorization, { clientIp: request.ip });
  } catch {
    return null;
  }
}

/** GraphQL clients read `errors`: a 429 on /graphql is a GraphQL error response, not problem+json. */
function graphqlRateLimited(request: FastifyRequest, reply: FastifyReply, error: RateLimitedError) {
  return reply
    .code(STATUS_OF_CODE[error.code])
    .type('application/json; charset=utf-8')
    .send({ errors: [{ message: error.message, extensions: { code: 'RATE_LIMITED', retryAfter: error.retryAfterSeconds, requestId: request.id } }] });
}
