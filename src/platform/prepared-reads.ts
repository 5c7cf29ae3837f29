import type { EntityManager } from '@mikro-orm/sql';
import type pg from 'pg';

/**
 * The hot reads (transfer pages and single transfers) as named prepared statements on PostgreSQL,
 * as PostGraphile sends its own: MikroORM writes each statement's values into its text, so
 * PostgreSQL parsed and planned a page afresh on every request (half of what the page cost the
 * server, on a machine whose two cores the server shares with Ramp). Prepared once per pooled
 * connection, a page runs on its cached plan.
 *
 * Only outside a transaction (a transaction's statements must run on its connection, through the
 * EntityManager) and for at most `capacity` distinct statements: a selection decides the columns,
 * so clients vary the text, and every name is kept by PostgreSQL per connection. Past that, a read
 * goes the usual way. Migrations run before any read, so no plan outlives a schema change.
 */
class PreparedReads {
  readonly #names = new Map<string, string>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly capacity: number,
  ) {}

  /** The statement's name, or null when the capacity is spent on others. */
  nameOf(text: string): string | null {
    const known = this.#names.get(text);
    if (known) return known;
    if (this.#names.size >= this.capacity) return null;
    const name = `ramp_read_${this.#names.size.toString(36)}`;
    this.#names.set(text, name);
    return name;
  }

  async rows<R>(name: string, text: string, values: unknown[]): Promise<R[]> {
    return (await this.pool.query({ name, text, values })).rows as R[];
  }
}

const byDriver = new WeakMap<object, PreparedReads>();
const numbered = new Map<string, string>();

/** Prepares the hot reads of this ORM's PostgreSQL pool (not called on PGlite, which keeps its own). */
export function prepareReadsOn(driver: object, pool: pg.Pool, capacity = 256): void {
  byDriver.set(driver, new PreparedReads(pool, capacity));
}

/** `?` placeholders as `$1`, `$2`…: the statements given here hold no other question mark. */
function withNumberedParameters(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    if (numbered.size < 1024) numbered.set(sql, text);
  }
  return text;
}

/**
 * The rows of a read whose SQL has `?` placeholders and no other question mark, prepared where it
 * can be (see above), else through the EntityManager.
 */
export function readRows<R = Record<string, unknown>>(em: EntityManager, sql: string, params: unknown[]): Promise<R[]> {
  const prepared = byDriver.get(em.getDriver());
  if (prepared && !em.isInTransaction()) {
    const text = withNumberedParameters(sql);
    const name = prepared.nameOf(text);
    if (name) return prepared.rows<R>(name, text, params);
  }
  return em.execute<R[]>(sql, params);
}
