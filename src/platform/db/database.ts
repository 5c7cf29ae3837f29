import { Migrator } from '@mikro-orm/migrations';
import pg from 'pg';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import type { EntityManager, MikroORM } from '@mikro-orm/sql';
import { auditSubscriber } from '../security/audit.js';
import type { Config } from '../../config.js';
import { migrations } from '../../../migrations/index.js';
import type { Options } from '@mikro-orm/core';
import type { Kysely } from 'kysely';
import { lockDataDir } from './data-dir-lock.js';
import { migrate } from './migrations.js';
import { ADVISORY_LOCKS } from './locks.js';
import { PgliteStatementsMikroDriver } from './pglite/driver.js';
import { NamedStatementsDriver } from './postgres.js';
import { measureConnectionWaits, releaseConnectionsThatDie, tellSaturationFromOutage } from './pg-pool-guard.js';
import { type PoolWaits, poolWaits } from '../runtime/saturation.js';

export type { EntityManager };

/** MikroORM entity definitions, as the ORM's `entities` option takes them (each feature brings its own). */
export type EntityDefinitions = NonNullable<Options['entities']>;

export interface Database {
  orm: MikroORM;
  kind: 'postgresql' | 'pglite';
  /** A fresh EntityManager with its own identity map: one per request, job or event. */
  fork(): EntityManager;
  /**
   * Kysely on the pool (PGlite's one session), outside any transaction: what a fork that has begun none reads with,
   * and what a request that forked none reads with (request-em.ts).
   */
  // biome-ignore lint/suspicious/noExplicitAny: every module's reads type their own tables (platform/reads/queries.ts).
  readonly kysely: Kysely<any>;
  isReachable(): Promise<boolean>;
  /**
   * How long requests lately waited for a database connection (ms, a decaying average). Always 0 on PGlite: its one
   * session runs on the event loop, so a busy PGlite shows as event-loop delay instead.
   */
  connectionWaitMs(): number;
  close(): Promise<void>;
}

type DatabaseOptions = Pick<
  Config,
  'DATABASE_URL' | 'DATABASE_OWNER_URL' | 'DATA_DIR' | 'DB_POOL_MAX' | 'DB_ACQUIRE_TIMEOUT_MS' | 'DB_STATEMENT_TIMEOUT_MS'
> & {
  /** Every entity of the service, assembled by the composition root. */
  entities: EntityDefinitions;
  debug?: boolean;
  /** Where start-up says what it does (migrations applied) and MikroORM's own messages go; silent when absent. */
  log?: (message: string) => void;
};

/**
 * PostgreSQL when DATABASE_URL is set, else embedded PGlite; migrations applied before use (through
 * DATABASE_OWNER_URL when it names another role). Each
 * runs under a driver of ours that prepares statements (db/postgres.ts: named statements; db/pglite:
 * kept statements and one session at a time), given to MikroORM as its `driver`.
 */
export async function openDatabase(config: DatabaseOptions): Promise<Database> {
  const common = {
    entities: config.entities,
    extensions: [Migrator],
    // Appends a state-changing call's audit row in the transaction of its change.
    subscribers: [auditSubscriber],
    // silent: MikroORM's two raw lines a migration give way to migrate()'s one line a step.
    migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    debug: config.debug ?? false,
    logger: config.log ?? (() => {}),
    colors: false,
    // Every request forks its own EntityManager; using the global one is a bug we want to see.
    allowGlobalContext: false,
  };
  let orm: MikroORM;
  let kind: Database['kind'];
  let unlock = () => {};
  // The schema's owner migrates; the application's role (DATABASE_URL) may then lack the rights to (decision 026).
  const ownerUrl = config.DATABASE_URL && config.DATABASE_OWNER_URL && config.DATABASE_OWNER_URL !== config.DATABASE_URL ? config.DATABASE_OWNER_URL : null;
  if (ownerUrl) {
    const owner = (await PostgresORM.init({
      ...common,
      subscribers: [],
      driver: NamedStatementsDriver,
      clientUrl: ownerUrl,
      pool: { min: 0, max: 1 },
    })) as unknown as MikroORM;
    try {
      await withMigrationLock(ownerUrl, () => migrate(owner.migrator, config.log));
    } finally {
      await owner.close(true);
    }
  }
  const waits = poolWaits();
  if (config.DATABASE_URL) {
    orm = (await PostgresORM.init({
      ...common,
      driver: NamedStatementsDriver,
      clientUrl: config.DATABASE_URL,
      pool: { min: 0, max: config.DB_POOL_MAX },
      driverOptions: postgresPoolOptions(config, waits),
    })) as unknown as MikroORM;
    kind = 'postgresql';
  } else {
    if (!config.DATA_DIR.startsWith('memory:')) unlock = lockDataDir(config.DATA_DIR);
    try {
      orm = (await PgliteORM.init({ ...common, driver: PgliteStatementsMikroDriver, dbName: config.DATA_DIR })) as unknown as MikroORM;
    } catch (error) {
      unlock();
      throw error;
    }
    kind = 'pglite';
  }
  // Instances starting together (a deploy, N replicas) must not run the same migration twice.
  const up = () => migrate(orm.migrator, config.log);
  if (!ownerUrl) await (config.DATABASE_URL ? withMigrationLock(config.DATABASE_URL, up) : up());
  return {
    orm,
    kind,
    fork: () => orm.em.fork(),
    // The connection's own client, not the global EntityManager's Kysely: that one looks for a transaction in the
    // caller's async context and reads inside it.
    get kysely() {
      // biome-ignore lint/suspicious/noExplicitAny: as the interface says.
      return orm.em.getConnection().getClient() as Kysely<any>;
    },
    connectionWaitMs: () => (kind === 'postgresql' ? waits.recentMs() : 0),
    async isReachable() {
      // Bounded on its own: /readyz must answer within a second even while connections are stuck.
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READINESS_TIMEOUT_MS)));
      const probe = orm.em
        .fork()
        .execute('select 1')
        .then(
          () => true,
          () => false,
        );
      try {
        return await Promise.race([probe, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await orm.close(true);
      unlock();
    },
  };
}

const READINESS_TIMEOUT_MS = 900;

/**
 * pg-pool settings under MikroORM: every wait is bounded. A request waits at most
 * DB_ACQUIRE_TIMEOUT_MS for a connection, a statement runs at most DB_STATEMENT_TIMEOUT_MS on the
 * server, a transaction left idle is ended by the server, and TCP keepalive notices a peer that
 * vanished. A connection that dies while checked out goes back to the pool at once.
 */
function postgresPoolOptions(config: DatabaseOptions, waits: PoolWaits) {
  return {
    connectionTimeoutMillis: config.DB_ACQUIRE_TIMEOUT_MS,
    statement_timeout: config.DB_STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: config.DB_STATEMENT_TIMEOUT_MS * 2,
    keepAlive: true,
    application_name: 'ramp',
    onPoolCreated: (pool: pg.Pool) => {
      releaseConnectionsThatDie(pool);
      // A connection given back healthy while the caller waited: the database answers, the pool is only full.
      tellSaturationFromOutage(pool, config.DB_ACQUIRE_TIMEOUT_MS);
      measureConnectionWaits(pool, waits);
    },
  };
}

/** Holds a session-level advisory lock, on a connection of its own, while `work` runs. */
async function withMigrationLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [ADVISORY_LOCKS.migrations]);
    return await work();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [ADVISORY_LOCKS.migrations]).catch(() => undefined);
    await client.end();
  }
}
