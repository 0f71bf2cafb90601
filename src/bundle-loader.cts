/**
 * Loads a CommonJS bundle (dist/bundle/*.cjs) through V8's code cache. Compiling the command
 * line's 1.4 MB bundle, and then each function as it first runs, is about a quarter of a short
 * run's time; the cache `<bundle>.cache`, made by `npm run build` (scripts/build-bundles.mjs
 * runs sample jobs with DICE_DIALECTS_CODE_CACHE naming the file), holds that work done.
 * The cache starts with the SHA-256 of the bundle it was made from: V8 checks its own version
 * and flags, but a bundle's content only by its length, so a cache of other bytes is never
 * used. Without a usable cache the bundle compiles as require() would compile it. The tool
 * writes no cache at run time (an installed package's folder is not its to write).
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

const DIGEST_BYTES = 32;
/** Where a bundle being cached leaves its "write the cache now" (worker-entry.cts calls it after a task). */
const WRITE_CODE_CACHE = Symbol.for('dice-dialects.write-code-cache');

/** What became of a bundle's code cache: none found (or made from other bytes), used, or refused by V8 (another version or flags). */
type CacheUse = 'none' | 'used' | 'refused';

/** The bundle's exports (`module.exports`, as require(file) gives them), and what became of its code cache. */
function loadBundle(file: string): { exports: unknown; cache: CacheUse } {
  const bytes = readFileSync(file);
  const cacheFile = `${file}.cache`;
  const digest = createHash('sha256').update(bytes).digest();
  const cachedData = cacheFor(digest, cacheFile);
  // CommonJS's own wrapper, so the bundle runs exactly as a required module. The build writes
  // the bundles in ASCII (scripts/build-bundles.mjs): read as Latin-1, the same text becomes a
  // one-byte string at a copy's cost, where UTF-8 decoding (and any non-ASCII byte: a two-byte
  // string of twice the size, for V8 to compile and every lazy function's parse to scan) cost more.
  const text = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${text}\n})`, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  // The build's sample jobs: the cache is written as the process ends, with every function they
  // compiled; a worker thread, which is stopped rather than ended, writes it after each task
  // (WRITE_CODE_CACHE, set before the bundle runs: its entry reads it as it loads). Written whole, then renamed.
  if (process.env.DICE_DIALECTS_CODE_CACHE === cacheFile) {
    // node:worker_threads loaded only here: a run that writes no cache has no use for it.
    const { threadId } = require('node:worker_threads') as typeof import('node:worker_threads');
    const write = (): void => {
      const part = `${cacheFile}.${process.pid}-${threadId}.part`;
      writeFileSync(part, Buffer.concat([digest, script.createCachedData()]));
      renameSync(part, cacheFile);
    };
    process.once('exit', write);
    (globalThis as Record<symbol, unknown>)[WRITE_CODE_CACHE] = write;
  }
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, cache: cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'refused' : 'used' };
}

/** V8's data in the cache file when the file was made from the bundle with this digest. */
function cacheFor(digest: Buffer, cacheFile: string): Buffer | undefined {
  let cache: Buffer;
  try {
    cache = readFileSync(cacheFile);
  } catch {
    return undefined; // a build without one (the bundle then compiles as it would without)
  }
  return cache.length > DIGEST_BYTES && cache.subarray(0, DIGEST_BYTES).equals(digest) ? cache.subarray(DIGEST_BYTES) : undefined;
}

module.exports = { loadBundle };
