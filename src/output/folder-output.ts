import { createWriteStream, type WriteStream } from 'node:fs';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { checkRunFolderTarget, outputFailure, RUN_MARKER, RUN_MARKER_TEXT } from '../output/output-path.js';
import { createTemporary, dropMarker, PARKED, type Temporary } from '../output/temporary.js';
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

async function closeStream(stream: WriteStream): Promise<void> {
  if (stream.closed) return;
  const closed = once(stream, 'close');
  if (!stream.writableEnded) stream.end();
  await closed;
}

/**
 * A run is published only when complete (as web-platform-tests does): everything is
 * written into a marked temporary sibling folder, then renamed over the final one. The
 * sibling lives in the same parent so the rename never crosses file systems. Only a
 * previous run folder (RUN_MARKER) is ever replaced: any other existing path is refused
 * (OutputPathError) before anything is written. The previous run is moved into a
 * second temporary until the new one is in place.
 */
export async function openRunDir(finalDir: string, what = '--out'): Promise<RunDir> {
  const target = resolve(finalDir);
  checkRunFolderTarget(what, finalDir);
  let temporary: Temporary;
  try {
    await mkdir(resolve(target, '..'), { recursive: true });
    temporary = createTemporary(target);
  } catch (e) {
    throw outputFailure(what, finalDir, e);
  }
  const tmpDir = temporary.dir;
  const results = createWriteStream(join(tmpDir, 'results.ndjson'));
  // Surface write errors at finish() instead of crashing the process from an unhandled 'error'.
  let streamError: Error | null = null;
  results.on('error', (e) => {
    streamError ??= e;
  });
  let state: 'open' | 'finishing' | 'done' = 'open';
  // The renderers are needed only at the end: they load while the run goes on, not before it starts.
  const reports = import('./run-reports.js');
  reports.catch(() => {});

  async function complete(write: () => Promise<void>): Promise<void> {
    if (state !== 'open') throw new Error(`run folder ${target} is already ${state === 'done' ? 'closed' : 'being finished'}`);
    state = 'finishing';
    try {
      await closeStream(results);
      if (streamError) throw streamError;
      await write();
      await writeFile(join(tmpDir, RUN_MARKER), RUN_MARKER_TEXT);
      // Checked again: something may have appeared at the target while the run went on.
      checkRunFolderTarget(what, finalDir);
      await publish(tmpDir, target);
    } catch (e) {
      temporary.remove();
      state = 'done';
      // A file-system failure (no space, permissions) is named with the option; anything else is a bug.
      throw (e as NodeJS.ErrnoException)?.syscall ? outputFailure(what, finalDir, e) : e;
    }
    temporary.release();
    dropMarker(target);
    state = 'done';
  }

  const finish = (summary: Summary, opts: { junitPerGame?: boolean } = {}): Promise<void> =>
    complete(async () => {
      // Parsed once a run: zod's compiled fast path would cost more to build than it saves.
      const checked = Summary.parse(summary, { jitless: true });
      await writeFile(join(tmpDir, 'summary.json'), canonicalJson(checked));
      await (await reports).writeReports(tmpDir, checked, opts.junitPerGame === true);
    });

  const finishWith = (files: Array<[string, string]>): Promise<void> =>
    complete(async () => {
      for (const [name, text] of files) await writeFile(join(tmpDir, name), text);
    });

  async function abort(): Promise<void> {
    if (state === 'done') return;
    state = 'done';
    results.destroy();
    temporary.remove();
  }

  return { tmpDir, resultsStream: results, finish, finishWith, abort };
}

/** Swap tmpDir into place; the old run waits in a marked temporary until the swap succeeded. */
async function publish(tmpDir: string, target: string): Promise<void> {
  // mkdtemp made it private (0700); a published run is an ordinary folder.
  await chmod(tmpDir, 0o755);
  try {
    await rename(tmpDir, target);
    return;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
  }
  // Interrupted between the two renames (a signal, or kill -9 and a later run), the previous run goes back where it was.
  const old = createTemporary(target);
  const parked = join(old.dir, PARKED);
  await rename(target, parked);
  try {
    await rename(tmpDir, target);
  } catch (error) {
    await rename(parked, target);
    old.remove();
    throw error;
  }
  old.remove();
}
