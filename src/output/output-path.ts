import { lstatSync, readFileSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';

/**
 * Where the tool may write. A run folder replaces only a previous run folder (one
 * that carries RUN_MARKER, or a summary.json with run_info from before the marker);
 * a file output replaces only a regular file, and goes straight to a device or pipe.
 * Anything else is refused before a byte is written.
 */

/** A file every published run folder holds: what makes it safe to replace. */
export const RUN_MARKER = '.dice-dialects-run';
export const RUN_MARKER_TEXT = `${JSON.stringify({ tool: 'dice-dialects', kind: 'run-folder', version: 1 })}\n`;

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

/** True for a folder this tool published as a run (marker, or a run summary from before the marker existed). */
export function isRunFolder(dir: string): boolean {
  try {
    if (statSync(resolve(dir, RUN_MARKER)).isFile()) return true;
  } catch {
    // No marker: perhaps a run written before markers.
  }
  try {
    const summary = JSON.parse(readFileSync(resolve(dir, 'summary.json'), 'utf8')) as { format?: unknown; run_info?: { tool?: unknown } };
    return summary.format === 'dice-dialects/summary@1' && summary.run_info?.tool === 'dice-dialects';
  } catch {
    return false;
  }
}

/** Throws OutputPathError unless `path` is free or a previous run folder. */
export function checkRunFolderTarget(what: string, path: string): void {
  const target = resolve(path);
  const info = lstatOrNull(what, target);
  if (info === null) return checkParent(what, target);
  if (info.isSymbolicLink()) throw new OutputPathError('output.not-run-folder', `${what} ${path}: is a symbolic link; name the run folder itself (nothing was written)`);
  if (!info.isDirectory()) throw new OutputPathError('output.not-run-folder', `${what} ${path}: exists and is a file, not a run folder (nothing was written; choose a new folder)`);
  if (!isRunFolder(target)) {
    throw new OutputPathError('output.not-run-folder', `${what} ${path}: exists and is not a run folder written by dice-dialects (no ${RUN_MARKER}); it is never replaced (nothing was written; choose a new folder)`);
  }
  if (target === resolve('.') || resolve('.').startsWith(target + sep)) throw new OutputPathError('output.not-run-folder', `${what} ${path}: is the working folder or holds it; run from elsewhere`);
}

export type FileTarget = 'new' | 'replace' | 'device';

/** Throws OutputPathError unless `path` is free, a regular file (replaced) or a device or pipe (written through). */
export function checkFileTarget(what: string, path: string): FileTarget {
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

/**
 * Refuses an output that is one of the inputs, or (for a folder output) lies inside a
 * source folder, where the next run would read the reports as records.
 */
export function checkNotAnInput(what: string, path: string, sources: readonly string[], opts: { folder: boolean }): void {
  const target = resolve(path);
  for (const s of sources) {
    if (s === '-' || /^https?:\/\//i.test(s)) continue;
    const src = resolve(s);
    if (src === target) throw new OutputPathError('output.is-input', `${what} ${path}: is also an input; choose another path`);
    let isDir = false;
    try {
      isDir = statSync(src).isDirectory();
    } catch {
      continue;
    }
    const rel = relative(src, target);
    if (opts.folder && isDir && !rel.startsWith('..') && rel !== '' && !rel.startsWith(sep)) {
      throw new OutputPathError('output.in-input', `${what} ${path}: is inside the source folder ${s}; a later run would read it as records (choose a path outside it)`);
    }
  }
}

/** The name temporaries of `target` start with. */
export const temporaryPrefix = (target: string): string => `.${basename(resolve(target))}.tmp-`;
