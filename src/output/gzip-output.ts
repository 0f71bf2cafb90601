import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type { OutputFile } from './file-output.js';

/**
 * `file` written through gzip (an output named `….gz`): its stream compresses; commit() ends the
 * compression before the file is put in place, abort() drops both. Its own module: node:zlib
 * loads only for a command that writes gzip.
 */
export function throughGzip(file: OutputFile, level?: number): OutputFile {
  const gzip = createGzip(level === undefined ? {} : { level });
  gzip.pipe(file.stream);
  // A file that fails (no space) stops taking the gzip's output: the gzip must fail too, not wait to drain.
  file.stream.on('error', (error: Error) => gzip.destroy(error));
  return {
    stream: gzip,
    async commit() {
      try {
        gzip.end();
        await once(gzip, 'end');
      } catch (e) {
        // The file's own failure (no space) is the cause, not what the gzip then met.
        throw (await file.abort()) ?? e;
      }
      await file.commit();
    },
    async abort() {
      gzip.destroy();
      return file.abort();
    },
  };
}
