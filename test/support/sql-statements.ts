import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PgliteStatementsConnection } from '../../src/platform/db/pglite/driver.js';

/**
 * Records the SQL statements this process sends, at the drivers (pg's Client#query, every copy of pg
 * in the tree, and Ramp's PGlite connection, BEGIN/COMMIT included), so a test can count what one
 * request runs on a real database. Nothing is replaced: every statement still runs.
 */
const recorded: string[] = [];
/** The name a statement was sent under (a PostgreSQL prepared statement), by its index in `recorded`. */
const names = new Map<number, string>();
/** The parameters a statement was sent with, by its index in `recorded`. */
const values = new Map<number, readonly unknown[]>();
let installed = false;
/** Recordings under way: statements are kept only then (a worker runs many test files, and keeps this module). */
let recording = 0;
/** Keeps a statement sent now, with its name and parameters, while a recording runs. */
function record(sql: string, sent?: { name?: unknown; values?: unknown }) {
  if (recording === 0) return;
  if (typeof sent?.name === 'string') names.set(recorded.length, sent.name);
  if (Array.isArray(sent?.values)) values.set(recorded.length, sent.values);
  recorded.push(sql);
}

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
      const config = text as { name?: unknown; values?: unknown; text?: string } | null;
      record(typeof text === 'string' ? text : String(config?.text ?? text), { name: config?.name, values: config?.values ?? args[1] });
      return query.apply(this, args);
    };
  }
  const proto = PgliteStatementsConnection.prototype;
  const execute = proto.executeQuery;
  proto.executeQuery = function (this: PgliteStatementsConnection, query) {
    record(query.sql, { values: query.parameters });
    return execute.call(this, query);
  } as typeof execute;
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
      return (await this.named(work)).map(({ sql }) => sql);
    },
    /** The same, each with the name it was sent under (PostgreSQL's prepared statements), if any, and its parameters. */
    async named(work: () => Promise<unknown>): Promise<{ sql: string; name?: string; values: readonly unknown[] }[]> {
      recording++;
      const from = recorded.length;
      try {
        await work();
        return recorded
          .slice(from)
          .map((sql, i) => ({ sql, values: values.get(from + i) ?? [], ...(names.has(from + i) && { name: names.get(from + i) }) }))
          .filter(({ sql }) => !BACKGROUND.some((pattern) => pattern.test(sql)));
      } finally {
        if (--recording === 0) {
          recorded.length = 0;
          names.clear();
          values.clear();
        }
      }
    },
  };
}
