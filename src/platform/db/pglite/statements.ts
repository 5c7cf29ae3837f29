import { type PGlite, type QueryOptions, type Results, messages, protocol } from '@electric-sql/pglite';
import { bindExecuteSync } from './bind.js';

/** What PostgreSQL described of a named statement: its parameters' and columns' types. */
interface Statement {
  name: string;
  preparedAt: number;
  params: number[];
  columns: { name: string; type: number }[];
}

// Statements whose plan and row shape depend on the schema only: the ones worth keeping.
const KEPT = /^\s*(select|insert|update|delete|with)\b/i;
// Statements that change no schema: they leave the kept statements as they are.
const HARMLESS = /^\s*(begin|start|commit|end|rollback|abort|savepoint|release|notify|listen|unlisten|show)\b/i;
const { serialize } = protocol;
const { DatabaseError } = messages;

/**
 * PGlite's `query()` pays for every statement in full, on Node's one thread: six calls into the
 * WebAssembly engine (parse, describe, bind, describe, execute, sync), a fresh parse and plan, and a
 * copy of its whole parser table to read the rows. Here a statement is parsed and described once,
 * under a name, and then runs as bind + execute + sync in one call, on PostgreSQL's cached plan,
 * through PGlite's public protocol API (`execProtocolStream`, inside `runExclusive`).
 *
 * Only plain reads and writes are kept (`handles`); the driver runs any other statement (DDL of a
 * migration, SET, …) through PGlite's own `query()`, and `forgetUnless` forgets every kept statement
 * first, so no plan or row shape outlives a change of the schema. A kept statement is prepared again
 * after `maxAgeMs`: PGlite never analyzes, so the planner reads table sizes when it plans, and a plan
 * made while a table was small must not live on while it grows. Parameters are serialized by the
 * types PostgreSQL described, with PGlite's own serializers, so values reach the database exactly as
 * through `query()`.
 */
export class KeptStatements {
  readonly #pglite: PGlite;
  readonly #capacity: number;
  readonly #maxAgeMs: number;
  /** By SQL text, oldest first (a Map keeps insertion order; a hit moves to the end). */
  readonly #kept = new Map<string, Statement>();
  /** Names to close with the next batch: evicted or forgotten statements. */
  #closing: string[] = [];
  #next = 0;

  constructor(pglite: PGlite, { capacity = 500, maxAgeMs = 60_000 }: { capacity?: number; maxAgeMs?: number } = {}) {
    this.#pglite = pglite;
    this.#capacity = capacity;
    this.#maxAgeMs = maxAgeMs;
  }

  /** Kept statements take only rowMode; a caller with parsers, serializers or a blob gets PGlite's own path. */
  handles(sql: string, options?: QueryOptions): boolean {
    if (!KEPT.test(sql)) return false;
    if (!options) return true;
    for (const key of Object.keys(options)) if (key !== 'rowMode') return false;
    return true;
  }

  /** Any statement that may change the schema forgets every kept statement (closed with the next batch). */
  forgetUnless(sql: string): string {
    if (!HARMLESS.test(sql) && this.#kept.size > 0) {
      for (const statement of this.#kept.values()) this.#closing.push(statement.name);
      this.#kept.clear();
    }
    return sql;
  }

  /** Runs a statement `handles` accepted, prepared once; the caller holds PGlite exclusively (`runExclusive`). */
  async run<T>(sql: string, params: readonly unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    let statement = this.#kept.get(sql);
    if (statement && performance.now() - statement.preparedAt > this.#maxAgeMs) {
      this.#forget(sql);
      statement = undefined;
    }
    if (statement) {
      this.#kept.delete(sql);
      this.#kept.set(sql, statement);
    } else {
      statement = await this.#prepare(sql, params, options);
    }
    const values = this.#values(statement, params);
    const run = values.every((value) => value === null || typeof value === 'string')
      ? [bindExecuteSync(statement.name, values as (string | null)[])]
      : [serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()];
    const replies = await this.#send(run);
    const error = replies.find((reply) => reply instanceof DatabaseError);
    if (error) {
      // A kept plan whose result type changed under it (PostgreSQL's 0A000): forget it, the next call prepares anew.
      if (error.code === '0A000') this.#forget(sql);
      throw Object.assign(error, { query: sql, params, queryOptions: options });
    }
    if (!inTransaction) await this.#pglite.syncToFs();
    return this.#results<T>(statement, replies, options);
  }

  /** Parse and describe under a fresh name; kept only when PostgreSQL accepted it. */
  async #prepare(sql: string, params: readonly unknown[], options: QueryOptions | undefined): Promise<Statement> {
    const name = `ramp_${(this.#next++).toString(36)}`;
    const replies = await this.#send([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]);
    const error = replies.find((reply) => reply instanceof DatabaseError);
    if (error) throw Object.assign(error, { query: sql, params, queryOptions: options });
    const described = replies.find((reply): reply is messages.ParameterDescriptionMessage => reply.name === 'parameterDescription');
    const row = replies.find((reply): reply is messages.RowDescriptionMessage => reply.name === 'rowDescription');
    const statement: Statement = {
      name,
      preparedAt: performance.now(),
      params: described?.dataTypeIDs ?? [],
      columns: row?.fields.map((field) => ({ name: field.name, type: field.dataTypeID })) ?? [],
    };
    this.#kept.set(sql, statement);
    if (this.#kept.size > this.#capacity) {
      const [oldest] = this.#kept.keys();
      if (oldest !== undefined) this.#forget(oldest);
    }
    return statement;
  }

  #forget(sql: string) {
    const statement = this.#kept.get(sql);
    if (!statement) return;
    this.#kept.delete(sql);
    this.#closing.push(statement.name);
  }

  /** One call into PGlite for the whole batch, after closing what was forgotten; errors come back as replies. */
  async #send(batch: Uint8Array[]): Promise<messages.BackendMessage[]> {
    if (this.#closing.length > 0) {
      batch.unshift(...this.#closing.map((name) => serialize.close({ type: 'S', name })));
      this.#closing = [];
    }
    return this.#pglite.execProtocolStream(batch.length === 1 ? batch[0]! : joined(batch), { syncToFs: false, throwOnError: false });
  }

  /** As PGlite's query() does: its serializer for the parameter's type, else the value's text. */
  #values(statement: Statement, params: readonly unknown[]): (string | ArrayBufferView | null)[] {
    const serializers = this.#pglite.serializers;
    return params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = serializers[statement.params[i] ?? 0];
      const value: unknown = serializer ? serializer(param) : String(param);
      return typeof value === 'string' || ArrayBuffer.isView(value) ? value : String(value);
    });
  }

  #results<T>(statement: Statement, replies: messages.BackendMessage[], options: QueryOptions | undefined): Results<T> {
    const parsers = this.#pglite.parsers;
    const columns = statement.columns;
    const byColumn = columns.map((column) => parsers[column.type]);
    const asArrays = options?.rowMode === 'array';
    const rows: unknown[] = [];
    let affectedRows = 0;
    let rowCount: number | undefined;
    let command: string | undefined;
    for (const reply of replies) {
      if (reply instanceof messages.DataRowMessage) {
        const values = reply.fields;
        if (asArrays) {
          rows.push(values.map((value, i) => parse(value, byColumn[i], columns[i]!.type)));
        } else {
          const row: Record<string, unknown> = {};
          for (let i = 0; i < values.length; i++) row[columns[i]!.name] = parse(values[i] ?? null, byColumn[i], columns[i]!.type);
          rows.push(row);
        }
      } else if (reply instanceof messages.CommandCompleteMessage) {
        // "SELECT 2", "UPDATE 3", "INSERT 0 5": the count is the last word.
        const words = reply.text.split(' ');
        command = words[0];
        const count = Number.parseInt(words[words.length - 1] ?? '', 10);
        if (!Number.isNaN(count)) rowCount = count;
        if (command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE') affectedRows = count;
      }
    }
    const fields = columns.map((column) => ({ name: column.name, dataTypeID: column.type }));
    return { rows: rows as T[], fields, affectedRows, ...(command !== undefined && { command }), ...(rowCount !== undefined && { rowCount }) };
  }
}

function joined(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const message = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}

function parse(value: string | null, parser: ((value: string, type: number) => unknown) | undefined, type: number): unknown {
  if (value === null) return null;
  return parser ? parser(value, type) : value;
}
