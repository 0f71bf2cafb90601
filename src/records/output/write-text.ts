import { once } from 'node:events';

/** Writes text and waits for 'drain' when the stream's buffer is full (backpressure). */
export async function writeText(out: NodeJS.WritableStream, text: string): Promise<void> {
  if (text === '') return;
  if (!out.write(text)) await once(out as unknown as import('node:events').EventEmitter, 'drain');
}
