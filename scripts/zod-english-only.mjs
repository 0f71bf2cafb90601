import { dirname, join } from 'node:path';

/**
 * An esbuild plugin: zod re-exports every locale as a namespace, which no bundler can shake
 * off. The tool only shows English messages (zod's default): the locale index becomes English alone.
 */
export function zodEnglishOnly() {
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
