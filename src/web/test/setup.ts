// Setup of the `web` vitest project (happy-dom): unmount what a test rendered, and restore fetch.
import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
