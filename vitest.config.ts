import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // PostgreSQL first: its cluster lives outside the tests' private temp dir (the postgres user must reach it).
    globalSetup: ['src/test-support/dist-guard.ts', 'src/test-support/postgres-setup.ts', 'src/test-support/tmpdir-guard.ts'],
    // Every test must run at least one expect.
    setupFiles: ['src/test-support/assertions-setup.ts'],
  },
});
