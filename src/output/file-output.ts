import { createWriteStream, realpathSync, renameSync, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import { basename, dirname, join, resolve } from 'node:path';
import { isClosedPipe, stopForClosedPipe } from './closed-pipe.js';
import { checkFileTarget, OutputPathError, outputFailure } from './output-path.js';
import { createTemporary, type Temporary } from './temporary.js';

export interface OutputFile {
  /** Write here; a write error is held and thrown by commit(). */
  stream: NodeJS.WritableStream;
  /** Close the stream and put the file in place. */
  commit(): Promise<void>;
  /**
   * Close the stream and drop what was written (the old file, if any, stays). Resolves to the
   * output's own write failure as a one-line error, if it had one: the cause to report.
   */
  abort(): Promise<OutputPathError | null>;
}

async function close(stream: WriteStream): Promise<void> {
  if (stream.closed || stream.destroyed) return;
  const closed = once(stream, 'close').catch(() => undefined);
  if (!stream.writableEnded) stream.end();
  await closed;
}

export interface OutputFileOptions {
  /**
   * Replace an existing regular file only when this says it is the tool's own (e.g. a
   * dialect file `infer` wrote); anything else there is refused before the work starts.
   * Without it, any regular file is replaced.
   */
  ours?: { test: (file: string) => boolean; what: string };
}

/** Checks a file output before the work starts (what openOutputFile checks first); throws OutputPathError. */
export function checkOutputFile(what: string, path: string, opts: OutputFileOptions = {}): 'new' | 'replace' | 'device' {
  const kind = checkFileTarget(what, path);
  if (kind === 'replace' && opts.ours && !opts.ours.test(path)) {
    throw new OutputPathError('output.not-ours', `${what} ${path}: exists and is not ${opts.ours.what}; it is never replaced (nothing was written; choose another path)`);
  }
  return kind;
}

/**
 * A file output (`--out`, `--errors`, `--key`, `--write`, …): checked first (a folder,
 * or a path through a file, is a one-line usage error), written to a marked temporary
 * beside it and renamed into place by commit(), so an interrupted run leaves the old
 * file whole and an output that is also an input is read to the end before it is
 * replaced. Devices and pipes (`/dev/stdout`, `/dev/null`) are written straight
 * through; a pipe whose reader went away stops the command quietly (closed-pipe.ts).
 */
export async function openOutputFile(what: string, path: string, opts: OutputFileOptions = {}): Promise<OutputFile> {
  const kind = checkOutputFile(what, path, opts);
  let temporary: Temporary | null = null;
  let file: string;
  // An existing file is replaced where it really is (a link to it stays a link).
  let dest = resolve(path);
  try {
    if (kind === 'device') file = path;
    else {
      if (kind === 'replace') dest = realpathSync(dest);
      await mkdir(dirname(dest), { recursive: true });
      temporary = createTemporary(dest);
      file = join(temporary.dir, basename(dest));
    }
  } catch (e) {
    throw outputFailure(what, path, e);
  }
  let state: 'open' | 'done' = 'open';
  const done = (): void => {
    if (state === 'done') throw new OutputPathError('output.closed', `${what} ${path}: already closed`);
    state = 'done';
  };
  const standard = kind === 'device' ? standardStream(path) : null;
  if (standard) {
    return {
      stream: standard,
      async commit() {
        done();
        await new Promise<void>((flushed) => standard.write('', () => flushed()));
      },
      async abort() {
        state = 'done';
        return null;
      },
    };
  }
  const stream = createWriteStream(file);
  let failure: unknown = null;
  stream.on('error', (e) => {
    if (kind === 'device' && isClosedPipe(e)) stopForClosedPipe();
    failure ??= e;
  });
  await Promise.race([once(stream, 'open'), once(stream, 'close')]).catch(() => undefined);
  // A device that cannot be opened fails here, before any write waits on a stream that will never drain.
  if (failure !== null) {
    temporary?.remove();
    throw outputFailure(what, path, failure);
  }
  return {
    stream,
    async commit() {
      done();
      await close(stream);
      try {
        if (failure) throw failure;
        if (temporary) {
          renameSync(file, dest);
          temporary.remove();
        }
      } catch (e) {
        temporary?.remove();
        throw outputFailure(what, path, e);
      }
    },
    async abort() {
      if (state === 'done') return null;
      state = 'done';
      stream.destroy();
      await close(stream);
      temporary?.remove();
      return failure === null ? null : outputFailure(what, path, failure);
    },
  };
}

/**
 * The process's own stdout or stderr, named as a file: written through the process's stream,
 * which is open whatever it is (a socket, for one, cannot be opened again by name: ENXIO).
 */
function standardStream(path: string): NodeJS.WriteStream | null {
  const name = /^\/dev\/(stdout|stderr)$/.exec(path)?.[1] ?? /^\/(?:dev|proc\/self)\/fd\/([12])$/.exec(path)?.[1];
  if (name === undefined) return null;
  return name === 'stdout' || name === '1' ? process.stdout : process.stderr;
}

/** Writes one whole text output (a diff, a matrix, a key) through openOutputFile. */
export async function writeOutputFile(what: string, path: string, text: string, opts: OutputFileOptions = {}): Promise<void> {
  const out = await openOutputFile(what, path, opts);
  out.stream.write(text);
  await out.commit();
}
