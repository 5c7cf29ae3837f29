import type { Configuration, Constructor, EntityManagerType } from '@mikro-orm/core';
import type { Dictionary } from '@mikro-orm/core';
import type { Dialect } from 'kysely';
import { AbstractSqlDriver, type AbstractSqlConnection, type AbstractSqlPlatform, type BasePostgreSqlEntityManager } from '@mikro-orm/sql';
import { tracedDialect } from './traced.js';

/** The connection class over a dialect whose statements are traced (traced.ts): both drivers get SQL spans here. */
function tracing<C extends AbstractSqlConnection>(connection: Constructor<C>): Constructor<C> {
  const Base = connection as unknown as abstract new (...args: never[]) => AbstractSqlConnection;
  const dialectOf = connection.prototype.createKyselyDialect as (this: AbstractSqlConnection, overrides: Dictionary) => Dialect | Promise<Dialect>;
  return class extends Base {
    override createKyselyDialect(overrides: Dictionary) {
      const dialect = dialectOf.call(this, overrides);
      return dialect instanceof Promise ? dialect.then(tracedDialect) : tracedDialect(dialect);
    }
  } as unknown as Constructor<C>;
}

/**
 * A MikroORM SQL driver class as the library defines its own (platform, entity manager, ORM class),
 * over a connection class of ours whose Kysely dialect prepares statements: given to MikroORM as its
 * public `driver` option (database.ts).
 */
export function driverOver<C extends AbstractSqlConnection, P extends AbstractSqlPlatform>(definition: {
  connection: Constructor<C>;
  platform: () => P;
  dependencies: string[];
  /** The entity manager class (the library's own), constructed as MikroORM's drivers construct it. */
  entityManager: unknown;
  orm: Constructor<object>;
}) {
  return class extends AbstractSqlDriver<C, P> {
    constructor(config: Configuration) {
      super(config, definition.platform(), tracing(definition.connection) as never, definition.dependencies);
    }

    override createEntityManager(useContext?: boolean): this[typeof EntityManagerType] {
      const EntityManagerClass = this.config.get('entityManager', definition.entityManager as never) as typeof BasePostgreSqlEntityManager;
      return new EntityManagerClass(this.config, this as never, this.metadata, useContext) as never;
    }

    override getORMClass() {
      return definition.orm as never;
    }
  };
}
