import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PgliteStatementsDialect } from '../../src/platform/db/pglite/driver.js';

// On embedded PGlite a statement is parsed and planned once and then runs in one call into
// the engine. These pin that Ramp's PGlite driver (platform/db/pglite) answers exactly what PGlite's
// own query() answers, and stays right across schema changes, errors, transactions and
// notifications, one session at a time. (PGlite only: no PostgreSQL server here.)
const onPostgres = process.env.RAMP_TEST_DB === 'postgres';

const TABLE = `create table payments (
  id uuid primary key, amount numeric(20, 6) not null, paid_at timestamptz, settled boolean,
  tags text[], payload jsonb, receipt bytea, sequence bigint, note text)`;
const INSERT =
  'insert into payments (id, amount, paid_at, settled, tags, payload, receipt, sequence, note) values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *';
const ROW = [
  '6f9619ff-8b86-d011-b42d-00c04fc964ff',
  '1234.500000',
  new Date('2026-11-24T06:50:35.123Z'),
  true,
  ['sepa', 'ach "quoted"', 'comma,inside', 'Überweisung für 日本 💶'],
  { rails: ['sepa'], amount: '10.00' },
  new Uint8Array([0, 1, 254, 255]),
  9_007_199_254_740_993n,
  null,
];

/** Counts the calls into PGlite's engine (each one runs PostgreSQL's main loop on Node's thread). */
function countCalls(pglite: PGlite) {
  const stream = pglite.execProtocolStream.bind(pglite);
  const counter = { calls: 0 };
  pglite.execProtocolStream = (...args) => {
    counter.calls++;
    return stream(...args);
  };
  return counter;
}

/** A Kysely over Ramp's driver for this PGlite, with a `query` answering as PGlite's does (rows, affected rows). */
function keptOn(pglite: PGlite, options?: { capacity?: number; maxAgeMs?: number }) {
  const db = new Kysely<unknown>({ dialect: new PgliteStatementsDialect(async () => pglite, options) });
  return Object.assign(db, {
    async query<R = Record<string, unknown>>(sql: string, params: unknown[] = []) {
      const { rows, numAffectedRows } = await db.executeQuery<R>(CompiledQuery.raw(sql, params));
      return { rows, affectedRows: Number(numAffectedRows ?? 0) };
    },
  });
}
/** What PGlite's own query() answers, in the same form. */
async function plainQuery(pglite: PGlite, sql: string, params: unknown[] = []) {
  const { rows, affectedRows } = await pglite.query(sql, params, { rowMode: 'object' });
  return { rows, affectedRows: affectedRows ?? 0 };
}

describe.skipIf(onPostgres)('kept PGlite statements', () => {
  let engine: PGlite;
  let kept: ReturnType<typeof keptOn>;
  let plain: PGlite;
  beforeAll(async () => {
    [engine, plain] = await Promise.all([PGlite.create(), PGlite.create()]);
    kept = keptOn(engine);
  });
  beforeEach(async () => {
    await kept.executeQuery(CompiledQuery.raw(`drop table if exists payments`));
    await kept.executeQuery(CompiledQuery.raw(TABLE));
    await plain.exec(`drop table if exists payments; ${TABLE}`);
  });
  afterAll(async () => {
    await kept.destroy();
    await plain.close();
  });

  it('writes and reads every kind of column exactly as PGlite’s own query() does', async () => {
    const written = await kept.query(INSERT, ROW);
    const expected = await plainQuery(plain, INSERT, ROW);
    expect(written).toEqual(expected);
    const select = 'select * from payments where id = $1 and amount = $2';
    for (let i = 0; i < 3; i++) {
      expect(await kept.query(select, [ROW[0], ROW[1]])).toEqual(await plainQuery(plain, select, [ROW[0], ROW[1]]));
    }
    const update = 'update payments set note = $1 where id = $2';
    const note = 'erstattet: Müller, 日本 💶';
    const updated = await kept.query(update, [note, ROW[0]]);
    expect(updated).toEqual(await plainQuery(plain, update, [note, ROW[0]]));
    expect(updated.affectedRows).toBe(1);
    expect((await kept.query('select note from payments where id = $1', [ROW[0]])).rows).toEqual([{ note }]);
  });

  it('runs a statement it has seen before in one call into the engine, and a new one in two', async () => {
    const calls = countCalls(engine);
    await kept.query('select count(*) from payments where settled = $1', [true]);
    expect(calls.calls).toBe(2);
    await kept.query('select count(*) from payments where settled = $1', [false]);
    await kept.query('select count(*) from payments where settled = $1', [true]);
    expect(calls.calls).toBe(4);
  });

  it('sees the columns a migration adds to a table it already read', async () => {
    await kept.query(INSERT, ROW);
    const before = await kept.query<Record<string, unknown>>('select * from payments');
    expect(before.rows[0]).not.toHaveProperty('reference');
    await kept.query('alter table payments add column reference text');
    await kept.query(`update payments set reference = 'r-1'`);
    const after = await kept.query<Record<string, unknown>>('select * from payments');
    expect(after.rows[0]).toMatchObject({ reference: 'r-1', note: null });
  });

  it('throws PostgreSQL’s error with its code and the statement, and keeps answering afterwards', async () => {
    await kept.query(INSERT, ROW);
    const duplicate = await kept.query(INSERT, ROW).catch((error: unknown) => error);
    expect(duplicate).toMatchObject({ code: '23505', query: INSERT });
    const misspelt = 'select amount from paymentz where id = $1';
    for (let i = 0; i < 2; i++) await expect(kept.query(misspelt, [ROW[0]])).rejects.toMatchObject({ code: '42P01' });
    const { rows } = await kept.query<{ n: number }>('select count(*)::int as n from payments');
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('keeps a transaction’s statements in it: a rollback undoes them', async () => {
    const run = (tx: Kysely<unknown>, sql: string, params: unknown[] = []) => tx.executeQuery<{ n: number }>(CompiledQuery.raw(sql, params));
    await expect(
      kept.transaction().execute(async (tx) => {
        await run(tx, INSERT, ROW);
        expect((await run(tx, 'select count(*)::int as n from payments')).rows).toEqual([{ n: 1 }]);
        throw new Error('declined');
      }),
    ).rejects.toThrow('declined');
    expect((await kept.query('select count(*)::int as n from payments')).rows).toEqual([{ n: 0 }]);
    await kept.transaction().execute(async (tx) => void (await run(tx, INSERT, ROW)));
    expect((await kept.query('select count(*)::int as n from payments')).rows).toEqual([{ n: 1 }]);
  });

  it('is one session at a time: a statement waits for another caller’s open transaction instead of running inside it', async () => {
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    const transaction = kept.transaction().execute(async (tx) => {
      await tx.executeQuery(CompiledQuery.raw(INSERT, ROW));
      inserted();
      await committed;
      await tx.executeQuery(CompiledQuery.raw('select 1'));
    });
    await insertedYet;
    const outside = kept.query<{ n: number }>('select count(*)::int as n from payments');
    await new Promise((resolve) => setTimeout(resolve, 20));
    commit();
    await transaction;
    // Had it run inside the open transaction, it would have seen the row; had it run beside it, not: it ran after the commit.
    expect((await outside).rows).toEqual([{ n: 1 }]);
  });

  it('still delivers LISTEN/NOTIFY notifications sent by kept statements', async () => {
    const heard: string[] = [];
    await engine.listen('events', (payload) => heard.push(payload));
    await kept.query('select pg_notify($1, $2)', ['events', '41']);
    await kept.transaction().execute(async (tx) => void (await tx.executeQuery(CompiledQuery.raw('select pg_notify($1, $2)', ['events', '42']))));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(heard).toEqual(['41', '42']);
  });

  it('holds at most its capacity of prepared statements, and prepares again when one is too old', async () => {
    const engine = await PGlite.create();
    const small = keptOn(engine, { capacity: 3, maxAgeMs: 0 });
    try {
      for (let round = 0; round < 3; round++) {
        for (let n = 0; n < 8; n++) expect((await small.query(`select $1::int + ${n} as sum`, [round])).rows).toEqual([{ sum: round + n }]);
      }
      const { rows } = await small.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements');
      expect(rows[0]!.n).toBeLessThanOrEqual(4);
    } finally {
      await small.destroy();
    }
  });
});
