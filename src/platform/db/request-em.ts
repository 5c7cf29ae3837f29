import type { EntityManager } from '@mikro-orm/sql';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * A request's EntityManager, forked when something first asks for it. A request writes, runs MikroORM
 * finds and appends audit rows through its own fork, but most reads run Kysely statements only
 * (platform/reads/queries.ts), and those need the pool, not a unit of work: forking one (a unit of work,
 * an identity map, an entity factory and loader, and MikroORM's configuration written twice, each time
 * into `process.env`) cost a one-row read about 3 % of its CPU for nothing it used. Until the fork is
 * made, a read uses Kysely on the pool outside any transaction (`pool`): what a fork that has begun none
 * reads with, so a read sees the same rows either way.
 */
export class RequestEntityManager {
  #forked: EntityManager | null;

  private constructor(
    private readonly db: Pick<Database, 'fork' | 'kysely' | 'orm'> | null,
    made: EntityManager | null,
  ) {
    this.#forked = made;
  }

  /** Forked from `db` when first asked for. */
  static of(db: Pick<Database, 'fork' | 'kysely' | 'orm'>): RequestEntityManager {
    return new RequestEntityManager(db, null);
  }

  /** An EntityManager made already (a job's, a transaction's, a test's). */
  static made(em: EntityManager): RequestEntityManager {
    return new RequestEntityManager(null, em);
  }

  /** The request's EntityManager, forked now if it was not yet. */
  get(): EntityManager {
    this.#forked ??= this.db!.fork();
    return this.#forked;
  }

  /** The fork, if something asked for it already. */
  get current(): EntityManager | null {
    return this.#forked;
  }

  /** Kysely on the pool, outside any transaction: what a read uses while nothing has forked (platform/reads/queries.ts `readsOf`). */
  // biome-ignore lint/suspicious/noExplicitAny: every module's reads type their own tables (platform/reads/queries.ts).
  get pool(): Kysely<any> {
    return this.db!.kysely;
  }

  /** For the ORM's metadata and platform, which every fork shares: the fork once there is one, the global EntityManager before (never queried). */
  model(): Pick<EntityManager, 'getMetadata' | 'getPlatform'> {
    return this.#forked ?? this.db!.orm.em;
  }
}
