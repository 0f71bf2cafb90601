/**
 * An esbuild plugin for the CLI bundle: the sources' `import { z } from 'zod'` gets a stand-in
 * that loads zod (runs its modules' top level) when `z` is first used.
 * The schemas are built on first use (src/lazily.ts), so a replay of the shipped dialects
 * loads no zod at all. Any other import of zod (finalise.ts's require, zod's own) is zod itself.
 */
export function lazyZod() {
  return {
    name: 'lazy-zod',
    setup(b) {
      b.onResolve({ filter: /^zod$/ }, (args) =>
        args.kind === 'import-statement' && /[\\/]src[\\/]/.test(args.importer) ? { path: 'zod', namespace: 'lazy-zod' } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'lazy-zod' }, () => ({
        contents: [
          // require() of a bundled ES module: esbuild wraps it and runs it on that call.
          "import { lazily } from './src/lazily.ts';",
          "export const z = lazily(() => require('zod').z);",
          '',
        ].join('\n'),
        loader: 'js',
        resolveDir: new URL('..', import.meta.url).pathname,
      }));
    },
  };
}
