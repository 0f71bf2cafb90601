/**
 * An esbuild plugin for a bundle that holds zod already (the CLI's: the dialect schema):
 * finalise.ts loads zod by createRequire, where a record needs zod's wording, so that a thread
 * without zod (a worker) compiles none until then. In this bundle it takes the copy the bundle
 * holds (run when first asked for) instead of compiling zod's CommonJS build from node_modules.
 */
export function bundledZod() {
  return {
    name: 'bundled-zod',
    setup(b) {
      let replaced = false;
      b.onLoad({ filter: /[\\/]src[\\/]records[\\/]model[\\/]finalise\.ts$/ }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        const text = await readFile(args.path, 'utf8');
        const call = "createRequire(import.meta.url)('zod')";
        if (!text.includes(call)) throw new Error(`bundled-zod: ${args.path} no longer holds ${call}`);
        replaced = true;
        return { contents: text.replace(call, "require('zod')"), loader: 'ts' };
      });
      // A finalise.ts moved away from the filter's path would bundle zod's CommonJS build silently.
      b.onEnd((result) => {
        if (!replaced && result.errors.length === 0) throw new Error('bundled-zod: the bundle holds no src/records/model/finalise.ts');
      });
      // The ES build, the one the bundle's static imports resolve to, not a second (CommonJS) copy.
      b.onResolve({ filter: /^zod$/ }, (args) =>
        args.kind === 'require-call' ? b.resolve('zod', { kind: 'import-statement', importer: args.importer, resolveDir: args.resolveDir }) : undefined,
      );
    },
  };
}
