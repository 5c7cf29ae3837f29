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

// PGlite through Ramp's driver (platform/db/pglite): every statement, BEGIN/COMMIT included, through its connection.
try {
  const { PgliteStatementsConnection } = await import('../src/platform/db/pglite/driver.js');
  const proto = PgliteStatementsConnection.prototype;
  const execute = proto.executeQuery;
  proto.executeQuery = function (this: InstanceType<typeof PgliteStatementsConnection>, query) {
    seen(query.sql);
    return execute.call(this, query);
  } as typeof execute;
} catch {
  // not Ramp (a baseline server): only pg is counted
}

process.on('message', (message) => {
  if (message === 'sql-count') process.send?.({ sqlCount: statements });
  // What the process keeps once it has nothing to do: a full collection first (servers run with --expose-gc), so
  // the figure is memory held, not garbage V8 had no reason to collect yet.
  if (message === 'memory-at-rest') {
    (globalThis as { gc?: () => void }).gc?.();
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    process.send?.({ memoryAtRest: { rss, heapUsed, external, arrayBuffers } });
  }
});
