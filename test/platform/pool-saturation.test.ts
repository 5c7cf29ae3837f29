import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isPoolSaturated } from '../../src/platform/db/database-errors.js';
import { toProblem } from '../../src/rest/http-errors.js';
import { tellSaturationFromOutage } from '../../src/platform/db/pg-pool-guard.js';
import { onPostgres } from '../support/ramp.js';
import { databaseUrl } from '../support/template-database.js';

// A busy pool is not an unreachable database (docs/operations/security.md "Cost budgets and admission control").
const ACQUIRE_TIMEOUT_MS = 300;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('telling a saturated pool from an unreachable database', () => {
  it('answers a saturated pool 503 overloaded and an unreachable database 503 database_unavailable', () => {
    const saturated = new Error('database connection pool saturated: every connection stayed busy for 2000 ms', {
      cause: new Error('timeout exceeded when trying to connect'),
    });
    expect(isPoolSaturated(saturated)).toBe(true);
    expect(isDatabaseUnavailable(saturated)).toBe(false);
    expect(toProblem(saturated)).toMatchObject({ status: 503, code: 'overloaded' });
    expect(toProblem(new Error('timeout exceeded when trying to connect'))).toMatchObject({ status: 503, code: 'database_unavailable' });
  });

  describe.runIf(onPostgres)('on a real pool (PostgreSQL)', () => {
    const poolOf = () => {
      const pool = new pg.Pool({ connectionString: databaseUrl('postgres'), max: 1, connectionTimeoutMillis: ACQUIRE_TIMEOUT_MS });
      tellSaturationFromOutage(pool, ACQUIRE_TIMEOUT_MS);
      return pool;
    };

    it('reports a wait that timed out while connections came back healthy as saturation', async () => {
      const pool = poolOf();
      try {
        const held = await pool.connect();
        await held.query('select 1');
        const first = pool.connect();
        const second = pool.connect().catch((error: unknown) => error);
        await pause(ACQUIRE_TIMEOUT_MS / 3);
        held.release(); // healthy: the first waiter takes it and keeps it
        const taken = await first;
        const error = await second;
        expect(isPoolSaturated(error)).toBe(true);
        expect(isDatabaseUnavailable(error)).toBe(false);
        taken.release();
      } finally {
        await pool.end();
      }
    });

    it('still reports a wait during which no connection came back as the database unavailable', async () => {
      const pool = poolOf();
      try {
        const held = await pool.connect();
        await pause(ACQUIRE_TIMEOUT_MS * 2); // nothing came back healthy since
        const error = await pool.connect().catch((e: unknown) => e);
        expect(isPoolSaturated(error)).toBe(false);
        expect(isDatabaseUnavailable(error)).toBe(true);
        held.release();
      } finally {
        await pool.end();
      }
    });
  });
});
