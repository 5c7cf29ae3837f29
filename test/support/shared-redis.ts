import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { createRamp, type Ramp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { freshDatabaseEnv } from './ramp.js';

/** The machine's Redis (CI starts it): what the budgets of several instances are shared through. */
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A Redis client of the test file's own, connected for its tests: to look at what Ramp stored under a test's
 * prefix, and to remove it afterwards.
 */
export function useTestRedis() {
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  beforeAll(() => redis.connect());
  afterAll(() => redis.quit());
  const keysUnder = (prefix: string) => redis.keys(`${prefix}*`);
  return {
    redis,
    keysUnder,
    async clean(prefix: string) {
      const keys = await keysUnder(prefix);
      if (keys.length) await redis.del(...keys);
    },
  };
}

/**
 * Two Ramp instances on one fresh PostgreSQL database, sharing Redis under `prefix`: several instances behind
 * a load balancer, as a budget per key must hold across them. `env` adds each one's settings.
 */
export async function twoInstancesOnOneRedis(prefix: string, env: Record<string, string>) {
  const database = await freshDatabaseEnv();
  const common = { NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', ...database.env };
  const instances: Ramp[] = [];
  const urls: string[] = [];
  for (let i = 0; i < 2; i++) {
    const ramp = await createRamp(loadConfig({ ...common, ...env, REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix }));
    urls.push(await ramp.listen());
    instances.push(ramp);
  }
  return {
    instances,
    urls,
    async close() {
      for (const ramp of instances) await ramp.close();
      await database.drop();
    },
  };
}
