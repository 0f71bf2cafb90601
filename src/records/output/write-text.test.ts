import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeText } from './write-text.js';

/** A stream that asks its writer to wait past 4 bytes, and fails its first write with `error`. */
const failing = (error: Error): Writable =>
  new Writable({
    highWaterMark: 4,
    write(_chunk, _encoding, done) {
      setImmediate(() => done(error));
    },
  });

describe('writeText', () => {
  it('waits for drain and resolves once the stream takes the text', async () => {
    const seen: string[] = [];
    const out = new Writable({ highWaterMark: 4, write: (chunk, _e, done) => setImmediate(() => (seen.push(String(chunk)), done())) });
    await writeText(out, 'a long enough text');
    await writeText(out, new TextEncoder().encode('bytes'));
    await writeText(out, '');
    expect(seen.join('')).toBe('a long enough textbytes');
  });

  it('rejects with the stream\'s error when the stream fails instead of draining (no hang)', async () => {
    const out = failing(new Error('ENOSPC: no space left on device'));
    out.on('error', () => {});
    await expect(writeText(out, 'more than four bytes')).rejects.toThrow('ENOSPC');
    // A stream that failed already: at once, with the same error.
    await expect(writeText(out, 'more than four bytes')).rejects.toThrow(/ENOSPC|closed/);
  });

  it('rejects when the stream closes before it drained', async () => {
    const out = new Writable({ highWaterMark: 4, write: () => {} });
    const written = writeText(out, 'more than four bytes');
    out.destroy();
    await expect(written).rejects.toThrow(/closed before everything was written/);
  });
});
