import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runExplorer } from '../explore/files.js';
import { renderHtml } from '../report/render-html.js';
import { renderJunit } from '../report/render-junit.js';
import { renderMarkdown } from '../report/render-md.js';
import { readResultsSync } from '../report/results-file.js';
import type { Summary } from '../report/summary-schema.js';
import { ruleKinds } from './rule-kinds.js';

/** A run folder's reports beside its summary: explorer.html, report.md, report.html, junit.xml (per game too, from results.ndjson). */
export async function writeReports(dir: string, summary: Summary, junitPerGame: boolean): Promise<void> {
  const explorer = await runExplorer(dir, Object.values(summary.run_info.dialects).map((d) => d.file));
  const kinds = ruleKinds(summary);
  await writeFile(join(dir, 'report.md'), renderMarkdown(summary, { kinds, explorer }));
  await writeFile(join(dir, 'report.html'), renderHtml(summary, { kinds, explorer }));
  const perGame = junitPerGame ? readResultsSync(join(dir, 'results.ndjson')) : undefined;
  await writeFile(join(dir, 'junit.xml'), renderJunit(summary, kinds, perGame));
}
