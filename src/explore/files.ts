import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
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

/** The explorer page with the dialects of `dir` (default: the shipped ones). */
export function explorerPage(dir: string = DIALECTS_DIR): string {
  if (!existsSync(BUNDLE)) throw new ExplorerError('explore.no-bundle', `the page bundle ${BUNDLE} is missing: run npm run build`);
  const dialects: unknown[] = [];
  for (const d of listDialects(dir)) {
    try {
      dialects.push(JSON.parse(readFileSync(d.file, 'utf8')));
    } catch {
      // an unreadable file is reported by `dialects --check`; the page shows the others
    }
  }
  const version = (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return explorerHtml(readFileSync(BUNDLE, 'utf8'), { dialects, version });
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
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, html);
  await rename(tmp, file);
}

/** `explore --out DIR`: DIR/index.html. */
export async function writeExplorer(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'index.html');
  await writeExplorerFile(file, explorerPage());
  return file;
}
