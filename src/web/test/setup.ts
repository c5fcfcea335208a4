// Setup of the `web` vitest project (happy-dom): unmount what a test rendered, and restore fetch.
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
// jest-dom's matchers (toBeVisible, toHaveAccessibleDescription, …) on Vitest's expect; the import
// also gives TypeScript their types, for every test in the project.
import '@testing-library/jest-dom/vitest';

// How long findBy… and waitFor wait for what they look for before failing (Testing Library's default
// is 1 s). Each returns as soon as it is met, so this costs nothing on a pass; it only keeps a render
// that a busy machine delayed (a two-core host under full load) from failing a test.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
