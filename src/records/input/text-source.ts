import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { type HttpOptions, httpBytes } from './http.js';
import { SourceError, classify } from './source-error.js';

export type Input = { kind: 'file'; path: string } | { kind: 'stdin' } | { kind: 'url'; url: string };

export const inputName = (input: Input): string => (input.kind === 'file' ? input.path : input.kind === 'url' ? input.url : '-');

/**
 * One source as text, streamed: bytes (file, stdin or http), gunzipped when the data
 * starts with the gzip magic bytes (whatever the name says), decoded as UTF-8. A
 * stream that fails ends early and keeps the failure as a value, so the reader can
 * keep the records it got and the caller can add one unreadable entry for the rest.
 */
export class TextSource {
  failure: SourceError | null = null;
  private head: string[] = [];
  private iterator: AsyncIterator<string> | null = null;
  private done = false;

  constructor(
    readonly name: string,
    private readonly bytes: () => AsyncIterable<Uint8Array>,
  ) {}

  static open(input: Input, http: HttpOptions = {}, signal?: AbortSignal): TextSource {
    const name = inputName(input);
    if (input.kind === 'url') return new TextSource(name, () => httpBytes(input.url, http, signal));
    if (input.kind === 'stdin') return new TextSource(name, () => process.stdin);
    return new TextSource(name, () => createReadStream(input.path, { highWaterMark: 256 * 1024, signal }));
  }

  /** A source over text already in memory (tests, `formatRecord` round trips). */
  static fromText(name: string, text: string | Uint8Array): TextSource {
    const data = typeof text === 'string' ? Buffer.from(text) : text;
    return new TextSource(name, async function* () {
      yield data;
    });
  }

  /** Reads ahead until at least `chars` characters (or the end) are buffered; returns them. */
  async peek(chars: number): Promise<string> {
    let text = this.head.join('');
    while (text.length < chars && !this.done) {
      const next = await this.pull();
      if (next === null) break;
      this.head.push(next);
      text += next;
    }
    return text;
  }

  /** The text chunk by chunk (read-ahead first); iterate once. */
  async *chunks(): AsyncGenerator<string> {
    try {
      while (this.head.length > 0) yield this.head.shift()!;
      for (;;) {
        const next = await this.pull();
        if (next === null) return;
        yield next;
      }
    } finally {
      if (!this.done) {
        this.done = true;
        await this.iterator?.return?.();
      }
    }
  }

  private async pull(): Promise<string | null> {
    if (this.done) return null;
    this.iterator ??= decode(this.bytes(), this.name)[Symbol.asyncIterator]();
    try {
      const r = await this.iterator.next();
      if (r.done) {
        this.done = true;
        return null;
      }
      return r.value;
    } catch (e) {
      this.done = true;
      this.failure = classify(e, this.name);
      return null;
    }
  }
}

/** Gunzip when the first bytes say gzip, then UTF-8 decode (a BOM is dropped). */
async function* decode(source: AsyncIterable<Uint8Array>, name: string): AsyncGenerator<string> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  const rest: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => it,
  };
  const head = first.value;
  const decoder = new TextDecoder('utf-8');
  let bytes: AsyncIterable<Uint8Array>;
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    bytes = gunzip(head, rest, name);
  } else {
    bytes = (async function* () {
      yield head;
      yield* rest;
    })();
  }
  for await (const chunk of bytes) {
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const tail = decoder.decode();
  if (tail) yield tail;
}

async function* gunzip(head: Uint8Array, rest: AsyncIterable<Uint8Array>, name: string): AsyncGenerator<Uint8Array> {
  const input = Readable.from(
    (async function* () {
      yield head;
      yield* rest;
    })(),
    { objectMode: false },
  );
  const z = createGunzip();
  input.on('error', (e) => z.destroy(e instanceof SourceError ? e : classify(e, name)));
  input.pipe(z);
  try {
    for await (const chunk of z) yield chunk as Uint8Array;
  } finally {
    input.destroy();
  }
}
