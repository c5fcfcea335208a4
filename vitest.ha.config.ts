import { defineConfig } from 'vitest/config';

// `npm run test:ha` (decisions 065 and 180): the failover test and the point-in-time restore
// (pgBackRest), each on its own three-node Patroni cluster, one file after the other. Kept out of
// `vitest run` (and so `npm test`): it needs root, Debian's patroni, etcd-server, haproxy and
// pgbackrest, and about two minutes; .ci/run installs those and runs it on its own.
export default defineConfig({
  test: {
    name: 'ha',
    include: ['tests/ha/**/*.test.ts'],
    environment: 'node',
    testTimeout: 150_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
