import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * A folder written by `dice-dialects fetch` is a corpus as it stands: its
 * `manifest.json` (and the dicechess.com history list it names) are metadata, not
 * games. Reading such a folder, or a folder of such folders, skips them as sources and
 * loads the history lists, so `replay DIR` picks up results, ratings, time controls and
 * `allowDoubling` with no flags.
 */
export const FETCH_MANIFEST_FORMAT = 'dice-dialects-fetch/1';
export const FETCH_MANIFEST_NAME = 'manifest.json';

export interface FetchFolders {
  /** Absolute paths of files that are not games. */
  skip: Set<string>;
  /** History-list files to load, in source order. */
  historyLists: string[];
}

const isDir = (p: string): Promise<boolean> => stat(p).then((s) => s.isDirectory(), () => false);
const isFile = (p: string): Promise<boolean> => stat(p).then((s) => s.isFile(), () => false);

/** The history list a fetch manifest names ('' for none), or null when the file is not a fetch manifest. Reads only its head when it can: the fields come first. */
async function manifestHistoryList(file: string): Promise<string | null> {
  let head: string;
  try {
    const fh = await open(file, 'r');
    try {
      const buf = Buffer.alloc(64 * 1024);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      head = buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return null;
  }
  if (!new RegExp(`^\\s*\\{\\s*"format"\\s*:\\s*"${FETCH_MANIFEST_FORMAT.replace(/[/.]/g, '\\$&')}"`).test(head)) return null;
  const m = /"historyList"\s*:\s*(null|"((?:[^"\\]|\\.)*)")/.exec(head);
  if (m) return m[1] === 'null' ? '' : (JSON.parse(`"${m[2]}"`) as string);
  try {
    const full = JSON.parse(await readFile(file, 'utf8')) as { historyList?: unknown };
    return typeof full.historyList === 'string' ? full.historyList : '';
  } catch {
    return '';
  }
}

async function visit(dir: string, found: FetchFolders): Promise<boolean> {
  const file = path.join(dir, FETCH_MANIFEST_NAME);
  if (!(await isFile(file))) return false;
  const list = await manifestHistoryList(file);
  if (list === null) return false;
  found.skip.add(path.resolve(file));
  if (list !== '' && !list.split(/[\\/]/).includes('..')) {
    const listPath = path.join(dir, list);
    found.skip.add(path.resolve(listPath));
    if (await isFile(listPath)) found.historyLists.push(listPath);
  }
  return true;
}

/** The fetch folders among the sources: each folder source itself, or its sub-folders (a folder of fetch folders). */
export async function fetchFolders(sources: ReadonlyArray<unknown>): Promise<FetchFolders> {
  const found: FetchFolders = { skip: new Set(), historyLists: [] };
  for (const source of sources) {
    if (typeof source !== 'string' || source === '-' || /^https?:\/\//i.test(source) || !(await isDir(source))) continue;
    if (await visit(source, found)) continue;
    const subs = await readdir(source, { withFileTypes: true }).catch(() => []);
    for (const e of subs.filter((x) => x.isDirectory() && !x.name.startsWith('.')).sort((a, b) => (a.name < b.name ? -1 : 1))) await visit(path.join(source, e.name), found);
  }
  return found;
}

/** Read options with the fetch folders' history lists added (before an explicit one, which wins) and their metadata files skipped. */
export async function withFetchFolders<T extends { historyList?: string | string[]; skip?: ReadonlySet<string> }>(sources: ReadonlyArray<unknown>, opts: T): Promise<T> {
  const found = await fetchFolders(sources);
  if (found.skip.size === 0) return opts;
  const explicit = opts.historyList === undefined ? [] : Array.isArray(opts.historyList) ? opts.historyList : [opts.historyList];
  const lists = [...found.historyLists, ...explicit];
  return { ...opts, historyList: lists.length === 0 ? undefined : lists, skip: new Set([...(opts.skip ?? []), ...found.skip]) };
}
