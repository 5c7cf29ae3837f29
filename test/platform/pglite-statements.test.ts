import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keepPgliteStatements } from '../../src/platform/pglite-statements.js';

// Issue 12: on embedded PGlite a statement is parsed and planned once and then runs in one call into
// the engine. These pin that it answers exactly what PGlite's own query() answers, and stays right
// across schema changes, errors, transactions and notifications. (PGlite only: no PostgreSQL server here.)
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

describe.skipIf(onPostgres)('kept PGlite statements', () => {
  let kept: PGlite;
  let plain: PGlite;
  beforeAll(async () => {
    [kept, plain] = await Promise.all([PGlite.create(), PGlite.create()]);
    keepPgliteStatements(kept);
  });
  beforeEach(async () => {
    for (const db of [kept, plain]) await db.exec(`drop table if exists payments; ${TABLE}`);
  });
  afterAll(async () => {
    await kept.close();
    await plain.close();
  });

  it('writes and reads every kind of column exactly as PGlite’s own query() does', async () => {
    const written = await kept.query(INSERT, ROW, { rowMode: 'object' });
    const expected = await plain.query(INSERT, ROW, { rowMode: 'object' });
    expect(written).toEqual(expected);
    for (const rowMode of ['object', 'array'] as const) {
      const select = 'select * from payments where id = $1 and amount = $2';
      for (let i = 0; i < 3; i++) {
        expect(await kept.query(select, [ROW[0], ROW[1]], { rowMode })).toEqual(await plain.query(select, [ROW[0], ROW[1]], { rowMode }));
      }
    }
    const update = 'update payments set note = $1 where id = $2';
    const note = 'erstattet: Müller, 日本 💶';
    const updated = await kept.query(update, [note, ROW[0]]);
    expect(updated).toEqual(await plain.query(update, [note, ROW[0]]));
    expect(updated.affectedRows).toBe(1);
    expect((await kept.query('select note from payments where id = $1', [ROW[0]])).rows).toEqual([{ note }]);
  });

  it('runs a statement it has seen before in one call into the engine, and a new one in two', async () => {
    const calls = countCalls(kept);
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
    await kept.exec(`update payments set reference = 'r-1'`);
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
    await expect(
      kept.transaction(async (tx) => {
        await tx.query(INSERT, ROW);
        expect((await tx.query('select count(*)::int as n from payments')).rows).toEqual([{ n: 1 }]);
        throw new Error('declined');
      }),
    ).rejects.toThrow('declined');
    expect((await kept.query('select count(*)::int as n from payments')).rows).toEqual([{ n: 0 }]);
    await kept.transaction(async (tx) => void (await tx.query(INSERT, ROW)));
    expect((await kept.query('select count(*)::int as n from payments')).rows).toEqual([{ n: 1 }]);
  });

  it('still delivers LISTEN/NOTIFY notifications sent by kept statements', async () => {
    const heard: string[] = [];
    await kept.listen('events', (payload) => heard.push(payload));
    await kept.query('select pg_notify($1, $2)', ['events', '41']);
    await kept.transaction(async (tx) => void (await tx.query('select pg_notify($1, $2)', ['events', '42'])));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(heard).toEqual(['41', '42']);
  });

  it('holds at most its capacity of prepared statements, and prepares again when one is too old', async () => {
    const small = await PGlite.create();
    keepPgliteStatements(small, { capacity: 3, maxAgeMs: 0 });
    try {
      for (let round = 0; round < 3; round++) {
        for (let n = 0; n < 8; n++) expect((await small.query(`select $1::int + ${n} as sum`, [round])).rows).toEqual([{ sum: round + n }]);
      }
      const { rows } = await small.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements');
      expect(rows[0]!.n).toBeLessThanOrEqual(4);
    } finally {
      await small.close();
    }
  });
});
