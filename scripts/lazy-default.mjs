import { dirname } from 'node:path';

/**
 * An esbuild plugin: the packages named, whose one export is a default function, run their
 * module's top level only when that function is first called. string-width (yargs', cliui's,
 * wrap-ansi's) builds an Intl.Segmenter and Unicode-set regular expressions as it loads, about
 * 30 ms of every start, for help text that a run never lays out.
 */
export function lazyDefault(names) {
  const filter = new RegExp(`^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|')})$`);
  return {
    name: 'lazy-default',
    setup(b) {
      b.onResolve({ filter }, async (args) => {
        if (args.pluginData === 'lazy-default') return undefined;
        const real = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'lazy-default' });
        if (real.errors.length > 0) return { errors: real.errors };
        return { path: real.path, namespace: 'lazy-default' };
      });
      b.onLoad({ filter: /.*/, namespace: 'lazy-default' }, (args) => ({
        // require() of a bundled ES module: esbuild wraps it and runs it on that call.
        contents: `let real;\nexport default function lazy(...args) {\n  real ??= require(${JSON.stringify(args.path)}).default;\n  return real(...args);\n}\n`,
        loader: 'js',
        resolveDir: dirname(args.path),
      }));
    },
  };
}
