import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createRamp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';

/**
 * One migrated database per test run, copied for each test file (vitest `globalSetup` of the everyday and
 * slow projects). Migrating a new database costs seconds (on PGlite, its `initdb` alone 4–8 s on a 2-core
 * machine); a copy costs a fraction of that. The template is migrated by Ramp itself, without the demo
 * partner, so each copy starts as a fresh database would: Ramp bootstraps the demo partner and prints its key.
 * Starting from an empty database stays tested where it matters (`freshDatabaseEnv`, concurrent-start).
 */
export interface Template {
  kind: 'pglite' | 'postgres';
  /** PGlite: the template's data directory; PostgreSQL: the template database's name. */
  location: string;
  /** PGlite: where copies go (removed with the template). */
  copies?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    rampTemplate: Template | null;
  }
}

/** Admin connection used to create and drop each test file's own database. */
export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function migrate(env: Record<string, string>): Promise<void> {
  const config = loadConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', BOOTSTRAP_DEMO_PARTNER: 'false', ...env });
  const ramp = await createRamp(config);
  await ramp.close();
}

/** Builds the project's template (RAMP_TEST_DB of its `env`) and provides it to the test files; drops it after the run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = project.config.env?.RAMP_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  const prefix = process.env.TEST_DATABASE_PREFIX ?? 'ramp_test';
  let template: Template;
  let drop: () => Promise<void>;
  if (kind === 'postgres') {
    const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
    await withAdmin((c) => c.query(`create database ${name}`));
    drop = () => withAdmin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined);
    try {
      await migrate({ DATABASE_URL: databaseUrl(name) });
    } catch (error) {
      await drop();
      throw error;
    }
    template = { kind, location: name };
  } else {
    const root = mkdtempSync(join(tmpdir(), 'ramp-test-pglite-'));
    drop = async () => rmSync(root, { recursive: true, force: true });
    try {
      await migrate({ DATA_DIR: join(root, 'template') });
    } catch (error) {
      await drop();
      throw error;
    }
    template = { kind, location: join(root, 'template'), copies: root };
  }
  project.provide('rampTemplate', template);
  return drop;
}

/** A copy of the template for one test file: its env for loadConfig, and how to drop it. */
export async function copyTemplate(template: Template, name: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (template.kind === 'postgres') {
    await withAdmin((c) => c.query(`create database ${name} template ${template.location}`));
    return {
      env: { DATABASE_URL: databaseUrl(name) },
      drop: () => withAdmin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
    };
  }
  const dir = join(template.copies!, name);
  cpSync(template.location, dir, { recursive: true });
  return { env: { DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}
