import { join } from 'node:path';
import { runExplorer } from '../explore/files.js';
import { renderHtml } from '../report/render-html.js';
import { renderJunit } from '../report/render-junit.js';
import { renderMarkdown } from '../report/render-md.js';
import { readResultsSync } from '../report/results-file.js';
import type { Summary } from '../report/summary-schema.js';
import { ruleKinds } from './rule-kinds.js';

/**
 * A run folder's reports beside its summary: explorer.html, report.md, report.html, junit.xml (per
 * game too, from `dir`'s results.ndjson). `write` puts one file in the folder (the run folder's
 * own, which names a failure with its option).
 */
export async function writeReports(dir: string, summary: Summary, junitPerGame: boolean, write: (name: string, text: string) => Promise<void>): Promise<void> {
  const page = runExplorer(Object.values(summary.run_info.dialects).map((d) => d.file));
  const explorer = page?.name ?? null;
  const kinds = ruleKinds(summary);
  const perGame = junitPerGame ? readResultsSync(join(dir, 'results.ndjson')) : undefined;
  const files: Array<[name: string, text: string]> = [
    ['report.md', renderMarkdown(summary, { kinds, explorer })],
    ['report.html', renderHtml(summary, { kinds, explorer })],
    ['junit.xml', renderJunit(summary, kinds, perGame)],
  ];
  if (page) files.push([page.name, page.html]);
  // Written at once: a short run waits for the slowest file, not for the four in turn. Every
  // write settles before a failure is told, so the folder is removed with nothing writing into it.
  const writes = await Promise.allSettled(files.map(([name, text]) => write(name, text)));
  for (const w of writes) if (w.status === 'rejected') throw w.reason;
}
