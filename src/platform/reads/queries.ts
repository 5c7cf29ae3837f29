import type { EntityManager } from '@mikro-orm/sql';
import { type CompiledQuery, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { KeysetPage, Position } from './pagination.js';
import { type OrmModel, type Scope, requestEmOf } from '../use-cases/scope.js';
import type { EntityClass, EntityMetadata, EntityProperty } from '@mikro-orm/core';
import type { Environment } from '../../domain/environment.js';
import { DecimalColumn } from '../db/decimal-column.js';
import type { Decimal, StoredAmount } from '../../domain/money.js';

/**
 * What every module's read file (`<module>/queries.ts`) builds its statements with: Kysely from the
 * scope (`readsOf`: its EntityManager's `em.getKysely()`, bound to its transaction, or the pool's while a
 * request has forked none), typed by the tables the
 * module reads. A module names them from its entity definitions (`InferKyselyDB<typeof TransferSchema | …>`,
 * exported by its entities file as `…Tables`), so a table, a column or a compared value that the entities do
 * not have fails to compile, and a narrow select (a count) returns a row typed by what it selected. A read's
 * values travel apart from its text and the database driver (db/) prepares it.
 */

/** The columns every tenant-owned table carries (`tenantColumns()`, platform/security/tenant.ts): what `tenant` compares. */
interface TenantColumns {
  partner_id: string;
  environment: Environment;
}

/** The tables of `DB` a partner owns: those with the tenant's columns. `tenant` takes no other. */
export type TenantTable<DB> = { [T in keyof DB & string]: DB[T] extends TenantColumns ? T : never }[keyof DB & string];

/** A statement on `DB` driven by `table` under `alias`, as Kysely types `selectFrom('transfers as t')`. */
// biome-ignore lint/complexity/noBannedTypes: nothing is selected yet; Kysely's own starting row type is `{}`.
export type From<DB, T extends keyof DB, A extends string> = SelectQueryBuilder<DB & { [K in A]: DB[T] }, A, {}>;

/**
 * Kysely for a scope's reads: its EntityManager's (a unit of work's is its transaction's), or, while a request's
 * scope has forked none (platform/db/request-em.ts), the pool's, outside any transaction, as a fork that began none
 * reads.
 */
// biome-ignore lint/suspicious/noExplicitAny: every module's reads type their own tables.
export function readsOf(scope: Scope): Kysely<any> {
  const lazy = requestEmOf(scope);
  // Once anything forked the request's EntityManager, its reads are the fork's, as `scope.em`'s are.
  const em = lazy ? lazy.current : scope.em;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  return em ? (em.getKysely() as Kysely<any>) : lazy!.pool;
}

/** The caller's tenant, as a condition on the table under `alias`. */
function tenantOf({ actor }: Scope, alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(`${alias}.partner_id`)} = ${actor.partnerId} and ${sql.ref(`${alias}.environment`)} = ${actor.environment}`;
}

/**
 * One row by its primary key, before the tenant is compared. A named statement runs on a generic plan, and
 * on a table never analyzed (a fresh load) the planner rated `id = $3` and `partner_id = $1 and environment =
 * $2` alike, then reached one transfer through `transfers_customer`: 5,000 rows read for one. `offset 0`
 * keeps the subquery a subquery (PostgreSQL pulls up none with a limit or offset), so the key decides.
 */
// biome-ignore lint/suspicious/noExplicitAny: the subquery's table is the caller's typed one; Kysely cannot name it generically.
const byKey = (reads: Kysely<any>, table: string, key: string) => reads.selectFrom(table).selectAll().where('id', '=', key).offset(0);

/** A module's reads over the tables `DB` (its entities' `…Tables`): the one way its query file starts a statement. */
export interface Reads<DB> {
  /**
   * `select … from <table> <alias> where <the caller's tenant>` (with `key`, of the one row that key names).
   * test/platform/read-layer.test.ts fails a query file whose statements do not start here, so a read cannot
   * forget the tenant; the type refuses a table without the tenant's columns. Rows related to the driving row
   * (its quote, its customer) are joined by their primary key: the driving table fixes the tenant.
   */
  tenant<T extends TenantTable<DB>, A extends string>(scope: Scope, table: T, alias: A, key?: string): From<DB, T, A>;
  /**
   * `select … from <table> <alias>` of every tenant: for the jobs that act for none (a chain's deposit watcher, the
   * custody engine), named so that a read across tenants says so where it is written. Never a request's read.
   */
  acrossTenants<T extends keyof DB & string, A extends string>(em: EntityManager, table: T, alias: A): From<DB, T, A>;
}

/** The reads of a module whose tables are `DB` (`const { tenant } = readsOver<TransferTables & CustomerTables>()`). */
export function readsOver<DB>(): Reads<DB> {
  return {
    tenant(scope, table, alias, key) {
      const reads = readsOf(scope);
      // biome-ignore lint/suspicious/noExplicitAny: the generic table and alias are typed by the signature; Kysely's overloads cannot follow them.
      const from: SelectQueryBuilder<any, any, any> =
        key === undefined ? reads.selectFrom(`${table} as ${alias}`) : reads.selectFrom(byKey(reads, table, key).as(alias));
      return from.where(tenantOf(scope, alias)) as never;
    },
    acrossTenants(em, table, alias) {
      // biome-ignore lint/suspicious/noExplicitAny: as above.
      return (em.getKysely() as Kysely<any>).selectFrom(`${table} as ${alias}`) as never;
    },
  };
}

/** A value a prepared read compares with: one parameter of its statement (a list would change the text). */
type Value = string | number | boolean | null;
/** Stands in for a value (or the tenant) while a prepared read is built, so its place among the parameters is found. */
const STAND_IN = '\u0000ramp-prepared:';
/** Where a compiled parameter comes from on each call: the caller's value, the caller's tenant, or the text's own constant. */
type Slot<V> = (scope: Scope, values: V) => unknown;
/** Shapes kept per prepared read: a GraphQL selection picks the shape, so the cache starts over rather than grow without bound. */
const MAX_PREPARED_SHAPES = 256;

/**
 * A read whose text depends on its shape only, never on its values (a transfer by its id: the same
 * statement on every call). Kysely builds and compiles it once per shape (`keyOf` names it: what a
 * GraphQL selection selects and joins); each call then runs that
 * text with its own values. Building and compiling a statement was a fifth of the CPU a one-row read
 * cost Ramp (the Kysely builder, its compiler and the garbage they leave), for a text that never changed.
 *
 * `build` runs once per shape with stand-ins for the values and for the caller's tenant: it must not
 * branch on them, and each must reach the statement as a parameter. One inlined in the text, or
 * dropped, is refused at that first build, so a read that cannot be prepared fails in its first test.
 * Plugins that rewrite statements are none on the scope's Kysely (`readsOf`: `em.getKysely()` without options, or the pool's).
 */
export function preparedRead<V extends Record<string, Value>, R, S = undefined>(
  // biome-ignore lint/suspicious/noExplicitAny: any statement of any module's tables; its rows are typed by `R`.
  build: (scope: Scope, values: V, shape: S) => SelectQueryBuilder<any, any, R>,
  keyOf: (shape: S) => string = () => '',
): (scope: Scope, values: V, shape: S) => Promise<R[]> {
  const prepared = new Map<string, { query: CompiledQuery; slots: Slot<V>[] }>();
  const prepare = (scope: Scope, values: V, shape: S) => {
    const standIns = Object.fromEntries(Object.keys(values).map((name) => [name, `${STAND_IN}${name}`])) as unknown as V;
    const actor = { ...scope.actor, partnerId: `${STAND_IN}$partnerId`, environment: `${STAND_IN}$environment` } as unknown as Scope['actor'];
    const query = build({ ...scope, actor }, standIns, shape).compile();
    if (query.sql.includes(STAND_IN)) throw new Error('preparedRead: a value was written into the statement text, not sent as a parameter');
    const found = new Set<string>();
    const slots = query.parameters.map((parameter): Slot<V> => {
      if (typeof parameter !== 'string' || !parameter.startsWith(STAND_IN)) return () => parameter;
      const name = parameter.slice(STAND_IN.length);
      found.add(name);
      if (name === '$partnerId') return (s) => s.actor.partnerId;
      if (name === '$environment') return (s) => s.actor.environment;
      return (_, v) => v[name];
    });
    const missing = [...Object.keys(values), '$partnerId', '$environment'].filter((name) => !found.has(name));
    if (missing.length) throw new Error(`preparedRead: ${missing.join(', ')} never reached the statement as a parameter`);
    return { query, slots };
  };
  return async (scope, values, shape) => {
    const key = keyOf(shape);
    let known = prepared.get(key);
    if (!known) {
      known = prepare(scope, values, shape);
      if (prepared.size >= MAX_PREPARED_SHAPES) prepared.clear();
      prepared.set(key, known);
    }
    const parameters = known.slots.map((slot) => slot(scope, values));
    return (await readsOf(scope).executeQuery<R>({ ...known.query, parameters })).rows;
  };
}

/** A place in a keyset list as a prepared read holds it: its time as ISO text, a parameter like its id. */
interface Place {
  createdAt: string;
  id: string;
}
/** A keyset page for `preparedRead`: its places as parameters. */
export type PreparedPage = Omit<KeysetPage, 'after' | 'before'> & { after?: Place | null; before?: Place | null };

/** How a keyset list is ordered: by (`column`, id), oldest first unless `newestFirst` (the audit log). */
export interface KeysetOrder {
  column?: string;
  newestFirst?: boolean;
}

/**
 * One keyset page of `query`, rows ordered by (`column`, id) under `alias` (created_at unless said): the
 * rows after `after` and before `before` in the list's order, `limit` of them, read in that order (or against
 * it when the client pages backwards, `inverted`). Every keyset list of Ramp pages with it; the cursors that
 * name the positions are platform/reads/pagination.ts's.
 */
// biome-ignore lint/suspicious/noExplicitAny: any statement of any module's tables; the caller's type is kept.
export function keyset<Q extends SelectQueryBuilder<any, any, any>>(query: Q, page: KeysetPage | PreparedPage, alias: string, order: KeysetOrder = {}): Q {
  const column = order.column ?? 'created_at';
  const position = sql.raw(`(${alias}.${column}, ${alias}.id)`);
  const [later, earlier] = order.newestFirst ? [sql.raw('<'), sql.raw('>')] : [sql.raw('>'), sql.raw('<')];
  const at = (place: Position | Place) => (typeof place.createdAt === 'string' ? place.createdAt : place.createdAt.toISOString());
  let paged = query;
  if (page.after) paged = paged.where(sql<SqlBool>`${position} ${later} (${at(page.after)}, ${page.after.id})`) as Q;
  if (page.before) paged = paged.where(sql<SqlBool>`${position} ${earlier} (${at(page.before)}, ${page.before.id})`) as Q;
  const direction = page.inverted === Boolean(order.newestFirst) ? 'asc' : 'desc';
  return paged
    .orderBy(sql.ref(`${alias}.${column}`), direction)
    .orderBy(sql.ref(`${alias}.id`), direction)
    .limit(page.limit) as Q;
}

/**
 * What a read shows of an entity: its properties as a plain object. Lists read hundreds of rows
 * and write none, and a managed entity costs a property definition per column per row, a snapshot
 * for change tracking and an identity-map entry: garbage the read never needs. An entity is one
 * too (the read models of writes are their entities), so presenters and GraphQL types take this.
 */
export type Columns<E> = { [K in keyof E as Extract<K, string>]: Stored<E[K]> };

/**
 * A property as a read holds it: money (a Decimal in an entity) as the exact text PostgreSQL stored, which a read only
 * ever shows (`formatAmount` takes both); an entity's Decimal is one too. Parsing 300 amounts of a page into Decimals
 * only to print them again was a twentieth of the page's CPU.
 */
type Stored<T> = T extends Decimal ? StoredAmount : T;

/**
 * `query` with the columns of `shapes` added to its select list (several tables in one row, each under names
 * of its own). The rows are then read by the shapes, typed as their entities' columns.
 */
// biome-ignore lint/suspicious/noExplicitAny: any statement; the select list is text the shapes built from metadata.
export function selecting<Q extends SelectQueryBuilder<any, any, any>>(query: Q, ...shapes: RowShape<unknown>[]): Q {
  return query.select(sql.raw(shapes.map((shape) => shape.select).join(', ')) as never) as Q;
}

/** The rows of a statement that selected one entity's columns (`selecting(query, shape)`), read by its shape. */
// biome-ignore lint/suspicious/noExplicitAny: any statement; its rows are read by the shape, not by its type.
export async function rowsOf<R>(query: SelectQueryBuilder<any, any, any>, shape: RowShape<R>): Promise<R[]> {
  return (await query.execute()).map((row: object) => shape.read(row)!);
}

/** One entity's columns in a statement, under a table alias, read as `R` (its columns, or those selected). */
export interface RowShape<R> {
  /** The select list: every column under a name of its own (`t.status as t6`), so several tables share one row. */
  select: string;
  /** The entity's plain object in a result row, converted as MikroORM would; null when a left join found none. */
  read(row: object): R | null;
}

/**
 * Which properties a read selects of an entity: every one, or only these (its primary key always among
 * them). Named in the code (`['id', 'prefix']`), the row is typed by them (`rowShape`). Chosen at run time
 * by a GraphQL selection (graphql/types/columns.ts), it is typed as the whole row: the type cannot follow a run-time
 * selection, so each field declares what it reads (`reads()`), and one that declares nothing makes the read
 * select whole rows.
 */
export type Wanted = 'all' | readonly string[];

/** The row of an entity with the properties `K` selected (and its `id`). */
export type Selected<E, K extends string> = Pick<E, Extract<K | 'id', keyof E>>;

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

function fieldOf(em: OrmModel, prop: EntityProperty, key: string): Field {
  // Timestamps come from both drivers as text (MikroORM's type parsers), in a form Date reads; custom types (Decimal, JSON) convert themselves.
  if (prop.runtimeType === 'Date') return { key, name: prop.name, convert: (value) => new Date(value as string) };
  const type = prop.customType;
  // Money stays the text PostgreSQL sent (`Columns`): a read shows it, and the select list trimmed its scale.
  if (type instanceof DecimalColumn) return { key, name: prop.name, convert: null };
  const platform = em.getPlatform();
  return { key, name: prop.name, convert: type ? (value) => type.convertToJSValue(value, platform) : null };
}

/**
 * A column as the select list reads it. Money columns are numeric(38,18): PostgreSQL trims the
 * zeros of their scale (the same number), so a read holds "98.44", not "98.440000000000000000",
 * which is what `toFixed()` of its Decimal showed.
 */
const selected = (prop: EntityProperty, alias: string) => {
  const column = `${alias}.${quoted(prop.fieldNames[0]!)}`;
  return prop.customType instanceof DecimalColumn ? `trim_scale(${column})` : column;
};

/**
 * One object literal per row, compiled once per shape (as MikroORM compiles its own mappers): every
 * record of an entity then shares one hidden class, and a page of 100 rows costs 100 allocations.
 */
function compiledReader<R>(fields: Field[], primary: string): RowShape<R>['read'] {
  const row = (key: string) => `row[${JSON.stringify(key)}]`;
  const properties = fields.map(({ key, name, convert }, i) => {
    const value = convert ? `${row(key)} == null ? null : convert[${i}](${row(key)})` : `${row(key)} ?? null`;
    return `${JSON.stringify(name)}: ${value}`;
  });
  const body = `return (row) => ${row(primary)} == null ? null : { ${properties.join(', ')} };`;
  return new Function('convert', body)(fields.map((f) => f.convert)) as RowShape<R>['read'];
}

/**
 * How `entity`'s rows are selected and read under `alias` (`select t.…, q.… from transfers t join
 * quotes q …`), built once from MikroORM's metadata: the entity definition stays the one source.
 */
export function rowShape<E extends object>(em: OrmModel, entity: EntityClass<E>, alias: string): RowShape<Columns<E>>;
export function rowShape<E extends object, K extends Extract<keyof E, string>>(
  em: OrmModel,
  entity: EntityClass<E>,
  alias: string,
  wanted: readonly K[],
): RowShape<Selected<Columns<E>, K>>;
export function rowShape<E extends object>(em: OrmModel, entity: EntityClass<E>, alias: string, wanted?: Wanted): RowShape<Columns<E>>;
export function rowShape<E extends object>(em: OrmModel, entity: EntityClass<E>, alias: string, wanted: Wanted = 'all'): RowShape<Columns<E>> {
  const meta = em.getMetadata().get(entity) as EntityMetadata;
  const byAlias = shapes.get(meta) ?? new Map<string, RowShape<unknown>>();
  shapes.set(meta, byAlias);
  const cacheKey = wanted === 'all' ? alias : `${alias}:${keyOf(wanted)}`;
  const known = byAlias.get(cacheKey);
  if (known) return known as RowShape<Columns<E>>;
  // A lazy column (a sealed value only one use case opens) is read only when asked for by name; its property is
  // then absent from the row, which its type still names (the one use case reads it through its entity).
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
  const shape: RowShape<Columns<E>> = {
    select: props.map((prop, i) => `${selected(prop, alias)} as ${fields[i]!.key}`).join(', '),
    read: compiledReader<Columns<E>>(fields, primary),
  };
  if (byAlias.size >= MAX_SHAPES) byAlias.clear();
  byAlias.set(cacheKey, shape as RowShape<unknown>);
  return shape;
}
