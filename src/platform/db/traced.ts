import { ATTR_DB_QUERY_TEXT, ATTR_DB_SYSTEM_NAME, DB_SYSTEM_NAME_VALUE_POSTGRESQL } from '@opentelemetry/semantic-conventions';
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';
import { SpanKind, inChildSpan, isTracing } from '../observability/tracing.js';

/** The statement's first word (select, insert, with…): a span name that stays one of a few. */
const operationOf = (sql: string) => /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? 'sql';

/**
 * A statement's literals, each replaced by `?`: strings (with their `''` and E'' escapes, and dollar quotes) and
 * numbers. Quoted identifiers and `$n` placeholders are kept as they are.
 */
const LITERAL = /("(?:[^"]|"")*")|(\$\d+)|[eE]'(?:[^'\\]|\\.|'')*'|'(?:[^']|'')*'|\$(\w*)\$[\s\S]*?\$\3\$|(?<![\w$.])\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b/g;

/**
 * The statement without its values. MikroORM sends its writes and `execute` calls with the values
 * already inlined (a customer's email, a KYC token, a key's prefix, an encrypted secret), so the text
 * a span records is the statement's shape only: what it did, never to whom.
 */
export const withoutLiterals = (sql: string): string =>
  sql.replace(LITERAL, (_, identifier?: string, placeholder?: string) => identifier ?? placeholder ?? '?');

/**
 * A statement run inside a trace gets a span (its text without its values); outside one, or with export
 * off, it costs one lookup. Begin and commit run on the connection itself and get none.
 */
function traced(connection: DatabaseConnection): DatabaseConnection {
  return {
    executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      if (!isTracing()) return connection.executeQuery<R>(query);
      const attributes = { [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL, [ATTR_DB_QUERY_TEXT]: withoutLiterals(query.sql) };
      return inChildSpan(`db ${operationOf(query.sql)}`, { kind: SpanKind.CLIENT, attributes }, () => connection.executeQuery<R>(query));
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

/**
 * A Kysely dialect whose connections trace their statements: the one place SQL spans are made, for both
 * drivers (driver.ts wraps each connection class's dialect). The inner driver always gets its own connection back.
 */
export function tracedDialect(dialect: Dialect): Dialect {
  const wrappers = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const inner = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const own = (connection: DatabaseConnection) => inner.get(connection) ?? connection;
  const wrap = (connection: DatabaseConnection) => {
    let wrapper = wrappers.get(connection);
    if (!wrapper) {
      wrapper = traced(connection);
      wrappers.set(connection, wrapper);
      inner.set(wrapper, connection);
    }
    return wrapper;
  };
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver(): Driver {
      const driver = dialect.createDriver();
      return {
        init: () => driver.init(),
        acquireConnection: async () => wrap(await driver.acquireConnection()),
        beginTransaction: (c: DatabaseConnection, settings: TransactionSettings) => driver.beginTransaction(own(c), settings),
        commitTransaction: (c) => driver.commitTransaction(own(c)),
        rollbackTransaction: (c) => driver.rollbackTransaction(own(c)),
        savepoint: driver.savepoint && ((c, name, compile) => driver.savepoint!(own(c), name, compile)),
        rollbackToSavepoint: driver.rollbackToSavepoint && ((c, name, compile) => driver.rollbackToSavepoint!(own(c), name, compile)),
        releaseSavepoint: driver.releaseSavepoint && ((c, name, compile) => driver.releaseSavepoint!(own(c), name, compile)),
        releaseConnection: (c) => driver.releaseConnection(own(c)),
        destroy: () => driver.destroy(),
      };
    },
  };
}
