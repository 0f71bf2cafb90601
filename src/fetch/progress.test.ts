import { describe, expect, it } from 'vitest';
import { progressLine } from './progress.js';

describe('progress line', () => {
  it('shows pages, games fetched / skipped / unavailable / failed and requests per second', () => {
    const line = progressLine({ pages: 3, fetched: 40, skipped: 7, unavailable: 1, failed: 2, duplicates: 0, requests: 50, elapsedMs: 25_000, done: false });
    expect(line).toBe('pages 3  fetched 40  skipped 7  unavailable 1  failed 2  2.0 req/s');
  });
});
