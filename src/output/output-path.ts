import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';

/**
 * Where the tool may write. A run folder replaces only a previous run folder (one
 * that carries RUN_MARKER, or a summary.json with run_info from before the marker)
 * that holds nothing but what the tool writes there;
 * a file output replaces only a regular file, and goes straight to a device or pipe.
 * Anything else is refused before a byte is written.
 */

/** A file every published folder holds: what makes it safe to replace. */
export const RUN_MARKER = '.dice-dialects-run';
/** What a published folder is: a replay or merge run folder, or an infer run folder. */
export type FolderKind = 'run-folder' | 'infer-folder' | 'history-site';
export const runMarkerText = (kind: FolderKind): string => `${JSON.stringify({ tool: 'dice-dialects', kind, version: 1 })}\n`;
export const RUN_MARKER_TEXT = runMarkerText('run-folder');

/** An output path that cannot be used: a usage error (exit 2), nothing was touched. */
export class OutputPathError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const reason = (e: unknown): string => {
  const err = e as NodeJS.ErrnoException;
  const text: Record<string, string> = { ENOTDIR: 'a part of the path is not a folder', EACCES: 'permission denied', EROFS: 'read-only file system', ENOSPC: 'no space left', EISDIR: 'is a folder', ENAMETOOLONG: 'name too long', EEXIST: 'exists and is not a folder' };
  return text[err?.code ?? ''] ?? err?.message ?? String(e);
};

/** A file-system failure while writing an output, as a one-line error naming the option and the path. */
export function outputFailure(what: string, path: string, e: unknown): OutputPathError {
  if (e instanceof OutputPathError) return e;
  return new OutputPathError('output.io', `${what} ${path}: cannot write: ${reason(e)}`);
}

function lstatOrNull(what: string, path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') checkParent(what, path);
    throw new OutputPathError('output.parent', `${what} ${path}: cannot create it: ${reason(e)}`);
  }
}

/** The nearest existing ancestor must be a folder, or the output can never be created there. */
function checkParent(what: string, path: string): void {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    let info;
    try {
      info = statSync(dir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && dirname(dir) !== dir) continue;
      throw new OutputPathError('output.parent', `${what} ${path}: cannot create it: ${reason(e)}`);
    }
    if (!info.isDirectory()) throw new OutputPathError('output.parent', `${what} ${path}: cannot create it: ${dir} is not a folder (nothing was written)`);
    return;
  }
}

/** The kind a folder's marker names, or null when it has none of ours. */
function markerKind(dir: string): FolderKind | null {
  let text: string;
  try {
    text = readFileSync(resolve(dir, RUN_MARKER), 'utf8');
  } catch {
    return null;
  }
  try {
    const m = JSON.parse(text) as { tool?: unknown; kind?: unknown };
    if (m.tool === 'dice-dialects' && (m.kind === 'run-folder' || m.kind === 'infer-folder' || m.kind === 'history-site')) return m.kind;
  } catch {
    // Not JSON: not ours.
  }
  return null;
}

/** A folder written before markers: a run summary, or an infer document beside only infer's own files; a history site by its own marker. */
function legacyKind(dir: string): FolderKind | null {
  if (existsSync(resolve(dir, SITE_MARKER))) return 'history-site';
  try {
    const summary = JSON.parse(readFileSync(resolve(dir, 'summary.json'), 'utf8')) as { format?: unknown; run_info?: { tool?: unknown } };
    if (summary.format === 'dice-dialects/summary@1' && summary.run_info?.tool === 'dice-dialects') return 'run-folder';
  } catch {
    // Not a run summary.
  }
  try {
    const names = readdirSync(dir);
    const doc = JSON.parse(readFileSync(resolve(dir, 'infer.json'), 'utf8')) as { method?: unknown; options?: unknown };
    if (typeof doc.method === 'string' && Array.isArray(doc.options) && names.every((n) => INFER_FILES.includes(n))) return 'infer-folder';
  } catch {
    // Not an infer folder.
  }
  return null;
}

/** The files a run folder holds (a shard's holds results.ndjson and shard.json). */
export const RUN_FILES = ['results.ndjson', 'summary.json', 'report.md', 'report.html', 'junit.xml', 'explorer.html'] as const;

/** The pages (and their JSON) of `history site`. */
export const SITE_FILES = ['index.html', 'trend.html', 'diff.html', 'runs.json', 'trend.json', 'diff.json'] as const;
/** The marker `history site` wrote before the shared one. */
const SITE_MARKER = '.dice-dialects-history-site';

/** The files an infer run folder holds (before markers, a folder holding anything else was not one of ours). */
const INFER_FILES = ['infer.json', 'report.md', 'report.html'];

/**
 * Every name a published folder of each kind may hold: a run's results, summary and reports
 * (and a shard's manifest), infer's document and reports, and the marker. A folder of ours
 * holding anything else holds something the tool did not write: it is never replaced.
 */
const OWN_FILES: Record<FolderKind, ReadonlySet<string>> = {
  'run-folder': new Set([RUN_MARKER, ...RUN_FILES, 'shard.json']),
  'infer-folder': new Set([RUN_MARKER, ...INFER_FILES]),
  'history-site': new Set([RUN_MARKER, SITE_MARKER, ...SITE_FILES]),
};

/** The entries of a folder of `kind` that the tool never writes there (a folder's name ends in '/'), sorted. */
function foreignEntries(dir: string, kind: FolderKind): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => !(OWN_FILES[kind].has(e.name) && e.isFile()))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
}

/** True for a folder this tool published as `kind` (its marker, or what such a folder held before the marker). */
export function isOurFolder(dir: string, kind: FolderKind): boolean {
  return (markerKind(dir) ?? legacyKind(dir)) === kind;
}

/** True for a folder this tool published as a run (marker, or a run summary from before the marker existed). */
export const isRunFolder = (dir: string): boolean => isOurFolder(dir, 'run-folder');

const KIND_WORDS: Record<FolderKind, string> = { 'run-folder': 'a run folder', 'infer-folder': 'an infer run folder', 'history-site': 'a history site' };

/** Throws OutputPathError unless `path` is free or a folder this tool published as `kind`. */
export function checkFolderTarget(what: string, path: string, kind: FolderKind): void {
  if (path === '') throw new OutputPathError('output.empty', `${what} needs a path`);
  const words = KIND_WORDS[kind];
  const target = resolve(path);
  const info = lstatOrNull(what, target);
  if (info === null) return checkParent(what, target);
  if (info.isSymbolicLink()) throw new OutputPathError('output.not-run-folder', `${what} ${path}: is a symbolic link; name the folder itself (nothing was written)`);
  if (!info.isDirectory()) throw new OutputPathError('output.not-run-folder', `${what} ${path}: exists and is a file, not ${words} (nothing was written; choose a new folder)`);
  if (!isOurFolder(target, kind)) {
    throw new OutputPathError('output.not-run-folder', `${what} ${path}: exists and is not ${words} written by dice-dialects (no ${RUN_MARKER}); it is never replaced (nothing was written; choose a new folder)`);
  }
  if (target === resolve('.') || resolve('.').startsWith(target + sep)) throw new OutputPathError('output.not-run-folder', `${what} ${path}: is the working folder or holds it; run from elsewhere`);
  // Replacing the folder would delete them: the tool deletes nothing it did not write.
  const foreign = foreignEntries(target, kind);
  if (foreign.length > 0) {
    const named = foreign.length > 5 ? `${foreign.slice(0, 5).join(', ')} and ${foreign.length - 5} more` : foreign.join(', ');
    throw new OutputPathError('output.foreign-files', `${what} ${path}: is ${words} written by dice-dialects, but it also holds what dice-dialects did not write (${named}); a new run replaces the whole folder, so it is not replaced (nothing was written; move them out or choose a new folder)`);
  }
}

/** Throws OutputPathError unless `path` is free or a previous run folder. */
export const checkRunFolderTarget = (what: string, path: string): void => checkFolderTarget(what, path, 'run-folder');

export type FileTarget = 'new' | 'replace' | 'device';

/** Throws OutputPathError unless `path` is free, a regular file (replaced) or a device or pipe (written through). */
export function checkFileTarget(what: string, path: string): FileTarget {
  if (path === '') throw new OutputPathError('output.empty', `${what} needs a path`);
  const target = resolve(path);
  let info: Stats;
  try {
    info = statSync(target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') checkParent(what, target);
    if (code !== 'ENOENT') throw new OutputPathError('output.parent', `${what} ${path}: cannot create it: ${reason(e)}`);
    checkParent(what, target);
    return 'new';
  }
  if (info.isDirectory()) throw new OutputPathError('output.is-folder', `${what} ${path}: is a folder; name a file (nothing was written)`);
  if (info.isFile()) return 'replace';
  if (info.isCharacterDevice() || info.isFIFO() || info.isSocket()) return 'device';
  throw new OutputPathError('output.not-file', `${what} ${path}: is not a regular file`);
}

/** A path's file identity (device and inode, through symbolic links), or null when it does not exist. */
function identity(path: string): string | null {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}

/** The path with its symbolic links resolved as far as it exists (the rest as written). */
function realish(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : resolve(realish(parent), basename(path));
  }
}

/**
 * Refuses an output that is one of the inputs (by name, or the same file through a symbolic
 * link), or (for a folder output, or with `inside`: any output) lies inside a source folder,
 * where the next run would read the reports as records, or a diff would write into the runs it
 * compares.
 */
export function checkNotAnInput(what: string, path: string, sources: readonly string[], opts: { folder: boolean; inside?: boolean }): void {
  const target = resolve(path);
  const targetId = identity(target);
  const targetReal = realish(target);
  for (const s of sources) {
    if (s === '-' || /^https?:\/\//i.test(s)) continue;
    const src = resolve(s);
    if (src === target || (targetId !== null && identity(src) === targetId)) throw new OutputPathError('output.is-input', `${what} ${path}: is also an input; choose another path`);
    let isDir = false;
    try {
      isDir = statSync(src).isDirectory();
    } catch {
      continue;
    }
    const rel = relative(realish(src), targetReal);
    if ((opts.folder || opts.inside === true) && isDir && !rel.startsWith('..') && rel !== '' && !rel.startsWith(sep)) {
      const why = opts.folder ? 'a later run would read it as records' : 'the output never goes among the inputs';
      throw new OutputPathError('output.in-input', `${what} ${path}: is inside the source folder ${s}; ${why} (choose a path outside it)`);
    }
  }
}

/** The name temporaries of `target` start with. */
export const temporaryPrefix = (target: string): string => `.${basename(resolve(target))}.tmp-`;
