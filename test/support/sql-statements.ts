import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PGliteDriver } from 'kysely';

/**
 * Records the SQL statements this process sends, at the drivers (pg's Client#query, every copy of pg
 * in the tree, and kysely's PGlite connection with its BEGIN/COMMIT), so a test can count what one
 * request runs on a real database. Nothing is replaced: every statement still runs.
 */
const recorded: string[] = [];
let installed = false;
/** Recordings under way: statements are kept only then (a worker runs many test files, and keeps this module). */
let recording = 0;
const record = (sql: string) => {
  if (recording > 0) recorded.push(sql);
};

function install() {
  if (installed) return;
  installed = true;
  const modules = join(process.cwd(), 'node_modules');
  const clients = new Set<{ prototype: { query: (...args: unknown[]) => unknown } }>();
  for (const from of ['', '@mikro-orm/postgresql/']) {
    try {
      clients.add(createRequire(join(modules, from, 'noop.js'))('pg').Client);
    } catch {
      // no such copy of pg
    }
  }
  for (const Client of clients) {
    const query = Client.prototype.query;
    Client.prototype.query = function (this: unknown, ...args: unknown[]) {
      const text = args[0];
      record(typeof text === 'string' ? text : String((text as { text?: string })?.text ?? text));
      return query.apply(this, args);
    };
  }
  const proto = driverPrototype();
  for (const [method, sql] of [
    ['beginTransaction', 'begin'],
    ['commitTransaction', 'commit'],
    ['rollbackTransaction', 'rollback'],
  ] as const) {
    const original = proto[method]!;
    proto[method] = function (this: unknown, ...args: unknown[]) {
      record(sql);
      return original.apply(this, args);
    };
  }
}

const driverPrototype = () => PGliteDriver.prototype as unknown as Record<string, ((...args: unknown[]) => Promise<unknown>) & { counts?: true }>;

/**
 * Wraps the PGlite connection the driver hands out, on top of whatever wraps acquireConnection now
 * (platform/pglite-serial.ts installs its lock when the database opens), so it runs at each count.
 */
function wrapPgliteConnections() {
  const proto = driverPrototype();
  const acquire = proto.acquireConnection!;
  if (acquire.counts) return;
  const wrapped = new WeakSet<object>();
  const counting = async function (this: unknown, ...args: unknown[]) {
    const connection = (await acquire.apply(this, args)) as { executeQuery: (q: { sql: string }) => Promise<unknown> };
    if (!wrapped.has(connection)) {
      wrapped.add(connection);
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = (q) => {
        record(q.sql);
        return execute(q);
      };
    }
    return connection;
  };
  proto.acquireConnection = Object.assign(counting, { counts: true as const });
}

/**
 * Work Ramp does on its own, not for a request: the outbox catch-up poll, the webhook dispatcher's
 * passes (woken by the NOTIFY of a request's event), LISTEN, the key watch. Left out of a request's count.
 */
const BACKGROUND = [
  /^\s*with batch as/i,
  /^\s*update webhook_deliveries d set status = 'canceled'/i,
  /^\s*with due as/i,
  /coalesce\(max\(cursor\)/i,
  /^\s*listen /i,
];

export function recordSqlStatements() {
  install();
  return {
    /** The statements `work` caused, background work left out. */
    async during(work: () => Promise<unknown>): Promise<string[]> {
      wrapPgliteConnections();
      recording++;
      const from = recorded.length;
      try {
        await work();
        return recorded.slice(from).filter((sql) => !BACKGROUND.some((pattern) => pattern.test(sql)));
      } finally {
        if (--recording === 0) recorded.length = 0;
      }
    },
  };
}
