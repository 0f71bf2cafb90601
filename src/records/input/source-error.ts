import type { UnreadableCode } from '../problems.js';

/** A byte source failed (HTTP, file system, gzip); ends that source with one unreadable entry. */
export class SourceError extends Error {
  constructor(
    readonly code: UnreadableCode,
    message: string,
  ) {
    super(message);
  }
}

/** Names any failure of a byte stream with a record.* code and a sentence. */
export function classify(e: unknown, name: string): SourceError {
  if (e instanceof SourceError) return e;
  const err = e as { code?: unknown; message?: string; errno?: number };
  // Node's errors carry a string code; a DOMException (an aborted fetch) a number.
  const code = typeof err?.code === 'string' ? err.code : '';
  if (code.startsWith('Z_')) {
    return new SourceError('record.truncated-gzip', `the gzip data of ${name} ends early or is corrupt (${err.message}); the records after the cut are lost`);
  }
  if (code === 'ENOENT') return new SourceError('record.io', `${name} does not exist`);
  if (code === 'EACCES') return new SourceError('record.io', `${name} cannot be read (permission denied)`);
  if (code === 'EISDIR') return new SourceError('record.io', `${name} is a directory`);
  return new SourceError('record.io', `reading ${name} failed: ${err?.message ?? String(e)}${code ? ` (${code})` : ''}`);
}
