import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { listDialects, loadDialect, packageRoot } from '../dialects/index.js';
import { legalFirstMoves } from '../dialects/turns.js';

const root = packageRoot();
const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const OPENING = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB';
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('the rules core in a browser bundle', () => {
  it('bundles src/core, src/rules, object loading and the dialect files for the browser with no node: import, and runs without Node', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dice-browser-'));
    dirs.push(dir);
    const names = listDialects().map((d) => d.name);
    const entry = join(dir, 'entry.ts');
    const imports = names.map((n, i) => `import d${i} from ${JSON.stringify(join(root, 'dialects', `${n}.json`))};`).join('\n');
    await writeFile(
      entry,
      `${imports}
import * as core from ${JSON.stringify(join(root, 'src/core/index.ts'))};
import * as rules from ${JSON.stringify(join(root, 'src/rules/index.ts'))};
import { loadDialectObject, legalFirstMoves } from ${JSON.stringify(join(root, 'src/api/rules.ts'))};
const known = [${names.map((_, i) => `d${i}`).join(', ')}];
const out = {};
for (const d of known) {
  const loaded = loadDialectObject(d.name, [], { known });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.error));
  const moves = legalFirstMoves(loaded.value, ${JSON.stringify(OPENING)});
  out[d.name] = { sha256: loaded.value.sha256, moves: moves.ok ? moves.value : moves.error };
}
out.__touch = [typeof core.Position, typeof rules.TurnEngine];
globalThis.RESULT = out;
`,
    );
    const nodeImports: string[] = [];
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      write: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [
        {
          name: 'no-node',
          setup(b) {
            b.onResolve({ filter: /.*/ }, (args) => {
              if (BUILTINS.has(args.path)) {
                nodeImports.push(`${args.path} imported by ${args.importer.replace(`${root}/`, '')}`);
                return { path: args.path, external: true };
              }
              return undefined;
            });
          },
        },
      ],
    });
    expect(nodeImports).toEqual([]);
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((f) => f.includes('src/dialects/load-object.ts'))).toBe(true);
    expect(inputs.filter((f) => /src\/(records|replay|report|cli)\//.test(f))).toEqual([]);

    // Runs in a context with no Node globals (no require, process, Buffer), as in a page.
    const context: Record<string, unknown> = { TextEncoder };
    runInNewContext(result.outputFiles[0].text, context);
    const got = context.RESULT as Record<string, { sha256: string; moves: string[] }>;
    for (const name of names) {
      const loaded = loadDialect(name);
      expect(loaded.ok).toBe(true);
      if (!loaded.ok) continue;
      const moves = legalFirstMoves(loaded.value, OPENING);
      expect(got[name].moves, name).toEqual(moves.ok ? moves.value : moves.error);
      // Same definition bytes, same hash, whether read from a file or given as an object? The object is re-serialised, so only stable.
      expect(got[name].sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});
