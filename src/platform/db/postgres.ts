import { EntityManager, MikroORM, PostgreSqlConnection, PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { driverOver } from './driver.js';

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
 * outlives a schema change.
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

/**
 * The pool Kysely's PostgreSQL driver takes (its public `PostgresPool`), over pg's own: each client
 * checked out sends a statement with parameters under its name. One wrapper per pg client, so
 * Kysely keeps one connection object per client as it does.
 */
export function namingStatements(pool: pg.Pool, names: StatementNames): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => ({
    query: ((sql: unknown, values?: readonly unknown[]) => {
      if (typeof sql !== 'string') return client.query(sql as pg.Submittable); // a cursor
      const name = values?.length ? names.of(sql) : null;
      return client.query(name ? { name, text: sql, values: values as unknown[] } : { text: sql, values: values as unknown[] | undefined });
    }) as unknown as PostgresPoolClient['query'],
    release: () => client.release(),
  });
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
