import { defineConfig } from 'vitest/config';

// The same suite runs twice: on embedded PGlite and on a real PostgreSQL server (a fresh
// database per test file). RAMP_TEST_DB picks one; `npm test` runs every project.
const suite = {
  include: ['test/**/*.test.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

// Files that start whole processes or many Ramps (the keys CLI, the data-dir lock, start and shutdown, production
// start, security headers across every route): a third of the everyday suite's time for a sliver of its tests.
// They run in the `slow-*` projects (`npm run test:slow`, which CI runs after `npm test`), so `npm test` stays
// under 15 minutes on a 2-core machine.
const slowFiles = [
  'test/process/cli.test.ts',
  'test/process/data-dir-lock.test.ts',
  'test/process/startup.test.ts',
  'test/process/shutdown.test.ts',
  'test/process/production-start.test.ts',
  'test/platform/security-headers.test.ts',
];
const everyday = { ...suite, exclude: ['test/resilience/**', ...slowFiles] };
const slow = { ...suite, include: slowFiles };

// The slow suites of issue 8: fault injection (a private PostgreSQL cluster it breaks on purpose)
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
