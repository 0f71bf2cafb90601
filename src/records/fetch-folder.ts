import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * A folder written by `dice-dialects fetch` is a corpus as it stands: its
 * `manifest.json` (and the dicechess.com history list it names) are metadata, not
 * games. Reading such a folder skips them as sources and loads the history list, so
 * `replay DIR` picks up results, ratings, time controls and `allowDoubling` with no flags.
 */
export const FETCH_MANIFEST_FORMAT = 'dice-dialects-fetch/1';
export const FETCH_MANIFEST_NAME = 'manifest.json';

export interface FetchFolders {
  /** Absolute paths of files that are not games. */
  skip: Set<string>;
  /** History-list files to load, in source order. */
  historyLists: string[];
}

export async function fetchFolders(sources: string[]): Promise<FetchFolders> {
  const found: FetchFolders = { skip: new Set(), historyLists: [] };
  for (const source of sources) {
    if (source === '-' || /^https?:\/\//i.test(source)) continue;
    const isDir = await stat(source).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isDir) continue;
    const file = path.join(source, FETCH_MANIFEST_NAME);
    let manifest: { format?: unknown; historyList?: unknown };
    try {
      manifest = JSON.parse(await readFile(file, 'utf8'));
    } catch {
      continue;
    }
    if (manifest?.format !== FETCH_MANIFEST_FORMAT) continue;
    found.skip.add(path.resolve(file));
    if (typeof manifest.historyList === 'string' && manifest.historyList !== '' && !manifest.historyList.includes('..')) {
      const list = path.join(source, manifest.historyList);
      found.skip.add(path.resolve(list));
      if (await stat(list).then((s) => s.isFile(), () => false)) found.historyLists.push(list);
    }
  }
  return found;
}
