import { createRequire } from 'node:module';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatementNames, namingStatements } from '../../src/platform/db/postgres.js';
import { freshDatabaseEnv, onPostgres } from '../support/ramp.js';

/**
 * Ramp's PostgreSQL pool reads a named statement's rows with the shape pg made of its first answer
 * (platform/db/kept-row-shapes.ts): pg builds it once per statement, not once per answer, and an answer whose
 * columns differ from the kept ones is read with its own. The pool is Ramp's own over a database of this file.
 */
describe.skipIf(!onPostgres)('the rows of a named statement', () => {
  let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
  let pool: pg.Pool;
  let admin: pg.Client;
  /** Ramp's naming pool over it: one per pool, as Ramp makes it (statement names are the pool's). */
  let naming: ReturnType<typeof namingStatements>;
  const Result = createRequire(import.meta.url)('pg/lib/result.js') as { prototype: { addFields(fields: unknown[]): void } };
  let shapesMade = 0;
  const addFields = Result.prototype.addFields;

  beforeAll(async () => {
    database = await freshDatabaseEnv();
    admin = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create table readings (id int primary key, value int not null, at timestamptz not null)`);
    await admin.query(`insert into readings values (1, 7, '2026-11-29T10:00:00Z'), (2, 8, '2026-11-29T11:00:00Z')`);
    pool = new pg.Pool({ connectionString: database.env.DATABASE_URL, max: 2 });
    naming = namingStatements(pool, new StatementNames(8));
    Result.prototype.addFields = function (this: unknown, fields: unknown[]) {
      shapesMade++;
      return addFields.call(this, fields);
    };
  });
  afterAll(async () => {
    Result.prototype.addFields = addFields;
    await pool?.end();
    await admin?.end();
    await database?.drop();
  });

  const READ = 'select id, value, at from readings where id = $1';

  it('makes the shape once, and reads every answer with its own values and types', async () => {
    const client = await naming.connect();
    try {
      const before = shapesMade;
      const first = await client.query(READ, [1]);
      const second = await client.query(READ, [2]);
      const none = await client.query(READ, [3]);
      expect(first.rows).toEqual([{ id: 1, value: 7, at: new Date('2026-11-29T10:00:00Z') }]);
      expect(second.rows).toEqual([{ id: 2, value: 8, at: new Date('2026-11-29T11:00:00Z') }]);
      expect(none.rows).toEqual([]);
      // Each row is an object of its own: one answer's row is not another's.
      expect(first.rows[0]).not.toBe(second.rows[0]);
      expect(shapesMade - before).toBe(1);
    } finally {
      client.release();
    }
  });

  it("reads an answer whose columns changed under the same statement name with the answer's own columns", async () => {
    const first = await naming.connect();
    // Held, so the read after the change comes from another connection, which prepares the statement afresh.
    expect((await first.query(READ, [1])).rows).toEqual([{ id: 1, value: 7, at: new Date('2026-11-29T10:00:00Z') }]);
    try {
      await admin.query(`alter table readings alter column value type text using 'seven-' || value`);
      const second = await naming.connect();
      try {
        expect((await second.query(READ, [1])).rows).toEqual([{ id: 1, value: 'seven-7', at: new Date('2026-11-29T10:00:00Z') }]);
      } finally {
        second.release();
      }
    } finally {
      first.release();
    }
  });

  it('rejects with the database error, and reads on afterwards', async () => {
    const client = await naming.connect();
    try {
      await expect(client.query('select id from readings where id = $1::int', ['not a number'])).rejects.toMatchObject({ code: '22P02' });
      expect((await client.query('select id from readings where id = $1', [2])).rows).toEqual([{ id: 2 }]);
    } finally {
      client.release();
    }
  });
});
