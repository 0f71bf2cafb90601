import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** The packages a module's static import graph holds (what loading it loads at once; dynamic imports load later), by name. */
async function packagesOf(...entries: string[]): Promise<Set<string>> {
  const result = await build({ entryPoints: entries.map(src), bundle: true, platform: 'node', format: 'esm', write: false, metafile: true, logLevel: 'silent', outdir: 'unused' });
  const inputs = result.metafile.inputs;
  const root = Object.keys(inputs).filter((p) => entries.some((e) => p.endsWith(e)));
  const seen = new Set(root);
  for (const p of seen) for (const i of inputs[p].imports) if (i.kind === 'import-statement' && !i.external && !seen.has(i.path)) seen.add(i.path);
  return new Set([...seen].map((p) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p)?.[1]).filter((n): n is string => n !== undefined));
}

describe('what a command loads before it needs it (startup)', () => {
  it('a worker thread (the batch runner and the replay judge) loads no zod, no HTTP client, no CSV parser', async () => {
    const packages = await packagesOf('run/worker.ts', 'replay/judge-record.ts');
    for (const heavy of ['zod', 'undici', 'papaparse']) expect(packages).not.toContain(heavy);
  });

  it('the replay command loads no HTTP client, CSV parser or worker pool until a source or --jobs needs them', async () => {
    const packages = await packagesOf('cli/main.ts', 'cli/commands/replay.ts');
    for (const heavy of ['undici', 'papaparse', 'piscina']) expect(packages).not.toContain(heavy);
  });
});
