/**
 * Preloaded (`--import`) into every server the bench starts: counts the SQL statements the process
 * sends, whichever library sends them, and answers the count over the IPC channel. Counted at the
 * driver, so Ramp, the floor servers and PostGraphile are measured the same way (PostgreSQL's
 * pg_stat_statements needs a server setting we do not change on a shared server).
 * BENCH_SQL_LOG=1 also prints each statement to stderr (to see what a request runs).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

let statements = 0;
const log = process.env.BENCH_SQL_LOG === '1';
const seen = (text: unknown) => {
  statements++;
  if (log)
    process.stderr.write(
      `[sql] ${String(typeof text === 'object' && text ? (text as { text?: string }).text : text)
        .replace(/\s+/g, ' ')
        .slice(0, 240)}\n`,
    );
};

// pg: every statement, simple or extended protocol, goes through Client#query (pools call it too).
// Each copy of pg in the tree is patched: MikroORM's driver may carry its own.
const patched = new WeakSet<object>();
function countPg(requireFrom: string) {
  try {
    const { Client } = createRequire(requireFrom)('pg') as { Client: { prototype: { query: (...a: unknown[]) => unknown } } };
    if (patched.has(Client)) return;
    patched.add(Client);
    const query = Client.prototype.query;
    Client.prototype.query = function (this: unknown, ...args: unknown[]) {
      seen(args[0]);
      return query.apply(this, args);
    };
  } catch {
    // that package is not installed here
  }
}
const modules = join(process.cwd(), 'node_modules');
countPg(join(modules, 'noop.js'));
countPg(join(modules, '@mikro-orm/postgresql/noop.js'));
countPg(join(modules, 'postgraphile/noop.js'));
countPg(join(modules, '@dataplan/pg/noop.js'));

// PGlite through kysely (MikroORM's driver): statements through the connection, BEGIN/COMMIT through the driver.
try {
  const { PGliteDriver } = await import('kysely');
  const proto = PGliteDriver.prototype as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const wrapped = new WeakSet<object>();
  const acquire = proto.acquireConnection!;
  proto.acquireConnection = async function (this: unknown, ...args: unknown[]) {
    const connection = (await acquire.apply(this, args)) as { executeQuery: (q: { sql: string }) => Promise<unknown> };
    if (connection && !wrapped.has(connection)) {
      wrapped.add(connection);
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = (q) => {
        seen(q.sql);
        return execute(q);
      };
    }
    return connection;
  };
  for (const name of ['beginTransaction', 'commitTransaction', 'rollbackTransaction'] as const) {
    const original = proto[name]!;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      seen(name);
      return original.apply(this, args);
    };
  }
} catch {
  // no kysely here (a baseline server): only pg is counted
}

process.on('message', (message) => {
  if (message === 'sql-count') process.send?.({ sqlCount: statements });
});
