import pg from 'pg';

/** A column as PostgreSQL's RowDescription names it (pg's `FieldDef`). */
type Column = Pick<pg.FieldDef, 'name' | 'dataTypeID' | 'format'>;

/** What pg makes of a RowDescription: a parser per column and the empty row it copies for each row. */
interface RowShape {
  columns: Column[];
  parsers: unknown[];
  empty: object;
}

/** The part of pg's Query and Result (pg/lib/query.js, result.js) this reads and writes; pg declares none of it. */
interface QueryInternals {
  name?: string;
  callback?: unknown;
  _accumulateRows: unknown;
  _result: { command: string | null; fields: Column[]; _parsers?: unknown[]; _prebuiltEmptyResultObject: object | null };
  listeners(event: 'row'): unknown[];
}

/**
 * Whether this pg's Query and Result still have the members read and written here. pg is pinned exactly
 * (package.json), so this holds until someone upgrades it; should a new pg rename them, named statements go through
 * pg's own path (as unnamed ones do) rather than read rows wrong. `_accumulateRows` is checked after pg's own
 * `handleRowDescription` has set it, on a statement's first answer.
 */
const knowsPgResult = (() => {
  const probe = new (pg.Query as unknown as new (config: object) => Partial<QueryInternals>)({ text: 'select 1' });
  const result = probe._result as object | undefined;
  return (
    typeof (pg.Query.prototype as { handleRowDescription?: unknown }).handleRowDescription === 'function' &&
    result !== undefined &&
    'command' in result &&
    '_parsers' in result &&
    '_prebuiltEmptyResultObject' in result &&
    'fields' in result
  );
})();

const sameColumns = (kept: Column[], given: Column[]) => {
  if (kept.length !== given.length) return false;
  for (let i = 0; i < kept.length; i++) {
    const a = kept[i]!;
    const b = given[i]!;
    if (a.dataTypeID !== b.dataTypeID || a.name !== b.name || a.format !== b.format) return false;
  }
  return true;
};

/**
 * The rows' shapes of one pool's named statements, by name. pg builds, for every answer, a parser per column and an
 * empty row with a key per column from the RowDescription PostgreSQL sends with it (`Result#addFields`): for a
 * one-row read that cost as much as reading the row (7 % of a P1 REST read of 36 columns, 3 % of a GraphQL one). A
 * named statement's text never changes, so neither does its description while the schema stays the same. Each
 * answer's description is still compared with the kept one, column by column (name, type, format), and a
 * different one (a column changed under a running instance) goes through pg's own path and is kept in its place.
 * One instance per pool: statement names are per pool (`StatementNames`), and so are its clients' type parsers.
 */
export class KeptRowShapes {
  readonly #shapes = new Map<string, RowShape>();

  /** A named statement, sent through `client`, its rows read with the shape kept for its name. */
  query(client: pg.PoolClient, config: { name: string; text: string; values: unknown[] }): Promise<pg.QueryResult> {
    if (!knowsPgResult) return client.query(config);
    const shapes = this.#shapes;
    return new Promise((resolve, reject) => {
      const query = new KeptShapeQuery(
        {
          ...config,
          callback: (error: Error | undefined, result: pg.QueryResult) => {
            if (!error) return resolve(result);
            // As pg's own promise does: a stack that is not only the socket's that read the error.
            Error.captureStackTrace(error);
            reject(error);
          },
        },
        shapes,
      );
      client.query(query as never);
    });
  }
}

class KeptShapeQuery extends (pg.Query as unknown as new (config: object) => QueryInternals & { handleRowDescription(msg: { fields: Column[] }): void }) {
  readonly #shapes: Map<string, RowShape>;
  constructor(config: object, shapes: Map<string, RowShape>) {
    super(config);
    this.#shapes = shapes;
  }

  override handleRowDescription(msg: { fields: Column[] }) {
    const result = this._result;
    const kept = this.name === undefined ? undefined : this.#shapes.get(this.name);
    // A first answer (`command` unset: one statement per named query) whose columns are the kept ones.
    if (kept && result.command === null && sameColumns(kept.columns, msg.fields)) {
      result.fields = msg.fields;
      result._parsers = kept.parsers;
      result._prebuiltEmptyResultObject = kept.empty;
      this._accumulateRows = Boolean(this.callback) || !this.listeners('row').length;
      return;
    }
    super.handleRowDescription(msg);
    const made = this._result;
    if (this.name !== undefined && made._parsers && made._prebuiltEmptyResultObject && '_accumulateRows' in this) {
      this.#shapes.set(this.name, { columns: msg.fields, parsers: made._parsers, empty: made._prebuiltEmptyResultObject });
    }
  }
}
