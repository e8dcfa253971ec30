import { defineConfig } from 'vitest/config';

// The data-layer and API tests of `npm test` again, against PostgreSQL, plus tests that need Redis.
export default defineConfig({
  test: {
    include: ['server/*.test.ts', 'server/db/**/*.test.ts', 'server/api/**/*.test.ts', 'tests/services/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    env: {
      TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    },
  },
});
