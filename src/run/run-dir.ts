import { openFolderOutput } from '../output/folder-output.js';
import type { OutputPathError } from '../output/output-path.js';
import { canonicalJson } from '../report/sorted.js';
import type { Summary } from '../report/summary-schema.js';

export { RUN_FILES } from '../output/output-path.js';

export interface RunDir {
  tmpDir: string;
  /** results.ndjson inside tmpDir; the caller writes one JSON line per result. */
  resultsStream: NodeJS.WritableStream;
  finish(summary: Summary, opts?: { junitPerGame?: boolean }): Promise<void>;
  /** Publishes the results with other files than the reports (a shard's partial run folder). */
  finishWith(files: Array<[name: string, text: string]>): Promise<void>;
  /** Drops the run folder; resolves to its own write failure (no space, say), if it had one: the cause to report. */
  abort(): Promise<OutputPathError | null>;
}

/**
 * A run folder, published only when complete through the shared folder publisher
 * (src/output/folder-output.ts): results.ndjson streamed, then the summary and the reports.
 */
export async function openRunDir(finalDir: string, what = '--out'): Promise<RunDir> {
  const folder = await openFolderOutput(what, finalDir, 'run-folder');
  const results = folder.stream('results.ndjson');
  // The renderers are needed only at the end: they load while the run goes on, not before it starts.
  const reports = import('./run-reports.js');
  reports.catch(() => {});

  async function finish(summary: Summary, opts: { junitPerGame?: boolean } = {}): Promise<void> {
    try {
      // Written as built, not parsed again: its type is the schema's, and the schema (built and
      // parsed) cost a tenth of a one-game replay. The tests parse every summary they write.
      // The per-game JUnit reads results.ndjson back: every line must be in the file first.
      await folder.endStreams();
      await folder.writeFile('summary.json', canonicalJson(summary));
      await (await reports).writeReports(folder.tmpDir, summary, opts.junitPerGame === true, (name, text) => folder.writeFile(name, text));
    } catch (e) {
      await folder.abort();
      throw e;
    }
    await folder.commit();
  }

  async function finishWith(files: Array<[string, string]>): Promise<void> {
    try {
      for (const [name, text] of files) await folder.writeFile(name, text);
    } catch (e) {
      await folder.abort();
      throw e;
    }
    await folder.commit();
  }

  return { tmpDir: folder.tmpDir, resultsStream: results, finish, finishWith, abort: () => folder.abort() };
}
