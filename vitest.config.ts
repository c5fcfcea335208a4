import { defineConfig } from 'vitest/config';

// Two kinds of test share one runner:
//  - unit: pure code (core, web helpers) — fast, no I/O;
//  - integration: the Fastify app against a real database. They run once per engine
//    (PGlite in-process, then PostgreSQL) so SQL that only works on one engine fails here.
const integrationInclude = ['src/server/**/*.test.ts', 'tests/integration/**/*.test.ts'];

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/core/**/*.test.ts', 'src/contracts/**/*.test.ts', 'src/web/**/*.test.{ts,tsx}', 'bench/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'pglite',
          include: integrationInclude,
          env: { TEST_DB: 'pglite' },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: integrationInclude,
          env: { TEST_DB: 'postgres' },
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
