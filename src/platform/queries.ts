import type { EntityManager } from '@mikro-orm/sql';
import { type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { KeysetPage } from './pagination.js';
import type { Scope } from './scope.js';
import type { EntityClass, EntityMetadata, EntityProperty } from '@mikro-orm/core';
import { DecimalColumn } from './decimal-column.js';

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
 * `select … from <table> <alias> where <the caller's tenant>` (with `key`, of the one row that key names): the one way a module's query file
 * starts a statement (test/platform/read-layer.test.ts fails one that calls Kysely's selectFrom itself), so
 * a read cannot forget the tenant. Rows related to the driving row (its quote, its customer) are
 * joined by their primary key: the driving table fixes the tenant.
 */
export function tenant(scope: Scope, table: string, alias: string, key?: string): Select {
  const reads = readsOf(scope.em);
  const from: Select = key === undefined ? reads.selectFrom(`${table} as ${alias}`) : reads.selectFrom(byKey(reads, table, key).as(alias));
  return from.where(tenantOf(scope, alias));
}

/**
 * One row by its primary key, before the tenant is compared. A named statement runs on a generic plan, and
 * on a table never analyzed (a fresh load) the planner rated `id = $3` and `partner_id = $1 and environment =
 * $2` alike, then reached one transfer through `transfers_customer`: 5,000 rows read for one. `offset 0`
 * keeps the subquery a subquery (PostgreSQL pulls up none with a limit or offset), so the key decides.
 */
const byKey = (reads: Reads, table: string, key: string) => reads.selectFrom(table).selectAll().where('id', '=', key).offset(0);

/**
 * One keyset page of rows ordered by (created_at, id) under `alias`: the rows after `after` and
 * before `before`, and the order (oldest first, newest first when the client pages backwards).
 */
export function keyset(page: KeysetPage, alias: string): { where: Expression<SqlBool>[]; direction: 'asc' | 'desc' } {
  const where: Expression<SqlBool>[] = [];
  const position = sql.raw(`(${alias}.created_at, ${alias}.id)`);
  if (page.after) where.push(sql<SqlBool>`${position} > (${page.after.createdAt.toISOString()}, ${page.after.id})`);
  if (page.before) where.push(sql<SqlBool>`${position} < (${page.before.createdAt.toISOString()}, ${page.before.id})`);
  return { where, direction: page.inverted ? 'desc' : 'asc' };
}

/**
 * What a read shows of an entity: its properties as a plain object. Lists read hundreds of rows
 * and write none, and a managed entity costs a property definition per column per row, a snapshot
 * for change tracking and an identity-map entry: garbage the read never needs. An entity is one
 * too (the read models of writes are their entities), so presenters and GraphQL types take this.
 */
export type Columns<E> = Pick<E, Extract<keyof E, string>>;

/** One entity's columns in a statement, under a table alias. */
export interface RowShape<E> {
  /** The select list: every column under a name of its own (`t.status as t6`), so several tables share one row. */
  select: string;
  /** The entity's plain object in a result row, converted as MikroORM would; null when a left join found none. */
  read(row: Record<string, unknown>): Columns<E> | null;
}

/**
 * Which properties a read selects of an entity: every one, or only these (its primary key always
 * among them). A partial record is typed as the whole one; only a reader that asked for the
 * properties it uses may take it (GraphQL pages, whose fields say what they read).
 */
export type Wanted = 'all' | readonly string[];

interface Field {
  key: string;
  name: string;
  convert: ((value: unknown) => unknown) | null;
}

const shapes = new WeakMap<EntityMetadata, Map<string, RowShape<unknown>>>();
const wantedKeys = new WeakMap<readonly string[], string>();
/** A list of properties as a cache key, kept per list: a document's selection asks with the same list every time. */
const keyOf = (wanted: readonly string[]) => {
  let key = wantedKeys.get(wanted);
  if (key === undefined) {
    key = [...new Set(wanted)].sort().join(',');
    wantedKeys.set(wanted, key);
  }
  return key;
};
/** Shapes kept per entity: selections are the clients' to vary, so the cache starts over rather than grow without bound. */
const MAX_SHAPES = 256;
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

function fieldOf(em: EntityManager, prop: EntityProperty, key: string): Field {
  // Timestamps come from both drivers as text (MikroORM's type parsers), in a form Date reads; custom types (Decimal, JSON) convert themselves.
  if (prop.runtimeType === 'Date') return { key, name: prop.name, convert: (value) => new Date(value as string) };
  const type = prop.customType;
  const platform = em.getPlatform();
  return { key, name: prop.name, convert: type ? (value) => type.convertToJSValue(value, platform) : null };
}

/**
 * A column as the select list reads it. Money columns are numeric(38,18): PostgreSQL trims the
 * zeros of their scale (the same number), so building each Decimal parses "98.44", not
 * "98.440000000000000000" (half its cost on a page of quotes).
 */
const selected = (prop: EntityProperty, alias: string) => {
  const column = `${alias}.${quoted(prop.fieldNames[0]!)}`;
  return prop.customType instanceof DecimalColumn ? `trim_scale(${column})` : column;
};

/**
 * One object literal per row, compiled once per shape (as MikroORM compiles its own mappers): every
 * record of an entity then shares one hidden class, and a page of 100 rows costs 100 allocations.
 */
function compiledReader<E>(fields: Field[], primary: string): RowShape<E>['read'] {
  const row = (key: string) => `row[${JSON.stringify(key)}]`;
  const properties = fields.map(({ key, name, convert }, i) => {
    const value = convert ? `${row(key)} == null ? null : convert[${i}](${row(key)})` : `${row(key)} ?? null`;
    return `${JSON.stringify(name)}: ${value}`;
  });
  const body = `return (row) => ${row(primary)} == null ? null : { ${properties.join(', ')} };`;
  return new Function('convert', body)(fields.map((f) => f.convert)) as RowShape<E>['read'];
}

/**
 * How `entity`'s rows are selected and read under `alias` (`select t.…, q.… from transfers t join
 * quotes q …`), built once from MikroORM's metadata: the entity definition stays the one source.
 */
export function rowShape<E extends object>(em: EntityManager, entity: EntityClass<E>, alias: string, wanted: Wanted = 'all'): RowShape<E> {
  const meta = em.getMetadata().get(entity) as EntityMetadata;
  const byAlias = shapes.get(meta) ?? new Map<string, RowShape<unknown>>();
  shapes.set(meta, byAlias);
  const cacheKey = wanted === 'all' ? alias : `${alias}:${keyOf(wanted)}`;
  const known = byAlias.get(cacheKey);
  if (known) return known as RowShape<E>;
  // A lazy column (a sealed value only one use case opens) is read only when asked for by name.
  const columns = meta.props.filter((prop) => prop.persist !== false && prop.fieldNames?.length === 1 && (wanted !== 'all' || !prop.lazy));
  const primaryName = meta.getPrimaryProps()[0]!.name;
  if (wanted !== 'all') {
    const unknown = wanted.filter((name) => !columns.some((prop) => prop.name === name));
    if (unknown.length) throw new Error(`${meta.className} has no column property ${unknown.join(', ')}`);
  }
  const props = wanted === 'all' ? columns : columns.filter((prop) => prop.name === primaryName || wanted.includes(prop.name));
  // Short result names (`t0`, `t1`…): the statement is sent whole with every page.
  const fields = props.map((prop, i) => fieldOf(em, prop, `${alias}${i}`));
  const primary = fields[props.findIndex((prop) => prop.name === primaryName)]!.key;
  const shape: RowShape<E> = {
    select: props.map((prop, i) => `${selected(prop, alias)} as ${fields[i]!.key}`).join(', '),
    read: compiledReader<E>(fields, primary),
  };
  if (byAlias.size >= MAX_SHAPES) byAlias.clear();
  byAlias.set(cacheKey, shape as RowShape<unknown>);
  return shape;
}
