import { beforeEach, expect } from 'vitest';

/**
 * vitest setupFile: a test that runs no `expect` fails ("expected any number of
 * assertion, but got none"): a test that checks nothing cannot go red.
 */
beforeEach(() => {
  expect.hasAssertions();
});
