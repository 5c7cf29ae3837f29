import { describe, expect, it } from 'vitest';
import { onPostgres, startRamp, uniqueDatabaseName, uniqueRedisPrefix } from '../support/ramp.js';

// docs/engineering/testing.md: TEST_DATABASE_PREFIX and TEST_REDIS_PREFIX keep checkouts apart.
describe('what the test suite names after its checkout', () => {
  const databasePrefix = process.env.TEST_DATABASE_PREFIX ?? 'ramp_test';
  const redisPrefix = process.env.TEST_REDIS_PREFIX ?? 'ramp-test:';

  it('names databases <TEST_DATABASE_PREFIX>_<pid>_<random> and Redis prefixes <TEST_REDIS_PREFIX><pid>:<random>:', () => {
    expect(uniqueDatabaseName()).toMatch(new RegExp(`^${databasePrefix}_${process.pid}_[0-9a-f]{8}$`));
    expect(uniqueDatabaseName()).not.toBe(uniqueDatabaseName());
    expect(uniqueRedisPrefix().startsWith(`${redisPrefix}${process.pid}:`)).toBe(true);
    expect(uniqueRedisPrefix()).toMatch(/:[0-9a-f]{8}:$/);
  });

  it.runIf(onPostgres)('creates each test file’s PostgreSQL database under that prefix', async () => {
    const t = await startRamp({ BOOTSTRAP_DEMO_PARTNER: 'false' });
    try {
      const [row] = await t.sql<{ name: string }>('select current_database() as name');
      expect(row!.name.startsWith(`${databasePrefix}_${process.pid}_`)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
