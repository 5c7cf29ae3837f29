import { EntityManager, MikroORM, PostgreSqlConnection, PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { driverOver } from './driver.js';
import { KeptRowShapes } from './kept-row-shapes.js';

/**
 * Ramp's PostgreSQL driver: MikroORM's own, whose Kysely dialect sends every statement that carries
 * parameters (the typed reads of the modules' `queries.ts`) as a named prepared statement, as
 * PostGraphile sends its own. PostgreSQL then parses and plans a page once per pooled connection
 * instead of on every request (half of what a page cost the server). MikroORM's own statements carry
 * their values in their text (it formats them), so they stay unnamed.
 *
 * At most `capacity` distinct texts are named: a GraphQL selection decides a page's columns, so
 * clients vary the text, and PostgreSQL keeps every name per connection. Past that, a statement is
 * sent unnamed (parsed each time) and answers the same. Migrations run before any read, so no plan
 * outlives a schema change. A named statement's rows are read with the shape pg made of its first answer
 * (kept-row-shapes.ts).
 */
export const NAMED_STATEMENTS_CAPACITY = 256;

/** The names given to statement texts, `ramp_read_0`, `ramp_read_1`…, up to a capacity. */
export class StatementNames {
  readonly #names = new Map<string, string>();
  constructor(private readonly capacity: number) {}

  /** The name of this text, or null when the capacity is spent on others. */
  of(text: string): string | null {
    const known = this.#names.get(text);
    if (known) return known;
    if (this.#names.size >= this.capacity) return null;
    const name = `ramp_read_${this.#names.size.toString(36)}`;
    this.#names.set(text, name);
    return name;
  }
}

/** A transaction's opening statement as Kysely sends it (`begin`, or `start transaction …` with settings). */
const OPENS = /^(begin|start transaction\b.*)$/i;
/** What a transaction opened and ended without a statement between answers: nothing was ever sent for it. */
const nothingSent = (command: string) => ({ command, rowCount: null, rows: [], fields: [] });

/**
 * The pool Kysely's PostgreSQL driver takes (its public `PostgresPool`), over pg's own: each client
 * checked out sends a statement with parameters under its name. One wrapper per pg client, so
 * Kysely keeps one connection object per client as it does.
 *
 * A transaction's `begin` leaves with the transaction's first statement, one round trip instead of two: it is kept
 * back and sent in front of that statement's text when the statement carries its values in its text (MikroORM's do:
 * `begin;select …` as one simple query, whose last answer is the statement's), or queued just before it otherwise.
 * Every write transaction costs one round trip less, and nothing changes for the server: the same statements run in
 * the same order on the same session. A transaction that ends before any statement sends nothing at all.
 */
export function namingStatements(pool: pg.Pool, names: StatementNames): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const shapes = new KeptRowShapes();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let opening: string | null = null;
    const send = (sql: string, values?: readonly unknown[]) => {
      const name = values?.length ? names.of(sql) : null;
      return name
        ? shapes.query(client, { name, text: sql, values: values as unknown[] })
        : client.query({ text: sql, values: values as unknown[] | undefined });
    };
    /** Queues the kept `begin` ahead of what comes next (pg sends one client's statements in order). */
    const openFirst = () => {
      if (opening === null) return;
      // Its failure (a broken connection) fails the statement queued behind it too, which is what the caller awaits.
      client.query(opening).catch(() => {});
      opening = null;
    };
    const query = async (sql: unknown, values?: readonly unknown[]) => {
      if (typeof sql !== 'string') {
        openFirst();
        return client.query(sql as pg.Submittable); // a cursor
      }
      if (!values?.length && OPENS.test(sql)) {
        opening = sql;
        return nothingSent('BEGIN');
      }
      if (opening !== null && !values?.length) {
        if (/^(commit|rollback)$/i.test(sql)) {
          opening = null;
          return nothingSent(sql.toUpperCase());
        }
        const text = `${opening};\n${sql}`;
        opening = null;
        const answers = (await client.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
        return Array.isArray(answers) ? answers[answers.length - 1] : answers;
      }
      openFirst();
      return send(sql, values);
    };
    return {
      query: query as unknown as PostgresPoolClient['query'],
      release: () => {
        // Kysely ends every transaction it opens; should one be left open unsent, the next checkout must not inherit it.
        opening = null;
        client.release();
      },
    };
  };
  return {
    options: pool.options,
    end: () => pool.end(),
    async connect() {
      const client = await pool.connect();
      let known = wrapped.get(client);
      if (!known) {
        known = wrap(client);
        wrapped.set(client, known);
      }
      return known;
    },
  };
}

/** MikroORM's PostgreSQL connection, its Kysely dialect over the naming pool. */
class NamedStatementsConnection extends PostgreSqlConnection {
  override createKyselyDialect(overrides: pg.PoolConfig & { onPoolCreated?: (pool: pg.Pool) => unknown }): PostgresDialect {
    let created: pg.Pool | undefined;
    // MikroORM builds and configures the pool (type parsers, limits, error handlers) and hands it to onPoolCreated.
    super.createKyselyDialect({
      ...overrides,
      onPoolCreated: (pool: pg.Pool) => {
        created = pool;
        return overrides?.onPoolCreated?.(pool);
      },
    } as pg.PoolConfig);
    if (!created) throw new Error('MikroORM did not create its PostgreSQL pool');
    return new PostgresDialect({ pool: namingStatements(created, new StatementNames(NAMED_STATEMENTS_CAPACITY)) });
  }
}

/** PostgreSqlDriver's definition over the connection above. */
export const NamedStatementsDriver = driverOver({
  connection: NamedStatementsConnection,
  platform: () => new PostgreSqlPlatform(),
  dependencies: ['kysely', 'pg'],
  entityManager: EntityManager,
  orm: MikroORM,
});
