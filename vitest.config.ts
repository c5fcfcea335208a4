import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Three kinds of test share one runner:
//  - unit: pure code (core, web helpers) — fast, no I/O;
//  - web: React components rendered in a simulated DOM (happy-dom) with Testing Library, driven
//    as a user would (labels, roles, typing); the API is a fake fetch, no server;
//  - integration: the Fastify app against PostgreSQL, the production engine: the app's own
//    embedded server started for the run, or the one TEST_POSTGRES_URL names.
const integrationInclude = ['src/server/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/contract/**/*.test.ts'];

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    // At least two test files at a time (decision 149). Vitest's default, one core fewer than the
    // machine has, is a single file on a two-core CI host: the other core then idles while a
    // PostgreSQL round trip keeps that file busy. Two halved `vitest run` there (11 to 5.6 min).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/core/**/*.test.ts', 'src/contracts/**/*.test.ts', 'src/web/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['src/web/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['src/web/test/setup.ts'],
          // The longest test takes under a second of CPU (typing long values is a paste, keys have no
          // delay: src/web/test/user.ts); 15 s is that on a two-core host shared with a full CPU load
          // and other suites, with room to spare. Vitest's 5 s was hit there (a clean .ci/run).
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: integrationInclude,
          // The run's PostgreSQL (embedded, or TEST_POSTGRES_URL) and its migrated template database,
          // from which each file's databases are cloned.
          globalSetup: ['tests/helpers/test-postgres.ts'],
          // These tests are about what a sign-in decides, not how the host shares its CPU: at the
          // default SCHED_IDLE a busy CI neighbour starves the hashing (decision 184).
          env: { ARGON2_PRIORITY: 'normal' },
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
