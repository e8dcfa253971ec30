import { defineConfig } from 'vitest/config';

// Browser suite: one production server (built once) per run, Chromium driven by playwright-core.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // A page's next state (after a click, a save, a server restart) can take seconds on a busy
    // 2-core machine; vitest's default of one second made CI fail on load, not on behaviour.
    expect: { poll: { timeout: 10_000 } },
  },
});
