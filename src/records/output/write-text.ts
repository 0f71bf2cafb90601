import type { Writable } from 'node:stream';

/**
 * Writes text and waits for 'drain' when the stream's buffer is full (backpressure). A stream
 * that failed or closed instead never drains: that rejects (with the stream's error), never hangs.
 */
export async function writeText(out: NodeJS.WritableStream, text: string | Uint8Array): Promise<void> {
  if (text.length === 0) return;
  if (out.write(text)) return;
  const stream = out as unknown as Writable;
  const closed = (): Error => stream.errored ?? new Error('the output closed before everything was written');
  if (stream.destroyed) throw closed();
  await new Promise<void>((resolve, reject) => {
    const settle = (error: Error | null): void => {
      stream.off('drain', drained).off('close', ended).off('error', ended);
      if (error) reject(error);
      else resolve();
    };
    const drained = (): void => settle(null);
    const ended = (): void => settle(closed());
    stream.on('drain', drained).on('close', ended).on('error', ended);
  });
}
