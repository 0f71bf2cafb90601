import { readdir, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SourceNote } from '../items.js';
import type { Input, StreamInput } from './text-source.js';
import { SourceError, classify } from './source-error.js';

/** A file found below a folder or by a glob (not named by the user): one that is plainly not records may be passed over. */
export type Found = Extract<Input, { kind: 'file' }> & { found?: true };
export type Expanded = Input | Found | { kind: 'error'; name: string; error: SourceError } | { kind: 'note'; note: SourceNote };

const GLOB_CHARS = /[*?[{]/;

/** A shell-style glob (`**`, `*`, `?`, `[..]`, `{a,b}`) as a regular expression over `/`-separated paths. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        re += `[${glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '{') {
      const end = glob.indexOf('}', i + 1);
      if (end < 0) re += '\\{';
      else {
        re += `(?:${glob
          .slice(i + 1, end)
          .split(',')
          .map((s) => s.replace(/[.+^$()|\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
          .join('|')})`;
        i = end;
      }
    } else re += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * Every regular file under `dir` as sorted paths, skipping dot-files and dot-folders.
 * Links to folders are followed once: a link to a folder already read (an ancestor: a
 * loop) is noted, not followed again; a dangling link is one error; a folder that
 * cannot be listed is one error, and the walk goes on.
 */
async function walk(dir: string): Promise<Array<{ path: string; item: Expanded }>> {
  const out: Array<{ path: string; item: Expanded }> = [];
  const seen = new Map<string, string>([[await realpath(dir), dir]]);
  const visit = async (d: string, ancestors: Set<string>): Promise<void> => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch (e) {
      out.push({ path: d, item: { kind: 'error', name: d, error: classify(e, d) } });
      return;
    }
    // Real folders before links, so that a folder is read under its own name when a link also leads to it.
    entries.sort((a, b) => Number(a.isSymbolicLink()) - Number(b.isSymbolicLink()));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      let isDir = e.isDirectory();
      if (e.isSymbolicLink()) {
        const info = await stat(p).catch(() => null);
        if (!info) {
          const target = await readlink(p).catch(() => '?');
          out.push({ path: p, item: { kind: 'error', name: p, error: new SourceError('record.io', `${p} is a dangling symbolic link (its target ${target} does not exist)`) } });
          continue;
        }
        if (!info.isDirectory()) {
          out.push({ path: p, item: info.isFile() ? { kind: 'file', path: p, found: true } : notRegular(p) });
          continue;
        }
        const real = await realpath(p);
        const already = seen.get(real);
        if (already !== undefined) {
          const loop = ancestors.has(real);
          const note: SourceNote = loop
            ? { source: p, code: 'source.link-loop', message: `${p} links to ${already}, a folder it is inside of; not followed (a loop)` }
            : { source: p, code: 'source.link-repeat', message: `${p} links to ${already}, a folder read already; not read twice` };
          out.push({ path: p, item: { kind: 'note', note } });
          continue;
        }
        isDir = true;
      }
      if (isDir) {
        const real = await realpath(p).catch(() => p);
        const via = seen.get(real);
        if (via !== undefined) {
          out.push({ path: p, item: { kind: 'note', note: { source: p, code: 'source.link-repeat', message: `${p} was read already through the link ${via}; not read twice` } } });
          continue;
        }
        seen.set(real, p);
        await visit(p, new Set([...ancestors, real]));
      } else out.push({ path: p, item: e.isFile() ? { kind: 'file', path: p, found: true } : notRegular(p) });
    }
  };
  await visit(dir, new Set(seen.keys()));
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A FIFO, socket or device met in a folder: reading it could wait for ever, so it is noted and passed over. */
const notRegular = (p: string): Expanded => ({ kind: 'note', note: { source: p, code: 'source.skipped', message: `${p} is not a regular file (a FIFO, socket or device); not read from a folder` } });

const toPosix = (p: string): string => p.split(path.sep).join('/');

/**
 * Turns command-line sources into inputs, in the given order: `-` (stdin), http(s)
 * URLs, files, directories (every file below, sorted by path, filtered by `glob`
 * when given) and glob patterns. A source that cannot be opened becomes an error
 * input, reported as one unreadable entry, and the others still run.
 */
export async function* expandSources(sources: ReadonlyArray<string | StreamInput>, glob?: string): AsyncGenerator<Expanded> {
  const filter = glob ? globToRegExp(glob) : null;
  const matchesFilter = (rel: string): boolean => filter === null || filter.test(rel) || (!glob!.includes('/') && filter.test(path.posix.basename(rel)));
  for (const source of sources) {
    if (typeof source !== 'string') {
      yield source;
      continue;
    }
    if (source === '-') {
      yield { kind: 'stdin' };
      continue;
    }
    if (/^https?:\/\//i.test(source)) {
      yield { kind: 'url', url: source };
      continue;
    }
    let info: Awaited<ReturnType<typeof stat>> | null = null;
    try {
      info = await stat(source);
    } catch (e) {
      if (!GLOB_CHARS.test(source)) {
        yield { kind: 'error', name: source, error: classify(e, source) };
        continue;
      }
    }
    try {
      if (info?.isDirectory()) {
        let files = 0;
        for (const { path: p, item } of await walk(source)) {
          if (item.kind === 'file' && !matchesFilter(toPosix(path.relative(source, p)))) continue;
          if (item.kind === 'file') files++;
          yield item;
        }
        if (files === 0) {
          const what = glob ? `no file below ${source} matches --glob ${glob}` : `the folder ${source} holds no files`;
          yield { kind: 'note', note: { source, code: 'source.empty', message: what } };
        }
      } else if (info) {
        yield { kind: 'file', path: source };
      } else {
        // A glob: walk from the longest literal prefix of folders.
        const segments = toPosix(source).split('/');
        const firstGlob = segments.findIndex((s) => GLOB_CHARS.test(s));
        const base = segments.slice(0, firstGlob).join('/') || '.';
        const pattern = globToRegExp(segments.slice(firstGlob).join('/'));
        let found = 0;
        for (const { path: p, item } of await walk(base)) {
          const rel = toPosix(path.relative(base, p));
          if (pattern.test(rel) && matchesFilter(rel)) {
            if (item.kind === 'file') found++;
            yield item;
          }
        }
        if (found === 0) yield { kind: 'error', name: source, error: new SourceError('record.io', `no file matches ${source}`) };
      }
    } catch (e) {
      yield { kind: 'error', name: source, error: classify(e, source) };
    }
  }
}
