import type { Configuration, Constructor, EntityManagerType } from '@mikro-orm/core';
import { AbstractSqlDriver, type AbstractSqlConnection, type AbstractSqlPlatform, type BasePostgreSqlEntityManager } from '@mikro-orm/sql';

/**
 * A MikroORM SQL driver class as the library defines its own (platform, entity manager, ORM class),
 * over a connection class of ours whose Kysely dialect prepares statements: given to MikroORM as its
 * public `driver` option (db.ts).
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
      super(config, definition.platform(), definition.connection as never, definition.dependencies);
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
