import { defineConfig } from 'vitest/config';

// The same suite runs twice: on embedded PGlite and on a real PostgreSQL server (a fresh
// database per test file). RAMP_TEST_DB picks one; `npm test` runs both.
const suite = {
  include: ['test/**/*.test.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  // graphql ships CJS and ESM builds; load one copy so that schema objects are recognised everywhere.
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    projects: [
      { test: { ...suite, name: 'pglite', env: { RAMP_TEST_DB: 'pglite' } } },
      { test: { ...suite, name: 'postgres', env: { RAMP_TEST_DB: 'postgres' } } },
    ],
  },
});
