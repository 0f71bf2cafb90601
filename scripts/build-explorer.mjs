#!/usr/bin/env node
// Bundles the explorer page (src/explore/page/main.ts and the rules core it imports) for
// the browser into dist/explore/page.js, at build time: an installed package needs no esbuild.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { zodEnglishOnly } from './zod-english-only.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

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
  plugins: [zodEnglishOnly()],
});
const node = Object.values(result.metafile.inputs).flatMap((i) => i.imports.filter((x) => x.path.startsWith('node:')).map((x) => x.path));
if (node.length) {
  console.error(`build-explorer: the page imports Node modules: ${node.join(', ')}`);
  process.exit(1);
}
