import { build, type BuildOptions, type Metafile } from 'esbuild';
import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** The bundles' options, as `npm run build` makes them (scripts/build-bundles.mjs): what the installed tool runs. */
const bundles = async (): Promise<Record<'cli' | 'worker', BuildOptions>> =>
  ((await import(new URL('../../scripts/build-bundles.mjs', import.meta.url).href)) as { BUNDLES: Record<'cli' | 'worker', BuildOptions> }).BUNDLES;

async function metafileOf(options: BuildOptions): Promise<Metafile> {
  return (await build({ ...options, write: false, logLevel: 'silent' })).metafile!;
}

/**
 * The packages a bundle evaluates as soon as `entries` run (their static import graph within
 * the bundle): a module reached only by a dynamic import or a require() call is wrapped and
 * runs when first asked for; one the bundle leaves out (external, Node's own apart) counts as loaded if imported statically.
 */
function packagesOf(meta: Metafile, ...entries: string[]): Set<string> {
  const inputs = meta.inputs;
  const root = Object.keys(inputs).filter((p) => entries.some((e) => p.endsWith(e)));
  expect(root).toHaveLength(entries.length);
  const seen = new Set(root);
  const names = new Set<string>();
  for (const p of seen) {
    for (const i of inputs[p].imports) {
      if (i.kind !== 'import-statement') continue;
      if (i.external) {
        if (!isBuiltin(i.path)) names.add(i.path);
      }
      else seen.add(i.path);
    }
  }
  for (const p of seen) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p)?.[1];
    if (name !== undefined) names.add(name);
  }
  return names;
}

describe('what a thread loads before it needs it (startup, the bundles the tool runs)', () => {
  it('a worker thread (its entry, the batch runner and the replay judge) loads no zod, no HTTP client, no CSV parser', async () => {
    const meta = await metafileOf((await bundles()).worker);
    const packages = packagesOf(meta, 'src/worker-entry.cts', 'src/run/worker.ts', 'src/replay/judge-record.ts');
    for (const heavy of ['zod', 'undici', 'papaparse']) expect(packages).not.toContain(heavy);
    // The worker's entry reaches every task and judge by name, lazily.
    expect(packagesOf(meta, 'src/worker-entry.cts').size).toBe(0);
  });

  it('the replay command loads no HTTP client, CSV parser, worker pool or zod until a source, --jobs or a schema needs them', async () => {
    const meta = await metafileOf((await bundles()).cli);
    const packages = packagesOf(meta, 'src/cli/main.ts', 'src/cli/commands/replay.ts');
    for (const heavy of ['undici', 'papaparse', 'piscina', 'zod']) expect(packages).not.toContain(heavy);
  });

  it('neither bundle holds undici or Papa Parse (createRequire loads them from node_modules when a run needs them)', async () => {
    for (const options of Object.values(await bundles())) {
      const held = Object.keys((await metafileOf(options)).inputs).filter((p) => /node_modules\/(undici|papaparse)\//.test(p));
      expect(held).toEqual([]);
    }
  });

  it('the compiled files (the library) hold the same for the sources', async () => {
    const options: BuildOptions = { bundle: true, platform: 'node', format: 'esm', metafile: true, outdir: 'unused' };
    const worker = await metafileOf({ ...options, entryPoints: [src('run/worker.ts'), src('replay/judge-record.ts')] });
    for (const heavy of ['zod', 'undici', 'papaparse']) expect(packagesOf(worker, 'run/worker.ts', 'replay/judge-record.ts')).not.toContain(heavy);
    const cli = await metafileOf({ ...options, entryPoints: [src('cli/main.ts'), src('cli/commands/replay.ts')] });
    for (const heavy of ['undici', 'papaparse', 'piscina']) expect(packagesOf(cli, 'cli/main.ts', 'cli/commands/replay.ts')).not.toContain(heavy);
  });
});
