import { join } from 'node:path';
import { openFolderOutput } from '../../output/folder-output.js';
import type { SITE_FILES } from '../../output/output-path.js';
import { HistoryError } from '../errors.js';
import type { Store } from '../store-types.js';
import type { Links } from './layout.js';
import { route } from './routes.js';

/** The static site's pages link to each other by file; the pages a server answers (run, game, search) are not there. */
const siteLinks: Links = {
  runs: () => 'index.html',
  trend: () => 'trend.html',
  run: () => null,
  game: () => null,
  diff: (a, b) => (a === undefined && b === undefined ? 'diff.html' : null),
  search: () => null,
  runFile: () => null,
};

/**
 * `history site`: the runs, trend and latest-diff pages (and their JSON) as files, for hosting
 * without a server, through the shared folder publisher (a marked temporary sibling renamed into
 * place): an existing folder is replaced only when this command wrote it and it holds nothing else.
 */
export async function writeSite(store: Store, outDir: string): Promise<string[]> {
  const pages: Array<[file: (typeof SITE_FILES)[number], path: string]> = [
    ['index.html', '/'],
    ['trend.html', '/trend'],
    ['diff.html', '/diff'],
    ['runs.json', '/api/runs'],
    ['trend.json', '/api/trend'],
    ['diff.json', '/api/diff'],
  ];
  const folder = await openFolderOutput('--out', outDir, 'history-site');
  try {
    const written: string[] = [];
    for (const [file, path] of pages) {
      const a = await route(store, 'GET', path, siteLinks);
      // Only one run: no diff to show, and no page for it.
      if (a.status === 404 && file.startsWith('diff')) continue;
      if (a.status !== 200) throw new HistoryError('history-usage', `cannot write ${file}: ${typeof a.body === 'string' ? a.body.slice(0, 200) : a.status}`);
      await folder.writeFile(file, a.body);
      written.push(join(outDir, file));
    }
    await folder.commit();
    return written;
  } catch (error) {
    await folder.abort();
    throw error;
  }
}
