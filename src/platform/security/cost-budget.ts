import type { Redis } from 'ioredis';
import type { Config } from '../../config.js';
import type { Logger } from '../observability/logging.js';
import { closeRedis, connectRedis } from '../runtime/redis.js';

/** What a key's bucket holds after a take: the figures `extensions.cost.throttleStatus` shows. */
export interface BucketState {
  /** Whether the points were taken; when false nothing was. */
  taken: boolean;
  /** Points left, rounded down. */
  available: number;
  /** Seconds until the bucket holds what was asked, when it was refused (for Retry-After). */
  retryAfterSeconds: number;
}

/** A leaky bucket of cost points per API key (Shopify's model): `maximum` points, refilled at `restoreRate` a second. */
export interface CostBudget {
  readonly maximum: number;
  readonly restoreRate: number;
  /** Where the buckets live: Redis (every instance shares them) or this instance's memory. */
  readonly store: 'redis' | 'memory';
  /** Takes `cost` points from the key's bucket if it holds that many; a negative cost gives points back (up to the maximum). */
  take(apiKeyId: string, cost: number): Promise<BucketState>;
  close(): Promise<void>;
}

type CostConfig = Pick<Config, 'NODE_ENV' | 'GRAPHQL_COST_BUCKET_SIZE' | 'GRAPHQL_COST_RESTORE_RATE' | 'REDIS_URL' | 'RATE_LIMIT_REDIS_PREFIX'>;

/** The bucket size when GRAPHQL_COST_BUCKET_SIZE is not set: the largest cost one operation may have. */
export const DEFAULT_COST_BUCKET_SIZE = 5000;

/** The bucket size in force: GRAPHQL_COST_BUCKET_SIZE, else 5000 (0, off, under NODE_ENV=test, whose suites compare whole responses). */
export const costBucketSize = (config: CostConfig) => config.GRAPHQL_COST_BUCKET_SIZE ?? (config.NODE_ENV === 'test' ? 0 : DEFAULT_COST_BUCKET_SIZE);

/**
 * The budget in force, or null when GRAPHQL_COST_BUCKET_SIZE is 0. With REDIS_URL the buckets are
 * kept in Redis under `<RATE_LIMIT_REDIS_PREFIX>cost:<key id>`, one atomic script per take, so
 * every instance spends from the same bucket; without it, in memory, per instance. While Redis
 * fails, each instance falls back to its own memory (a key may then spend up to one bucket per
 * instance) rather than refusing or letting everything through.
 */
export async function createCostBudget(config: CostConfig, logger: Logger): Promise<CostBudget | null> {
  const maximum = costBucketSize(config);
  if (maximum === 0) return null;
  const rate = config.GRAPHQL_COST_RESTORE_RATE;
  const memory = memoryBuckets(maximum, rate);
  if (!config.REDIS_URL) return { maximum, restoreRate: rate, store: 'memory', take: memory, close: async () => {} };
  const prefix = `${config.RATE_LIMIT_REDIS_PREFIX}cost:`;
  const redis = await connectRedis(config.REDIS_URL, `ramp-graphql-cost:${config.RATE_LIMIT_REDIS_PREFIX}`, logger, 'GraphQL cost budget');
  redis.defineCommand('rampTakeCost', { numberOfKeys: 1, lua: TAKE });
  let failing = false;
  return {
    maximum,
    restoreRate: rate,
    store: 'redis',
    async take(apiKeyId, cost) {
      try {
        const [taken, available] = await (redis as TakingRedis).rampTakeCost(prefix + apiKeyId, maximum, rate, cost);
        if (failing) logger.info('GraphQL cost budget: Redis answers again');
        failing = false;
        return stateOf(taken === 1, Number(available), cost, rate);
      } catch (error) {
        if (!failing) logger.warn({ err: error }, 'GraphQL cost budget: Redis failed; each instance keeps its own buckets until it is back');
        failing = true;
        return memory(apiKeyId, cost);
      }
    },
    close: () => closeRedis(redis),
  };
}

type TakingRedis = Redis & { rampTakeCost(key: string, maximum: number, rate: number, cost: number): Promise<[number, string]> };

/**
 * The take, atomic in Redis: refill by the time since the last take (Redis's own clock, so
 * instances' clocks need not agree), take if enough, and let the key expire once it would be full.
 */
const TAKE = `
local maximum = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'available', 'at')
local available = tonumber(state[1]) or maximum
local at = tonumber(state[2]) or now
available = math.min(maximum, available + math.max(0, now - at) * rate / 1000)
local taken = 0
if cost <= available then
  available = math.min(maximum, available - cost)
  taken = 1
end
redis.call('HSET', KEYS[1], 'available', tostring(available), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((maximum - available) * 1000 / rate) + 1000)
return { taken, tostring(available) }
`;

const stateOf = (taken: boolean, available: number, cost: number, rate: number): BucketState => ({
  taken,
  available: Math.max(0, Math.floor(available)),
  retryAfterSeconds: taken ? 0 : Math.max(1, Math.ceil((cost - available) / rate)),
});

/** Buckets this instance forgets once full: past this many keys, full ones are dropped. */
const MEMORY_BUCKETS = 10_000;

function memoryBuckets(maximum: number, rate: number) {
  const buckets = new Map<string, { available: number; at: number }>();
  const levelOf = (bucket: { available: number; at: number }, now: number) => Math.min(maximum, bucket.available + ((now - bucket.at) * rate) / 1000);
  return async (apiKeyId: string, cost: number): Promise<BucketState> => {
    const now = Date.now();
    const bucket = buckets.get(apiKeyId);
    let available = bucket ? levelOf(bucket, now) : maximum;
    const taken = cost <= available;
    if (taken) available = Math.min(maximum, available - cost);
    if (buckets.size >= MEMORY_BUCKETS && !bucket) {
      for (const [key, other] of buckets) if (levelOf(other, now) >= maximum) buckets.delete(key);
    }
    buckets.set(apiKeyId, { available, at: now });
    return stateOf(taken, available, cost, rate);
  };
}
