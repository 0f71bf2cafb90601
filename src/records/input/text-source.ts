import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { HttpOptions } from './http.js';
import { SourceError, classify } from './source-error.js';
import { hasInvalidUtf8 } from './utf8.js';

/**
 * Bytes a caller hands over instead of naming a file (library users): text or bytes in
 * memory, or any async iterable of chunks (a Node stream, a web ReadableStream).
 */
export interface StreamInput {
  kind: 'stream';
  name: string;
  data: string | Uint8Array | AsyncIterable<Uint8Array | string>;
}

export type Input = { kind: 'file'; path: string } | { kind: 'stdin' } | { kind: 'url'; url: string } | StreamInput;

export const inputName = (input: Input): string => (input.kind === 'file' ? input.path : input.kind === 'url' ? input.url : input.kind === 'stream' ? input.name : '-');

async function* streamBytes(data: StreamInput['data']): AsyncGenerator<Uint8Array> {
  if (typeof data === 'string') yield Buffer.from(data);
  else if (data instanceof Uint8Array) yield data;
  else for await (const chunk of data) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

const BOM = [0xef, 0xbb, 0xbf];

/**
 * One source, streamed: bytes (file, stdin or http), gunzipped when the data starts
 * with the gzip magic bytes (whatever the name says), a UTF-8 BOM dropped. Readers take
 * it as bytes (`bytes()`, the native NDJSON fast path) or as UTF-8 text (`chunks()`).
 * A stream that fails ends early and keeps the failure as a value, so the reader can
 * keep the records it got and the caller can add one unreadable entry for the rest.
 */
export class TextSource {
  failure: SourceError | null = null;
  /** Set once a chunk held bytes that are not UTF-8 (decoded as U+FFFD): records read after it are checked for a note. */
  invalidUtf8 = false;
  /** Bytes read ahead by `peek`, handed out first. */
  private head: Buffer[] = [];
  private iterator: AsyncIterator<Uint8Array> | null = null;
  private done = false;
  private started = false;

  constructor(
    readonly name: string,
    private readonly source: () => AsyncIterable<Uint8Array>,
  ) {}

  /** `onDigest`: told a file's SHA-256 (hex, of its bytes as stored) once it was read to its end. */
  static open(input: Input, http: HttpOptions = {}, signal?: AbortSignal, onDigest?: (sha256: string) => void): TextSource {
    const name = inputName(input);
    if (input.kind === 'url') return new TextSource(name, () => fetchBytes(input.url, http, signal));
    if (input.kind === 'stdin') return new TextSource(name, () => process.stdin);
    if (input.kind === 'stream') return new TextSource(name, () => streamBytes(input.data));
    return new TextSource(name, () => {
      const stream = createReadStream(input.path, { highWaterMark: 256 * 1024, signal });
      return onDigest ? digested(stream, onDigest) : stream;
    });
  }

  /** A source over text already in memory (tests, `makeRecordText` round trips). */
  static fromText(name: string, text: string | Uint8Array): TextSource {
    const data = typeof text === 'string' ? Buffer.from(text) : text;
    return new TextSource(name, async function* () {
      yield data;
    });
  }

  /** True once the whole source has been read (by `peek` or the readers), or it failed. */
  get ended(): boolean {
    return this.done;
  }

  /** Reads ahead until at least `chars` bytes (or the end) are buffered; returns them as text (for format detection). */
  async peek(chars: number): Promise<string> {
    let size = this.head.reduce((n, b) => n + b.length, 0);
    while (size < chars && !this.done) {
      const next = await this.pull();
      if (next === null) break;
      this.head.push(next);
      size += next.length;
    }
    return new TextDecoder('utf-8').decode(Buffer.concat(this.head));
  }

  /** The bytes chunk by chunk (read-ahead first); iterate once, either this or `chunks()`. */
  async *bytes(): AsyncGenerator<Buffer> {
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

  /** The text chunk by chunk, decoded as UTF-8 (a character split between chunks is kept whole). */
  async *chunks(): AsyncGenerator<string> {
    const decoder = new TextDecoder('utf-8');
    for await (const chunk of this.bytes()) {
      const text = decoder.decode(chunk, { stream: true });
      if (text) yield text;
    }
    const tail = decoder.decode();
    if (tail) yield tail;
  }

  private async pull(): Promise<Buffer | null> {
    if (this.done) return null;
    this.iterator ??= plainBytes(this.source(), this.name)[Symbol.asyncIterator]();
    try {
      const r = await this.iterator.next();
      if (r.done) {
        this.done = true;
        return null;
      }
      let chunk = Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength);
      if (!this.started) {
        this.started = true;
        if (chunk.length >= 3 && chunk[0] === BOM[0] && chunk[1] === BOM[1] && chunk[2] === BOM[2]) chunk = chunk.subarray(3);
      }
      if (!this.invalidUtf8 && hasInvalidUtf8(chunk)) this.invalidUtf8 = true;
      return chunk;
    } catch (e) {
      this.done = true;
      this.failure = classify(e, this.name);
      return null;
    }
  }
}

/** The chunks as they come, hashed on the way: the file's digest costs no second read of it. */
async function* digested(chunks: AsyncIterable<Uint8Array>, onDigest: (sha256: string) => void): AsyncGenerator<Uint8Array> {
  const hash = createHash('sha256');
  for await (const chunk of chunks) {
    hash.update(chunk);
    yield chunk;
  }
  onDigest(hash.digest('hex'));
}

/** The HTTP client (undici) is loaded only when a source is a URL: worker threads and local runs start faster. */
async function* fetchBytes(url: string, http: HttpOptions, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const { httpBytes } = await import('./http.js');
  yield* httpBytes(url, http, signal);
}

/** The source's bytes, gunzipped when the first bytes say gzip. */
async function* plainBytes(source: AsyncIterable<Uint8Array>, name: string): AsyncGenerator<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  const rest: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => it };
  const head = first.value;
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    yield* gunzip(head, rest, name);
    return;
  }
  yield head;
  yield* rest;
}

async function* gunzip(head: Uint8Array, rest: AsyncIterable<Uint8Array>, name: string): AsyncGenerator<Uint8Array> {
  // node:stream too: a plain file's bytes come from fs' own read stream.
  const input = process.getBuiltinModule('node:stream').Readable.from(
    (async function* () {
      yield head;
      yield* rest;
    })(),
    { objectMode: false },
  );
  // node:zlib is loaded by the first gzip source, not by every run (about 2 ms of a start).
  const z = process.getBuiltinModule('node:zlib').createGunzip();
  input.on('error', (e) => z.destroy(e instanceof SourceError ? e : classify(e, name)));
  input.pipe(z);
  try {
    for await (const chunk of z) yield chunk as Uint8Array;
  } finally {
    input.destroy();
  }
}
