import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Input, StreamInput } from './text-source.js';
import { SourceError, classify } from './source-error.js';

export type Expanded = Input | { kind: 'error'; name: string; error: SourceError };

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

/** Every regular file under `dir`, skipping dot-files and dot-folders, as sorted paths. */
async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (d: string): Promise<void> => {
    const entries = await readdir(d, { withFileTypes: true });
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) await visit(p);
      else if (e.isFile() || e.isSymbolicLink()) out.push(p);
    }
  };
  await visit(dir);
  return out.sort();
}

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
        for (const p of await walk(source)) if (matchesFilter(toPosix(path.relative(source, p)))) yield { kind: 'file', path: p };
      } else if (info) {
        yield { kind: 'file', path: source };
      } else {
        // A glob: walk from the longest literal prefix of folders.
        const segments = toPosix(source).split('/');
        const firstGlob = segments.findIndex((s) => GLOB_CHARS.test(s));
        const base = segments.slice(0, firstGlob).join('/') || '.';
        const pattern = globToRegExp(segments.slice(firstGlob).join('/'));
        let found = 0;
        for (const p of await walk(base)) {
          const rel = toPosix(path.relative(base, p));
          if (pattern.test(rel) && matchesFilter(rel)) {
            found++;
            yield { kind: 'file', path: p };
          }
        }
        if (found === 0) yield { kind: 'error', name: source, error: new SourceError('record.io', `no file matches ${source}`) };
      }
    } catch (e) {
      yield { kind: 'error', name: source, error: classify(e, source) };
    }
  }
}
