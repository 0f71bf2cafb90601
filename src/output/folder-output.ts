import { createWriteStream, type WriteStream } from 'node:fs';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { checkFolderTarget, type FolderKind, type OutputPathError, outputFailure, RUN_MARKER, runMarkerText } from './output-path.js';
import { createTemporary, dropMarker, PARKED, type Temporary } from './temporary.js';

/**
 * A folder output (a run folder, an infer run folder): everything is written into a
 * marked temporary sibling, then renamed over the final folder (as web-platform-tests
 * publishes its runs). The sibling lives in the same parent so the rename never
 * crosses file systems. Only a folder this tool published as the same kind (RUN_MARKER)
 * is ever replaced: any other existing path is refused (OutputPathError) before
 * anything is written. The previous folder waits in a second temporary until the new
 * one is in place.
 */
export interface FolderOutput {
  /** The temporary folder the files go to until commit(). */
  tmpDir: string;
  /** A stream to a file of the folder; a write error is held and thrown by commit(). */
  stream(name: string): NodeJS.WritableStream;
  /** One whole file of the folder. */
  writeFile(name: string, data: string | Uint8Array): Promise<void>;
  /** Ends the streams and waits until their files hold everything written (a file read back before commit()); a write error is thrown here. */
  endStreams(): Promise<void>;
  /** Closes the streams and puts the folder in place. */
  commit(): Promise<void>;
  /** Drops what was written; the previous folder, if any, stays. Resolves to the folder's own write failure (one line), if it had one. */
  abort(): Promise<OutputPathError | null>;
}

async function closeStream(stream: WriteStream): Promise<void> {
  if (stream.closed || stream.destroyed) return;
  const closed = once(stream, 'close').catch(() => undefined);
  if (!stream.writableEnded) stream.end();
  await closed;
}

export async function openFolderOutput(what: string, finalDir: string, kind: FolderKind): Promise<FolderOutput> {
  const target = resolve(finalDir);
  checkFolderTarget(what, finalDir, kind);
  let temporary: Temporary;
  try {
    await mkdir(resolve(target, '..'), { recursive: true });
    temporary = createTemporary(target);
  } catch (e) {
    throw outputFailure(what, finalDir, e);
  }
  const tmpDir = temporary.dir;
  const streams: WriteStream[] = [];
  // Write errors surface at commit() instead of crashing the process from an unhandled 'error'.
  let streamError: Error | null = null;
  let state: 'open' | 'finishing' | 'done' = 'open';
  const open = (): void => {
    if (state !== 'open') throw new Error(`${what} ${finalDir}: already ${state === 'done' ? 'closed' : 'being finished'}`);
  };
  const endStreams = async (): Promise<void> => {
    for (const s of streams) await closeStream(s);
    if (streamError) throw streamError;
  };
  return {
    tmpDir,
    stream(name) {
      open();
      const s = createWriteStream(join(tmpDir, name));
      s.on('error', (e) => {
        streamError ??= e;
      });
      streams.push(s);
      return s;
    },
    async writeFile(name, data) {
      open();
      try {
        await writeFile(join(tmpDir, name), data);
      } catch (e) {
        throw outputFailure(what, finalDir, e);
      }
    },
    async endStreams() {
      open();
      try {
        await endStreams();
      } catch (e) {
        throw outputFailure(what, finalDir, e);
      }
    },
    async commit() {
      open();
      state = 'finishing';
      try {
        await endStreams();
        await writeFile(join(tmpDir, RUN_MARKER), runMarkerText(kind));
        // Checked again: something may have appeared at the target while the work went on.
        checkFolderTarget(what, finalDir, kind);
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
    },
    async abort() {
      if (state === 'done') return null;
      state = 'done';
      for (const s of streams) s.destroy();
      temporary.remove();
      return streamError === null ? null : outputFailure(what, finalDir, streamError);
    },
  };
}

/** Swap tmpDir into place; the old folder waits in a marked temporary until the swap succeeded. */
async function publish(tmpDir: string, target: string): Promise<void> {
  // mkdtemp made it private (0700); a published folder is an ordinary folder.
  await chmod(tmpDir, 0o755);
  try {
    await rename(tmpDir, target);
    return;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
  }
  // Interrupted between the two renames (a signal, or kill -9 and a later run), the previous folder goes back where it was.
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
