import { defineConfig } from 'vitest/config';

// `npm run test:durability` (docs/decisions/181-storage-full-and-health.md): the app as a child
// process on the embedded PostgreSQL it runs itself, with its real settings (fsync on), killed,
// refused, and starved of disk. Kept out of `vitest run`: it kills processes, mounts small tmpfs
// file systems (as root) and takes a few minutes. One file at a time: each drives bursts of
// concurrent clients against its own server, and two at once on a 2-core host measure each other.
export default defineConfig({
  test: {
    name: 'durability',
    include: ['tests/durability/**/*.test.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
