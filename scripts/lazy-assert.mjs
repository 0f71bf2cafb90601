/**
 * An esbuild plugin: `assert`'s strictEqual and notStrictEqual (yargs' platform shim imports
 * them for its internal checks) as two comparisons that load node:assert only when one fails,
 * to throw its very error. Loading node:assert (and its assertion-error, call-tracker and
 * colour modules) took about 2 ms of every start, for checks that pass.
 */
export function lazyAssert() {
  return {
    name: 'lazy-assert',
    setup(b) {
      b.onResolve({ filter: /^(node:)?assert$/ }, (args) => (/[\\/]node_modules[\\/]yargs[\\/]/.test(args.importer) ? { path: 'assert', namespace: 'lazy-assert' } : undefined));
      b.onLoad({ filter: /.*/, namespace: 'lazy-assert' }, () => ({
        contents: [
          'export function strictEqual(actual, expected, message) {',
          "  if (!Object.is(actual, expected)) require('node:assert').strictEqual(actual, expected, message);",
          '}',
          'export function notStrictEqual(actual, expected, message) {',
          "  if (Object.is(actual, expected)) require('node:assert').notStrictEqual(actual, expected, message);",
          '}',
          '',
        ].join('\n'),
        loader: 'js',
      }));
    },
  };
}
