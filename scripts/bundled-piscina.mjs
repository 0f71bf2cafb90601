/**
 * An esbuild plugin for the CLI bundle: Piscina inside it (wrapped: it runs when a run first
 * makes a pool, so `--jobs 1` still loads none), instead of its ~20 CommonJS files from
 * node_modules, each resolved, read and compiled without a code cache (40-55 ms of a
 * `--jobs 2` start on this machine). worker-pool.ts loads Piscina by createRequire (the compiled
 * files keep doing so); here that call becomes the bundle's own require(). Each worker thread
 * Piscina starts runs its thread script, `PISCINA_WORKER` beside the bundle (built by
 * build-bundles.mjs from Piscina's own), not a file of node_modules.
 */
export const PISCINA_WORKER = 'piscina-worker.cjs';

export function bundledPiscina() {
  return {
    name: 'bundled-piscina',
    setup(b) {
      let replaced = 0;
      b.onLoad({ filter: /[\\/]src[\\/]worker-pool\.ts$/ }, async (args) => {
        const text = await readText(args.path);
        const call = "createRequire(import.meta.url)('piscina')";
        if (!text.includes(call)) throw new Error(`bundled-piscina: ${args.path} no longer holds ${call}`);
        replaced++;
        return { contents: text.replace(call, "require('piscina')"), loader: 'ts' };
      });
      b.onLoad({ filter: /[\\/]node_modules[\\/]piscina[\\/]dist[\\/]index\.js$/ }, async (args) => {
        const text = await readText(args.path);
        const worker = "(0, node_path_1.resolve)(__dirname, 'worker.js')";
        if (!text.includes(worker)) throw new Error(`bundled-piscina: ${args.path} no longer holds ${worker}`);
        replaced++;
        // __dirname is the bundle's folder (src/bundle-loader.cts passes it as require() would).
        return { contents: text.replace(worker, `(0, node_path_1.resolve)(__dirname, ${JSON.stringify(PISCINA_WORKER)})`), loader: 'js' };
      });
      b.onEnd((result) => {
        if (replaced !== 2 && result.errors.length === 0) throw new Error('bundled-piscina: worker-pool.ts or piscina/dist/index.js not found in the bundle');
      });
    },
  };
}

async function readText(path) {
  const { readFile } = await import('node:fs/promises');
  return readFile(path, 'utf8');
}
