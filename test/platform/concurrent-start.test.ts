import { describe, expect, it } from 'vitest';
import { createRamp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { freshDatabaseEnv, onPostgres } from '../support/ramp.js';

// Several processes on one embedded database are refused outright (a lock file); this is PostgreSQL's case.
describe.skipIf(!onPostgres)('instances starting together on one empty PostgreSQL database', () => {
  it('run each migration once and create exactly one demo partner', async () => {
    const database = await freshDatabaseEnv();
    const config = loadConfig({ NODE_ENV: 'test', PORT: '0', LOG_LEVEL: 'silent', ...database.env });
    const instances = await Promise.all([createRamp(config), createRamp(config), createRamp(config)]);
    try {
      expect(instances.filter((r) => r.demoKey !== null)).toHaveLength(1);
      const em = instances[0]!.db.fork();
      expect(await em.execute(`select name from partners`)).toEqual([{ name: 'Demo Partner' }]);
      const applied = await em.execute<{ n: string }[]>(`select count(*)::text as n from mikro_orm_migrations`);
      expect(Number(applied[0]!.n)).toBeGreaterThan(0);
      const duplicates = await em.execute(`select name from mikro_orm_migrations group by name having count(*) > 1`);
      expect(duplicates).toEqual([]);
    } finally {
      for (const instance of instances) await instance.close();
      await database.drop();
    }
  });
});
