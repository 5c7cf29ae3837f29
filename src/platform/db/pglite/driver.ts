import type { PGlite } from '@electric-sql/pglite';
import type { Dictionary } from '@mikro-orm/core';
import { MikroORM as PgliteMikroORM, PgliteConnection, PglitePlatform } from '@mikro-orm/pglite';
import { BasePostgreSqlEntityManager } from '@mikro-orm/sql';
import { Mutex } from 'async-mutex';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PGliteAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import { driverOver } from '../driver.js';
import { KeptStatements } from './statements.js';

/**
 * Ramp's Kysely driver for embedded PGlite, given to MikroORM through its connection's public
 * `createKyselyDialect`. PGlite is one session, so the driver behaves as a pool of one: a caller
 * holds the connection from acquire to release, a transaction from BEGIN to COMMIT, and no request's
 * statement runs inside another's open transaction. Plain reads and writes run as kept statements
 * (statements.ts); everything else through PGlite's own `query()`. Every call uses PGlite's public
 * API only (`runExclusive`, `execProtocolStream`, `query`, `isInTransaction`).
 */
export class PgliteStatementsConnection implements DatabaseConnection {
  constructor(
    private readonly pglite: PGlite,
    private readonly statements: KeptStatements,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiled;
    const results = this.statements.handles(sql)
      ? await this.pglite.runExclusive(() => {
          if (this.pglite.closed) throw new Error('PGlite is closed');
          return this.statements.run<R>(sql, parameters, undefined, this.pglite.isInTransaction());
        })
      : await this.pglite.query<R>(this.statements.forgetUnless(sql), parameters as unknown[], { rowMode: 'object' });
    return {
      rows: results.rows ?? [],
      ...(results.affectedRows != null && { numAffectedRows: BigInt(results.affectedRows) }),
    };
  }

  // biome-ignore lint/correctness/useYield: Kysely's interface; PGlite does not stream.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by PGlite.');
  }
}

const raw = (sql: string) => CompiledQuery.raw(sql);

export class PgliteStatementsDriver implements Driver {
  readonly #lock = new Mutex();
  #release: (() => void) | null = null;
  #connection: PgliteStatementsConnection | null = null;

  constructor(
    private readonly pglite: () => Promise<PGlite>,
    private readonly options: { capacity?: number; maxAgeMs?: number } = {},
  ) {}

  async init(): Promise<void> {
    const pglite = await this.pglite();
    await pglite.waitReady;
    this.#connection = new PgliteStatementsConnection(pglite, new KeptStatements(pglite, this.options));
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#lock.acquire();
    this.#release = release;
    return this.#connection!;
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = null;
    release?.();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(raw(`savepoint ${quoted(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(raw(`rollback to ${quoted(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(raw(`release ${quoted(name)}`));
  }

  async destroy(): Promise<void> {
    const pglite = await this.pglite();
    if (!pglite.closed) await pglite.close();
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Kysely's PostgreSQL compiler, adapter and introspector, over the driver above. */
export class PgliteStatementsDialect implements Dialect {
  constructor(
    private readonly pglite: () => Promise<PGlite>,
    private readonly options: { capacity?: number; maxAgeMs?: number } = {},
  ) {}
  createAdapter = () => new PGliteAdapter();
  createDriver = () => new PgliteStatementsDriver(this.pglite, this.options);
  createIntrospector = (db: Kysely<unknown>) => new PostgresIntrospector(db);
  createQueryCompiler = () => new PostgresQueryCompiler();
}

/** MikroORM's PGlite connection (it creates and owns the PGlite instance), its dialect the one above. */
class PgliteStatementsMikroConnection extends PgliteConnection {
  override createKyselyDialect(overrides: Dictionary) {
    super.createKyselyDialect(overrides); // creates the PGlite instance with MikroORM's type parsers
    return new PgliteStatementsDialect(() => this.getNativeClient()) as never;
  }
}

/** PgliteDriver's definition over the connection above. */
export const PgliteStatementsMikroDriver = driverOver({
  connection: PgliteStatementsMikroConnection,
  platform: () => new PglitePlatform(),
  dependencies: ['kysely', '@electric-sql/pglite'],
  entityManager: BasePostgreSqlEntityManager,
  orm: PgliteMikroORM,
});
