import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['src/test-support/tmpdir-guard.ts'],
  },
});
