import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createRamp, type Ramp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Environment } from '../../src/domain/environment.js';
import { issueApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { watchContract } from './clients/contract.js';
import { copyTemplate, databaseUrl, withAdmin } from './template-database.js';

export const onPostgres = process.env.RAMP_TEST_DB === 'postgres';

/**
 * What this checkout's tests name their databases and Redis keys after, so two checkouts (or two
 * CI jobs) can test side by side on one PostgreSQL and one Redis, and each can clean up its own.
 */
const DATABASE_PREFIX = process.env.TEST_DATABASE_PREFIX ?? 'ramp_test';
const REDIS_PREFIX = process.env.TEST_REDIS_PREFIX ?? 'ramp-test:';
// Interpolated into `create database`: an identifier that needs no quoting, with room for the suffix.
if (!/^[a-z_][a-z0-9_]{0,40}$/.test(DATABASE_PREFIX)) {
  throw new Error(`TEST_DATABASE_PREFIX must be lower-case letters, digits and underscores (at most 41), not ${JSON.stringify(DATABASE_PREFIX)}`);
}

/** A database name no other test file, run or checkout uses: `<TEST_DATABASE_PREFIX>_<pid>_<random>`. */
export const uniqueDatabaseName = () => `${DATABASE_PREFIX}_${process.pid}_${randomBytes(4).toString('hex')}`;
/** A Redis key prefix no other test, run or checkout uses: `<TEST_REDIS_PREFIX><pid>:<random>:`. */
export const uniqueRedisPrefix = () => `${REDIS_PREFIX}${process.pid}:${randomBytes(4).toString('hex')}:`;

export interface TestRamp {
  ramp: Ramp;
  url: string;
  /** The demo partner's sandbox key. */
  key: string;
  /** A new key for a partner (created on first use of its name). */
  keyFor(partner: string, environment?: Environment): Promise<string>;
  client(key: string): ApiClient;
  /** Runs SQL against the test database (for assertions on what was stored). */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** A fresh database for one test file: PostgreSQL or in-memory PGlite, as RAMP_TEST_DB says. */
export async function freshDatabaseEnv(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (!onPostgres) return { env: { DATA_DIR: 'memory://' }, drop: async () => {} };
  const name = uniqueDatabaseName();
  await withAdmin((c) => c.query(`create database ${name}`));
  return {
    env: { DATABASE_URL: databaseUrl(name) },
    drop: () => withAdmin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/**
 * A database for one test file, already migrated: a copy of the run's template (test/support/template-database.ts)
 * where the project provides one, else a fresh one that Ramp migrates as it starts.
 */
export async function migratedDatabaseEnv(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const template = inject('rampTemplate');
  return template && template.kind === (onPostgres ? 'postgres' : 'pglite') ? copyTemplate(template, uniqueDatabaseName()) : freshDatabaseEnv();
}

export async function startRamp(env: Record<string, string> = {}, options: Parameters<typeof createRamp>[1] = {}): Promise<TestRamp> {
  const database = await migratedDatabaseEnv();
  const config = loadConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', ...database.env, ...env });
  const ramp = await createRamp(config, options);
  const contract = watchContract(ramp);
  const url = await ramp.listen();
  if (!ramp.demoKey && config.BOOTSTRAP_DEMO_PARTNER) throw new Error('a fresh database must bootstrap the demo partner');
  return {
    ramp,
    url,
    key: ramp.demoKey ?? '',
    async keyFor(partnerName, environment = 'sandbox') {
      const em = ramp.db.fork();
      const { partner } = await ensurePartner(em, partnerName);
      return issueApiKey(em, partner, environment);
    },
    client: (key) => apiClient(url, key),
    sql: (query, params = []) => ramp.db.fork().execute(query, params as unknown[]) as never,
    async close() {
      await ramp.close();
      await database.drop();
      contract.assertKept();
    },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ApiClient {
  request<T = any>(method: string, path: string, options?: { body?: unknown; raw?: string; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  get<T = any>(path: string, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  delete<T = any>(path: string, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  /** A GraphQL operation over HTTP; returns the whole GraphQL response. */
  graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<ApiResponse<{ data?: T; errors?: any[] }>>;
}

export function apiClient(baseUrl: string, key: string | null): ApiClient {
  async function request(method: string, path: string, options: { body?: unknown; raw?: string; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...options.headers };
    let body: string | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(baseUrl + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed as any };
  }
  return {
    request,
    get: (path, headers) => request('GET', path, { headers }),
    post: (path, body, headers) => request('POST', path, { body: body ?? {}, headers }),
    put: (path, body, headers) => request('PUT', path, { body, headers }),
    delete: (path, headers) => request('DELETE', path, { headers }),
    graphql: (query, variables) => request('POST', '/graphql', { body: { query, variables } }),
  };
}
