import { defineConfig } from 'vitest/config';

// The same suite runs twice: on embedded PGlite and on a real PostgreSQL server (a database of its own per test
// file, copied from one migrated per run). RAMP_TEST_DB picks one; `npm test` runs the everyday projects.
const suite = {
  include: ['test/**/*.test.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // One migrated database per run and project; each test file starts Ramp on a copy of it.
  globalSetup: ['test/support/template-database.ts'],
  // Two test files at a time: they mostly wait on the database and on HTTP, so two keep both cores busy.
  maxWorkers: 2,
};

// Slow by nature, selected by folder: test/process/ starts whole processes (the keys CLI, the data-dir lock,
// start and shutdown, production start), test/resilience/ breaks a private PostgreSQL cluster, fuzzes and drives a
// browser. They run in their own projects (`npm run test:slow`, which CI runs after `npm test`), so `npm test` stays
// well under 15 minutes on a 2-core machine.
// The everyday files share their worker's modules (isolate: false): Ramp's modules are imported once per worker, not
// once per file (they were half of `npm test`). A file must not leave module state behind: every Ramp it starts
// has its own registry, database and timers, and it closes them in afterAll.
const everyday = { ...suite, isolate: false, exclude: ['test/resilience/**', 'test/process/**'] };
const slow = { ...suite, include: ['test/process/**/*.test.ts'] };

// The slow suites: fault injection (a private PostgreSQL cluster it breaks on purpose)
// and fuzzing (tens of thousands of generated bad requests). Their own projects, so they can be
// run alone (`npm run test:resilience`) and never slow the everyday suite's files.
const resilience = {
  testTimeout: 300_000,
  hookTimeout: 120_000,
  // Fault injection starts its own cluster and loads Ramp: one file at a time keeps timings honest.
  fileParallelism: false,
};

export default defineConfig({
  // graphql ships CJS and ESM builds and Node loads the CJS one for Pothos and yoga; point our own
  // imports at it too, so every schema object and error comes from one copy of graphql.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    projects: [
      { extends: true, test: { ...everyday, name: 'pglite', env: { RAMP_TEST_DB: 'pglite' } } },
      { extends: true, test: { ...everyday, name: 'postgres', env: { RAMP_TEST_DB: 'postgres' } } },
      { extends: true, test: { ...slow, name: 'slow-pglite', env: { RAMP_TEST_DB: 'pglite' } } },
      { extends: true, test: { ...slow, name: 'slow-postgres', env: { RAMP_TEST_DB: 'postgres' } } },
      {
        extends: true,
        test: {
          ...resilience,
          include: ['test/resilience/**/*.test.ts'],
          exclude: ['test/resilience/browser/**'],
          name: 'resilience-postgres',
          env: { RAMP_TEST_DB: 'postgres' },
        },
      },
      {
        extends: true,
        test: { ...resilience, include: ['test/resilience/fuzz/**/*.test.ts'], name: 'fuzz-pglite', env: { RAMP_TEST_DB: 'pglite' } },
      },
      // A headless Chromium loads GraphiQL under our CSP (README "Security headers"); needs /usr/bin/chromium.
      { extends: true, test: { ...resilience, include: ['test/resilience/browser/**/*.test.ts'], name: 'browser', env: { RAMP_TEST_DB: 'pglite' } } },
    ],
  },
});
