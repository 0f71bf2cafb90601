#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json says so): an ES module entry would start Node's ESM loader first,
// about 12 M instructions of a one-game replay's start that nothing else needs (docs/performance.md#start-up).
const path = require('node:path');

// The command line is one CommonJS bundle, loaded with its code cache (src/bundle-loader.cts).
// A checkout that was never built has none: say how to build it, not a module stack trace.
let loader;
try {
  loader = require.resolve('../dist/bundle-loader.cjs');
} catch {
  process.stderr.write('dice-dialects: dist/ is missing: this checkout is not built yet; run `npm ci && npm run build` (npm start and npm test build first)\n');
  process.exit(2);
}
const { loadBundle } = require(loader);
const { main } = loadBundle(path.join(__dirname, '..', 'dist', 'bundle', 'cli.cjs')).exports;

// A reader that closed the pipe (`… | head`) wants no more: stop at once, quietly, with the
// exit code the command had so far (the same rule as src/output/closed-pipe.ts, for --out /dev/stdout).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error?.code === 'EPIPE') process.exit(Number(process.exitCode ?? 0));
    throw error;
  });
}

let settled = false;
main(process.argv.slice(2)).then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (error) => {
    settled = true;
    process.stderr.write(`dice-dialects: internal error: ${error?.stack ?? error}\n`);
    process.exitCode = 2;
  },
);
// Node ends a process whose work is all waiting on something that can never come, with exit 0:
// a command that stopped that way did not finish, and must not pass for one that did.
process.on('beforeExit', () => {
  if (settled) return;
  settled = true;
  process.stderr.write('dice-dialects: internal error: the command stopped before it finished (it was waiting on work that could never end)\n');
  process.exitCode = 2;
});
