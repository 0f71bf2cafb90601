#!/usr/bin/env node
// A loopback fake of the Fortemate or dicechess.com API (docs/formats.md#site-apis) serving generated
// games, to try `dice-dialects fetch` locally: the fake the tests use
// (src/fetch/test-support/fake-sites.ts), compiled into dist/ beside the modules it imports.
// Usage (after npm run build): node scripts/fake-site.mjs fortemate|dicechess-com
//   [--games N] [--page-size N] [--port P] [--token T] [--missing N] [--seed S]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transform } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The fake-sites module (a test-support module, so not in the build: compiled here). */
export async function loadFake() {
  if (!existsSync(join(root, 'dist/cli/main.js'))) throw new Error('build first: npm run build');
  const src = join(root, 'src/fetch/test-support/fake-sites.ts');
  const out = join(root, 'dist/fetch/test-support/fake-sites.js');
  const { code } = await transform(readFileSync(src, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20' });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, code);
  return import(pathToFileURL(out).href);
}

async function main(args) {
  const site = args[0];
  const opt = (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
  };
  if (site !== 'fortemate' && site !== 'dicechess-com') {
    process.stderr.write('usage: node scripts/fake-site.mjs fortemate|dicechess-com [--games N] [--page-size N] [--port P] [--token T] [--missing N] [--seed S]\n');
    process.exit(2);
  }
  const fake = await loadFake();
  const n = Number(opt('games', '200'));
  const seed = opt('seed', undefined);
  const games = site === 'fortemate' ? fake.fortemateGames(n, seed) : fake.dicechessGames(n, seed);
  const player = site === 'fortemate' ? '6f1c0b4e-2a7d-4c1e-9b3a-1d2e3f405162' : '482';
  const token = site === 'dicechess-com' ? opt('token', 'local-test-token') : undefined;
  const missing = games.slice(0, Number(opt('missing', '0'))).map((g) => g.id);
  const server = await fake.startFakeSite(site, { games, player, pageSize: Number(opt('page-size', '20')), token, missing, port: Number(opt('port', '0')) });
  const env = token ? `DICECHESS_TOKEN=${token} ` : '';
  process.stdout.write(`${site} fake on ${server.url}: ${n} games of player ${player} (Ctrl-C stops it)\n`);
  process.stdout.write(`try: ${env}node bin/dice-dialects.js fetch ${site} --player ${player} --base-url ${server.url} --out /tmp/fetched-${site}\n`);
  const stop = () => server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`fake-site: ${e?.message ?? e}\n`);
    process.exit(2);
  });
}
