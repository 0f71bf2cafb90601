#!/usr/bin/env node
// Bundles what the installed tool runs, at build time (an installed package needs no esbuild):
// dist/bundle/cli.js, the command line's thread (bin/dice-dialects.js loads it), and
// dist/bundle/worker-entry.cjs, a worker thread's (worker-pool.ts finds it beside itself).
// Loading one file instead of ~150 small modules (resolve, read, compile, link each) is most
// of the tool's start-up. Parts loaded only when needed stay so: a module reached by a dynamic
// import is wrapped and runs when first asked for (a command, the reports' renderers); what
// the code loads by createRequire (piscina, undici, papaparse, zod where records fail) stays in
// node_modules, out of the bundles, as in the compiled files. The library (package.json
// `exports`) stays the compiled files (tsc).
// Measured on a one-game replay (whole process, alternating): code splitting (68 chunks) and
// minifying (whitespace and syntax) change nothing beyond noise (~5 ms of 260), so one file per
// thread, unminified: an internal error's stack reads as the sources do.
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundledZod } from './bundled-zod.mjs';
import { lazyDefault } from './lazy-default.mjs';
import { zodEnglishOnly } from './zod-english-only.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  plugins: [zodEnglishOnly(), lazyDefault(['string-width'])],
};

/** The esbuild options of each bundle (module-graph.test.ts builds them too, to see what each thread loads at once). */
export const BUNDLES = {
  cli: {
    ...common,
    entryPoints: [`${root}src/cli/main.ts`],
    outfile: `${root}dist/bundle/cli.js`,
    format: 'esm',
    plugins: [...common.plugins, bundledZod()],
    // A bundled CommonJS package that requires Node's own modules needs a `require`: an ES module has none of its own.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  },
  worker: {
    ...common,
    entryPoints: [`${root}src/worker-entry.cts`],
    outfile: `${root}dist/bundle/worker-entry.cjs`,
    format: 'cjs',
    // Only `generate` and `infer` need zod in a worker (their dialects): from node_modules when
    // they do, a replay's workers never compile it. CommonJS keeps the require() where it is.
    external: ['zod'],
    // CommonJS has no import.meta: the bundle's own URL stands in (packageRoot, createRequire).
    define: { 'import.meta.url': '__bundleUrl' },
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  },
};

export async function buildBundles() {
  for (const options of Object.values(BUNDLES)) await build(options);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildBundles();
}
