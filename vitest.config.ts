import { defineConfig } from 'vitest/config';

// The same suite runs twice: on embedded PGlite and on a real PostgreSQL server (a fresh
// database per test file). RAMP_TEST_DB picks one; `npm test` runs both.
const suite = {
  include: ['test/**/*.test.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  // graphql ships CJS and ESM builds and Node loads the CJS one for Pothos and yoga; point our own
  // imports at it too, so every schema object and error comes from one copy of graphql.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    projects: [
      { extends: true, test: { ...suite, name: 'pglite', env: { RAMP_TEST_DB: 'pglite' } } },
      { extends: true, test: { ...suite, name: 'postgres', env: { RAMP_TEST_DB: 'postgres' } } },
    ],
  },
});
