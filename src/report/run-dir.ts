import { createWriteStream, type WriteStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { basename, dirname, join, resolve } from 'node:path';
import { runExplorer } from '../explore/files.js';
import { renderHtml } from './render-html.js';
import { renderJunit } from './render-junit.js';
import { renderMarkdown } from './render-md.js';
import { readResultsSync } from './results-file.js';
import { canonicalJson } from './sorted.js';
import { Summary } from './summary-schema.js';

export const RUN_FILES = ['results.ndjson', 'summary.json', 'report.md', 'report.html', 'junit.xml', 'explorer.html'] as const;

export interface RunDir {
  tmpDir: string;
  /** results.ndjson inside tmpDir; the caller writes one JSON line per result. */
  resultsStream: NodeJS.WritableStream;
  finish(summary: Summary, opts?: { junitPerGame?: boolean }): Promise<void>;
  /** Publishes the results with other files than the reports (a shard's partial run folder). */
  finishWith(files: Array<[name: string, text: string]>): Promise<void>;
  abort(): Promise<void>;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function closeStream(stream: WriteStream): Promise<void> {
  if (stream.closed) return;
  const closed = once(stream, 'close');
  if (!stream.writableEnded) stream.end();
  await closed;
}

/**
 * A run is published only when complete (as web-platform-tests does): everything is
 * written into a temporary sibling folder, then renamed over the final one. The
 * sibling lives in the same parent so the rename never crosses file systems. The last
 * good run is kept as `<final>.previous` until the new one is in place, so a crash at
 * any point leaves a complete run on disk.
 */
export async function openRunDir(finalDir: string): Promise<RunDir> {
  const target = resolve(finalDir);
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  const tmpDir = await mkdtemp(join(parent, `.${basename(target)}.tmp-`));
  const results = createWriteStream(join(tmpDir, 'results.ndjson'));
  // Surface write errors at finish() instead of crashing the process from an unhandled 'error'.
  let streamError: Error | null = null;
  results.on('error', (e) => {
    streamError ??= e;
  });
  let state: 'open' | 'finishing' | 'done' = 'open';

  async function complete(write: () => Promise<void>): Promise<void> {
    if (state !== 'open') throw new Error(`run folder ${target} is already ${state === 'done' ? 'closed' : 'being finished'}`);
    state = 'finishing';
    await closeStream(results);
    if (streamError) throw streamError;
    await write();
    await publish(tmpDir, target);
    state = 'done';
  }

  const finish = (summary: Summary, opts: { junitPerGame?: boolean } = {}): Promise<void> =>
    complete(async () => {
      const checked = Summary.parse(summary);
      await writeFile(join(tmpDir, 'summary.json'), canonicalJson(checked));
      const explorer = await runExplorer(tmpDir, checked);
      await writeFile(join(tmpDir, 'report.md'), renderMarkdown(checked, { explorer }));
      await writeFile(join(tmpDir, 'report.html'), renderHtml(checked, { explorer }));
      const perGame = opts.junitPerGame ? readResultsSync(join(tmpDir, 'results.ndjson')) : undefined;
      await writeFile(join(tmpDir, 'junit.xml'), renderJunit(checked, perGame));
    });

  const finishWith = (files: Array<[string, string]>): Promise<void> =>
    complete(async () => {
      for (const [name, text] of files) await writeFile(join(tmpDir, name), text);
    });

  async function abort(): Promise<void> {
    if (state === 'done') return;
    state = 'done';
    results.destroy();
    await rm(tmpDir, { recursive: true, force: true });
  }

  return { tmpDir, resultsStream: results, finish, finishWith, abort };
}

/** Swap tmpDir into place, keeping the old run as `.previous` until the swap succeeded. */
async function publish(tmpDir: string, target: string): Promise<void> {
  const previous = `${target}.previous`;
  // mkdtemp made it private (0700); a published run is an ordinary folder.
  await chmod(tmpDir, 0o755);
  let moved = false;
  if (await exists(target)) {
    // A `.previous` left by a crash is older than `target`: the new run supersedes both.
    await rm(previous, { recursive: true, force: true });
    await rename(target, previous);
    moved = true;
  }
  try {
    await rename(tmpDir, target);
  } catch (error) {
    if (moved) await rename(previous, target);
    throw error;
  }
  await rm(previous, { recursive: true, force: true });
}
