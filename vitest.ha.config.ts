import { defineConfig } from 'vitest/config';

// `npm run test:ha` (decision 065): the failover test on a three-node Patroni cluster. Kept out of
// `vitest run` (and so `npm test`): it needs root, Debian's patroni, etcd-server and haproxy, and
// about two minutes; .ci/run installs those and runs it on its own.
export default defineConfig({
  test: {
    name: 'ha',
    include: ['tests/ha/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB: 'postgres' },
    testTimeout: 150_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
