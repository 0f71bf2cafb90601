import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

const MARKER = '.dice-dialects-history-site';

/**
 * `history site`: the runs, trend and latest-diff pages (and their JSON) as files, for hosting
 * without a server. Written into a fresh temporary sibling and renamed into place; an existing
 * folder is replaced only when this command wrote it.
 */
export async function writeSite(store: Store, outDir: string): Promise<string[]> {
  const target = resolve(outDir);
  if (existsSync(target) && readdirSync(target).length > 0 && !existsSync(join(target, MARKER)))
    throw new HistoryError('history-usage', `--out ${outDir} exists and was not written by history site: it is never replaced (choose a new folder)`);
  const pages: [string, string][] = [
    ['index.html', '/'],
    ['trend.html', '/trend'],
    ['diff.html', '/diff'],
    ['runs.json', '/api/runs'],
    ['trend.json', '/api/trend'],
    ['diff.json', '/api/diff'],
  ];
  const tmp = `${target}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    const written: string[] = [];
    for (const [file, path] of pages) {
      const a = await route(store, 'GET', path, siteLinks);
      // Only one run: no diff to show, and no page for it.
      if (a.status === 404 && file.startsWith('diff')) continue;
      if (a.status !== 200) throw new HistoryError('history-usage', `cannot write ${file}: ${typeof a.body === 'string' ? a.body.slice(0, 200) : a.status}`);
      writeFileSync(join(tmp, file), a.body);
      written.push(join(outDir, file));
    }
    writeFileSync(join(tmp, MARKER), `${JSON.stringify({ tool: 'dice-dialects', kind: 'history-site', version: 1 })}\n`);
    if (existsSync(target)) {
      const old = `${target}.old-${process.pid}`;
      renameSync(target, old);
      renameSync(tmp, target);
      rmSync(old, { recursive: true, force: true });
    } else renameSync(tmp, target);
    return written;
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}
