import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const srcDir = fileURLToPath(new URL('.', import.meta.url));

/**
 * The layers of src/, lowest first: a module imports only from its own layer or a lower one.
 * `output`, `dice` and the worker pool (which knows no judge or task) sit beside the lowest.
 * The thread root (the tables of the modules a worker thread runs) sits above every task and judge.
 */
const LAYERS: [layer: number, paths: string[]][] = [
  [1, ['core', 'output', 'dice', 'worker-pool.ts', 'lazily.ts']],
  [2, ['rules']],
  [3, ['dialects']],
  [4, ['records']],
  [5, ['replay']],
  [6, ['report', 'explore']],
  [7, ['run']],
  [8, ['history']],
  [9, ['infer', 'fetch', 'generate', 'conformance']],
  [10, ['api', 'index.ts']],
  [11, ['worker-modules.ts', 'judge-modules.ts', 'worker-entry.cts']],
  [12, ['cli', 'bundle-loader.cts']],
];

/** The explorer's page code (the browser bundle) may import only these. */
const PAGE = 'explore/page';
const PAGE_MAY_IMPORT = ['rules', 'dialects', 'core', PAGE];

/**
 * Imports that break the order today, each to go as the structure is mended: the list only
 * shrinks, and a listed import that no longer exists fails the test too.
 */
const ALLOWED: string[] = [];
/** Circles of today, likewise (each by its first file, sorted). */
const ALLOWED_CIRCLES: string[] = [];

const isTestOnly = (path: string): boolean => /\.test\.ts$/.test(path) || /(^|\/)(test-support|fixtures)\//.test(path);

function sources(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.c?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(relative(srcDir, path));
    }
  };
  walk(srcDir);
  return files.filter((f) => !isTestOnly(f)).sort();
}

/** The src/ files a module imports (static, type-only, re-exports and import() of a literal), as src/-relative paths. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(srcDir, file), 'utf8'), true, true);
  const out: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = relative(srcDir, resolve(dirname(join(srcDir, file)), fileName)).replace(/\.js$/, '.ts').replace(/\.cjs$/, '.cts');
    out.push(target);
  }
  return out;
}

function layerOf(file: string): number {
  let best: [number, number] | null = null; // [layer, length of the matching path]
  for (const [layer, paths] of LAYERS) {
    for (const p of paths) {
      if ((file === p || file.startsWith(`${p}/`)) && (best === null || p.length > best[1])) best = [layer, p.length];
    }
  }
  if (best === null) throw new Error(`${file}: in no layer (add its folder to LAYERS)`);
  return best[0];
}

const folderOf = (file: string): string => (file.startsWith(`${PAGE}/`) ? PAGE : file.split('/')[0]);

function violations(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (folderOf(from) === PAGE) {
        if (!PAGE_MAY_IMPORT.includes(folderOf(to))) found.push(`${from} -> ${to}`);
      } else if (layerOf(to) > layerOf(from)) found.push(`${from} -> ${to}`);
    }
  }
  return found.sort();
}

/** Every circle of the graph, each as the files around it (Tarjan's strongly connected components of more than one file, or a file importing itself). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

describe('the layers of src/ (non-test modules)', () => {
  const files = sources();
  const graph = new Map(files.map((f) => [f, importsOf(f)]));

  it('reads the imports it checks', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(graph.get('cli/main.ts')?.length).toBeGreaterThan(0);
    // It sees a type-only import and an import() of a literal.
    expect(importsOf('worker-entry.cts')).toContain('worker-modules.ts');
  });

  it('every module sits in a layer', () => {
    for (const f of files) expect(() => layerOf(f)).not.toThrow();
  });

  it('no import runs from a lower layer up to a higher one (beyond the shrinking allow-list)', () => {
    const found = violations(graph);
    expect(found.filter((v) => !ALLOWED.includes(v))).toEqual([]);
    expect(ALLOWED.filter((v) => !found.includes(v))).toEqual([]);
  });

  it('no circle of imports', () => {
    const found = circles(graph);
    expect(found.filter((c) => !ALLOWED_CIRCLES.includes(c[0]))).toEqual([]);
    expect(ALLOWED_CIRCLES.filter((f) => !found.some((c) => c[0] === f))).toEqual([]);
  });

  it('the checks can fail: an import up a layer and a circle are found', () => {
    const bad = new Map([
      ['core/a.ts', ['run/b.ts']],
      ['run/b.ts', ['core/a.ts']],
      [`${PAGE}/c.ts`, ['records/d.ts']],
      ['records/d.ts', []],
    ]);
    expect(violations(bad)).toEqual(['core/a.ts -> run/b.ts', `${PAGE}/c.ts -> records/d.ts`]);
    expect(circles(bad)).toEqual([['core/a.ts', 'run/b.ts']]);
  });
});
