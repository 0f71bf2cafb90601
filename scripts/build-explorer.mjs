#!/usr/bin/env node
// Bundles the explorer page (src/explore/page/main.ts and the rules core it imports) for
// the browser into dist/explore/page.js, at build time: an installed package needs no esbuild.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * zod re-exports every locale as a namespace, which no bundler can shake off (about 85 %
 * of the page). The page only shows English messages: the locale index becomes English alone.
 */
function englishOnly() {
  return {
    name: 'zod-english-only',
    setup(b) {
      b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
        /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-english-only', pluginData: join(args.resolveDir, dirname(args.path)) } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({ contents: 'export { default as en } from "./en.js";', resolveDir: args.pluginData, loader: 'js' }));
    },
  };
}
const result = await build({
  entryPoints: [`${root}src/explore/page/main.ts`],
  outfile: `${root}dist/explore/page.js`,
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  plugins: [englishOnly()],
});
const node = Object.values(result.metafile.inputs).flatMap((i) => i.imports.filter((x) => x.path.startsWith('node:')).map((x) => x.path));
if (node.length) {
  console.error(`build-explorer: the page imports Node modules: ${node.join(', ')}`);
  process.exit(1);
}
