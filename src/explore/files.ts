import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { writeOutputFile } from '../output/file-output.js';
import { join } from 'node:path';
import { DIALECTS_DIR, listDialects, packageRoot } from '../dialects/index.js';
import { explorerHtml, GENERATOR } from './html.js';

/** The page bundle esbuild writes at `npm run build` (scripts/build-explorer.mjs). */
export const BUNDLE = join(packageRoot(), 'dist', 'explore', 'page.js');

export class ExplorerError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The explorer page with the shipped dialects and any other dialect files named (a run's own dialects). */
export function explorerPage(extraFiles: readonly string[] = []): string {
  if (!existsSync(BUNDLE)) throw new ExplorerError('explore.no-bundle', `the page bundle ${BUNDLE} is missing: run npm run build`);
  const dialects: unknown[] = [];
  const names = new Set<string>();
  const shipped = listDialects(DIALECTS_DIR).map((d) => d.file);
  for (const file of [...shipped, ...extraFiles.filter((f) => !shipped.includes(f))]) {
    try {
      const def: unknown = JSON.parse(readFileSync(file, 'utf8'));
      const name = (def as { name?: unknown } | null)?.name;
      if (typeof name === 'string' && names.has(name)) continue;
      if (typeof name === 'string') names.add(name);
      dialects.push(def);
    } catch {
      // an unreadable file is reported by `dialects --check`; the page shows the others
    }
  }
  const version = (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return explorerHtml(readFileSync(BUNDLE, 'utf8'), { dialects, version });
}

/**
 * The explorer beside a run's reports, knowing the run's dialect files: its file name (for the
 * reports' links) and page, or null when the page bundle is not built.
 */
export function runExplorer(dialectFiles: readonly string[]): { name: string; html: string } | null {
  if (!existsSync(BUNDLE)) return null;
  return { name: 'explorer.html', html: explorerPage(dialectFiles) };
}

/** Writes `file` unless something the explorer did not write is there (then an error: never overwrite a stranger's file). */
export async function writeExplorerFile(file: string, html: string): Promise<void> {
  let old: string | null = null;
  try {
    old = await readFile(file, 'utf8');
  } catch {
    old = null;
  }
  if (old !== null && !old.includes(`<meta name="generator" content="${GENERATOR}">`)) {
    throw new ExplorerError('explore.exists', `${file} exists and was not written by dice-dialects explore: not overwriting it`);
  }
  // Through the shared output module: a marked temporary, cleaned on signals and by the next run.
  await writeOutputFile('--out', file, html);
}

/** `explore --out DIR`: DIR/index.html. */
export async function writeExplorer(dir: string, html: string = explorerPage()): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'index.html');
  await writeExplorerFile(file, html);
  return file;
}
