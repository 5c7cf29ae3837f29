import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRamp, type TestRamp } from '../support/ramp.js';

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

describe('the composition root wires the features', () => {
  it('keeps src/platform free of imports from src/modules', () => {
    const offending = sourceFiles('src/platform').filter((file) => /from '(\.\.\/)+modules\//.test(readFileSync(file, 'utf8')));
    expect(offending).toEqual([]);
  });

  it('gives every feature one entry point that the composition root lists', () => {
    const listed = readFileSync('src/features.ts', 'utf8');
    const modules = readdirSync('src/modules', { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(modules.filter((m) => !listed.includes(`./modules/${m.name}/feature.js`)).map((m) => m.name)).toEqual([]);
  });
});

describe('one EntityManager and one caller per request', () => {
  let t: TestRamp;
  let forks = 0;
  beforeAll(async () => {
    t = await startRamp({ RATE_LIMIT_PER_MINUTE: '1000' });
    const fork = t.ramp.db.fork.bind(t.ramp.db);
    t.ramp.db.fork = () => {
      // Background work (the job runner, the webhook dispatcher, the events catch-up poll) forks its own on its own timers.
      if (!/[\\/](jobs|dispatcher|notifier)\.ts/.test(new Error().stack ?? '')) forks++;
      return fork();
    };
  });
  afterAll(() => t.close());

  it('forks one EntityManager for a GraphQL request, the rate limiter and authentication included', async () => {
    await t.client(t.key).graphql('{ customers(first: 1) { edges { node { id } } } }');
    forks = 0;
    const res = await t.client(t.key).graphql('{ customers(first: 1) { edges { node { id } } } }');
    expect(res.status).toBe(200);
    expect(forks).toBe(1);
  });

  it('forks one EntityManager for a REST request', async () => {
    forks = 0;
    const res = await t.client(t.key).get('/v1/partners/accountInfo');
    expect(res.status).toBe(200);
    expect(forks).toBe(1);
  });
});
