#!/usr/bin/env node
// Bundles what the installed tool runs, at build time (an installed package needs no esbuild):
// dist/bundle/cli.cjs, the command line's thread (bin/dice-dialects.js loads it, with its code
// cache cli.cjs.cache made here by running sample jobs), and
// dist/bundle/worker-bundle.cjs, a worker thread's (worker-pool.ts starts dist/bundle/worker-entry.cjs
// beside itself, which loads it with its code cache worker-bundle.cjs.cache).
// Loading one file instead of ~150 small modules (resolve, read, compile, link each) is most
// of the tool's start-up. Parts loaded only when needed stay so: a module reached by a dynamic
// import is wrapped and runs when first asked for (a command, the reports' renderers); what
// the code loads by createRequire (undici, papaparse, zod where records fail) stays in
// node_modules, out of the bundles, as in the compiled files, except Piscina, which the CLI
// bundle holds (bundled-piscina.mjs: its ~20 files cost a --jobs N start tens of ms) with its
// worker thread's script beside it. The library (package.json `exports`) stays the compiled files (tsc).
// Both bundles are written in ASCII (asciiOnly below).
// A one-game replay (whole process, alternating; bench-formats.mjs --startup-only, 2026-12-01): code splitting (68 chunks) and
// minifying (whitespace and syntax) change nothing beyond noise (~5 ms of 260), so one file per
// thread, unminified: an internal error's stack reads as the sources do.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundledPiscina, PISCINA_WORKER } from './bundled-piscina.mjs';
import { bundledZod } from './bundled-zod.mjs';
import { lazyAssert } from './lazy-assert.mjs';
import { lazyDefault } from './lazy-default.mjs';
import { lazyZod } from './lazy-zod.mjs';
import { zodEnglishOnly } from './zod-english-only.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Beside the bundles: the shipped dialects as this build loads them, a file each (src/dialects/load.ts, `shippedAsBuilt`). */
const SHIPPED_DIALECTS = 'dialects.cache';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  plugins: [zodEnglishOnly(), lazyDefault(['string-width']), lazyAssert()],
};

/** The esbuild options of each bundle (module-graph.test.ts builds them too, to see what each thread loads at once). */
export const BUNDLES = {
  cli: {
    ...common,
    entryPoints: [`${root}src/cli/main.ts`],
    outfile: `${root}dist/bundle/cli.cjs`,
    // CommonJS, so that bin/dice-dialects.js can load it through V8's code cache (src/bundle-loader.cts).
    format: 'cjs',
    plugins: [...common.plugins, lazyZod(), bundledZod(), bundledPiscina()],
    define: { 'import.meta.url': '__bundleUrl', __SHIPPED_DIALECTS__: JSON.stringify(SHIPPED_DIALECTS) },
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  },
  worker: {
    ...common,
    entryPoints: [`${root}src/worker-entry.cts`],
    // Loaded through its code cache by dist/bundle/worker-entry.cjs (written below), the file worker-pool.ts starts.
    outfile: `${root}dist/bundle/worker-bundle.cjs`,
    format: 'cjs',
    // Only `generate` and `infer` need zod in a worker (their dialects): from node_modules when
    // they do, a replay's workers never compile it. CommonJS keeps the require() where it is.
    external: ['zod'],
    // CommonJS has no import.meta: the bundle's own URL stands in (packageRoot, createRequire).
    define: { 'import.meta.url': '__bundleUrl', __SHIPPED_DIALECTS__: JSON.stringify(SHIPPED_DIALECTS) },
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  },
  // The script of each worker thread Piscina starts (its own, from node_modules, in one file:
  // see bundled-piscina.mjs); it then requires worker-entry.cjs.
  piscinaWorker: {
    ...common,
    entryPoints: [`${root}node_modules/piscina/dist/worker.js`],
    outfile: `${root}dist/bundle/${PISCINA_WORKER}`,
    format: 'cjs',
    // Loaded only with Piscina's niceIncrement option, which the tool never sets (and not installed).
    external: ['@napi-rs/nice'],
  },
};

/**
 * The bundle's text in ASCII: esbuild escapes strings but leaves comments and regular
 * expressions as written, and one non-ASCII character makes V8 hold the whole 1.7 MB source as
 * two bytes a character (slower to decode, compile and lazily parse; src/bundle-loader.cts
 * reads an ASCII bundle as Latin-1). A `\uXXXX` escape means the same character in a comment,
 * a regular expression (a surrogate pair too, with the `u` flag), a string or an identifier.
 */
export function asciiOnly(text) {
  // After a backslash the escape would read as two characters: esbuild writes none such, and a change that did would be caught here.
  if (/\\[^\x00-\x7f]/.test(text)) throw new Error('a bundle holds a backslash before a non-ASCII character: escape it in the source');
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export async function buildBundles() {
  for (const options of Object.values(BUNDLES)) {
    await build(options);
    writeFileSync(options.outfile, asciiOnly(readFileSync(options.outfile, 'utf8')));
  }
  // The shipped dialects loaded once here, from the compiled files of the same sources (tsc ran first).
  const { shippedDialects } = await import(pathToFileURL(`${root}dist/dialects/load.js`).href);
  // One file a dialect, named as its file: a run reads the entries of the dialects it judges, not all (~290 kB).
  const shippedDir = `${root}dist/bundle/${SHIPPED_DIALECTS}`;
  rmSync(shippedDir, { recursive: true, force: true });
  rmSync(`${root}dist/bundle/dialects.cache.json`, { force: true }); // the one file earlier builds wrote
  mkdirSync(shippedDir);
  for (const [name, entry] of Object.entries(shippedDialects())) writeFileSync(join(shippedDir, name), `${JSON.stringify(entry)}\n`);
  writeFileSync(
    `${root}dist/bundle/worker-entry.cjs`,
    "// A worker thread's entry: the worker bundle, through its code cache (src/bundle-loader.cts).\nmodule.exports = require('../bundle-loader.cjs').loadBundle(require('node:path').join(__dirname, 'worker-bundle.cjs')).exports;\n",
  );
}

/** The sample replays that make the code caches: a source and its dialect each (deploy/Dockerfile copies them into its build stage). */
export const CODE_CACHE_SAMPLES = [
  ['corpora/samples/reference/games.ndjson.gz', 'reference'],
  ['corpora/samples/dicechess-com/games.ingest-wire.ndjson.gz', 'dicechess-com'],
];

/**
 * The bundles' code caches (dist/bundle/*.cjs.cache, see src/bundle-loader.cts): sample jobs run
 * on the new bundles, each starting from the cache the one before left, so that it holds every
 * function they compiled. Replays of the samples in the native and a site format, in one thread
 * for the command line's cache (and one with a worker, for the pool's side of it) and with a
 * worker for the worker's, into a folder of their own that is removed after.
 */
export function buildCodeCaches() {
  const out = mkdtempSync(join(tmpdir(), 'dice-dialects-code-cache-'));
  const samples = CODE_CACHE_SAMPLES;
  try {
    // The command line's cache also holds what a run with workers runs in its thread (Piscina, the pool), from one more sample job.
    // A worker starts for these small inputs only when forced (src/run/auto-jobs.ts), and judges only once it is
    // warm (the run's thread judges meanwhile: src/run/pipeline.ts), so its sample jobs name each sample several times.
    const runs = { cli: [...samples.map((s) => [...s, 1, 1]), [...samples[0], 2, 1]], 'worker-bundle': samples.map((s) => [...s, 2, 8]) };
    for (const [bundle, jobsRuns] of Object.entries(runs)) {
      const cache = `${root}dist/bundle/${bundle}.cjs.cache`;
      rmSync(cache, { force: true });
      for (const [i, [source, dialect, jobs, times]] of jobsRuns.entries()) {
        const args = [`${root}bin/dice-dialects.js`, 'replay', ...Array(times).fill(source), '--dialect', dialect, '--jobs', String(jobs), ...(jobs > 1 ? ['--force-jobs'] : []), '--quiet', '--out', join(out, `${bundle}-${i}`)];
        const run = spawnSync(process.execPath, args, { cwd: root, env: { ...process.env, DICE_DIALECTS_CODE_CACHE: cache }, stdio: ['ignore', 'ignore', 'inherit'] });
        // A replay that finds divergences exits 1; anything else is a broken build.
        if (run.status !== 0 && run.status !== 1) throw new Error(`the code cache's sample job (replay ${source} --jobs ${jobs}) failed: exit ${run.status}`);
      }
      if (!existsSync(cache)) throw new Error(`the sample jobs left no code cache ${cache}`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildBundles();
  buildCodeCaches();
}
