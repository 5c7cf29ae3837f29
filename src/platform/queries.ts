import type { EntityManager } from '@mikro-orm/sql';
import { type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { KeysetPage } from './pagination.js';
import { decodeCursor } from './pagination.js';
import type { Scope } from './scope.js';

/**
 * What every module's read file (`<module>/queries.ts`) builds its statements with: Kysely from the
 * scope's EntityManager (MikroORM's `em.getKysely()`, bound to its transaction), so a read's values
 * travel apart from its text and the database driver (db/) prepares it. Tables and columns are
 * named by their SQL names under a table alias (`t`, `q`, `c`).
 */
// biome-ignore lint/suspicious/noExplicitAny: the tables are named in SQL, under aliases; rows are read by the modules' row shapes.
export type Reads = Kysely<any>;

/** The Kysely a scope's reads run on: its EntityManager's, inside its transaction if it is in one. */
const readsOf = (em: EntityManager): Reads => em.getKysely();

// biome-ignore lint/suspicious/noExplicitAny: see Reads.
export type Select = SelectQueryBuilder<any, any, any>;

/** The caller's tenant, as a condition on the table under `alias`. */
function tenantOf({ actor }: Scope, alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(`${alias}.partner_id`)} = ${actor.partnerId} and ${sql.ref(`${alias}.environment`)} = ${actor.environment}`;
}

/**
 * `select … from <table> <alias> where <the caller's tenant>`: the one way a module's query file
 * starts a statement (test/read-layer.test.ts fails one that calls Kysely's selectFrom itself), so
 * a read cannot forget the tenant. Rows related to the driving row (its quote, its customer) are
 * joined by their primary key: the driving table fixes the tenant.
 */
export function tenant(scope: Scope, table: string, alias: string): Select {
  return readsOf(scope.em).selectFrom(`${table} as ${alias}`).where(tenantOf(scope, alias));
}

/**
 * One keyset page of rows ordered by (created_at, id) under `alias`: the rows after `after` and
 * before `before`, and the order (oldest first, newest first when the client pages backwards).
 */
export function keyset(page: KeysetPage, alias: string): { where: Expression<SqlBool>[]; direction: 'asc' | 'desc' } {
  const where: Expression<SqlBool>[] = [];
  const position = sql.raw(`(${alias}.created_at, ${alias}.id)`);
  if (page.after) {
    const c = decodeCursor(page.after, '/after');
    where.push(sql<SqlBool>`${position} > (${c.createdAt.toISOString()}, ${c.id})`);
  }
  if (page.before) {
    const c = decodeCursor(page.before, '/before');
    where.push(sql<SqlBool>`${position} < (${c.createdAt.toISOString()}, ${c.id})`);
  }
  return { where, direction: page.inverted ? 'desc' : 'asc' };
}
