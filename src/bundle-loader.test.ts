import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'bundle-loader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// The compiled loader (npm test builds first), as bin/dice-dialects.js requires it.
const loader = fileURLToPath(new URL('../dist/bundle-loader.cjs', import.meta.url));
const bundle = join(dir, 'b.cjs');

/** Loads the bundle in a fresh process (the cache is read at load and written at exit): its answer and what became of the cache. */
function load(env: Record<string, string> = {}): { answer: number; cache: string } {
  const code = `const r = require(${JSON.stringify(loader)}).loadBundle(${JSON.stringify(bundle)}); console.log(JSON.stringify({ answer: r.exports.answer(), cache: r.cache }));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', code], { env: { ...process.env, ...env }, encoding: 'utf8' })) as { answer: number; cache: string };
}

describe('a bundle loaded through its code cache (bin/dice-dialects.js)', () => {
  it('runs as require() runs it, with no cache, with the cache the build writes, and never with a cache of other bytes', () => {
    writeFileSync(bundle, `const path = require('node:path'); module.exports = { answer: () => 6 * 7 + (path.basename(__filename) === 'b.cjs' ? 0 : 1) };`);
    expect(createRequire(import.meta.url)(bundle).answer()).toBe(42);
    expect(load()).toEqual({ answer: 42, cache: 'none' });
    // The build's sample job names the cache file: written as the process ends.
    expect(load({ DICE_DIALECTS_CODE_CACHE: `${bundle}.cache` })).toEqual({ answer: 42, cache: 'none' });
    expect(readFileSync(`${bundle}.cache`).length).toBeGreaterThan(32);
    expect(load()).toEqual({ answer: 42, cache: 'used' });
    // The same length, other bytes: V8 alone would take the cache (it checks a source's length only).
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace('6 * 7', '7 * 6'));
    expect(load()).toEqual({ answer: 42, cache: 'none' });
    // Any other variable names no file to write.
    load({ DICE_DIALECTS_CODE_CACHE: join(dir, 'elsewhere.cache') });
    expect(() => readFileSync(join(dir, 'elsewhere.cache'))).toThrow();
  });
});
