import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { SourceError } from './source-error.js';
import { undici } from './undici.js';

export interface HttpOptions {
  /** Connect, headers and body-silence timeout in ms (one try). */
  timeoutMs?: number;
  /** Retries after a 5xx answer or a refused/reset connection before the body starts (timeouts are not retried). */
  retries?: number;
  /** Largest body accepted, in bytes (compressed size as sent). */
  maxBytes?: number;
  /** First backoff delay in ms; doubles each retry. */
  backoffMs?: number;
  /**
   * Overall deadline of one source in ms: every try, backoff and the whole body. It counts
   * the time spent waiting for the server, not the time the reader's consumer spends on
   * the bytes (a replay judging a long corpus slowly is not a slow server).
   */
  deadlineMs?: number;
}

export const HTTP_DEFAULTS = { timeoutMs: 30_000, retries: 3, maxBytes: 2 * 1024 ** 3, backoffMs: 250, deadlineMs: 15 * 60_000 } as const;
const MAX_REDIRECTS = 3;

/** Failures worth another try: the connection was refused or broke before any body byte. A timeout already waited its full time: not retried. */
const RETRYABLE = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUTS = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function errorCode(e: unknown): string {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code ?? err?.cause?.code ?? '';
}

function reason(e: unknown): string {
  const err = e as { message?: string; code?: string };
  return err?.code ? `${err.message ?? 'failed'} (${err.code})` : String(err?.message ?? e);
}

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;

/**
 * The time a source may still spend waiting for its server. `wait` races one wait
 * (a request, a backoff, the next body chunk) against what is left; when the budget
 * runs out it calls `expire` (which must make the wait reject) and the wait fails
 * with the deadline error.
 */
class Deadline {
  private left: number;
  expired = false;
  constructor(
    private readonly ms: number,
    private readonly url: string,
  ) {
    this.left = ms;
  }

  error(): SourceError {
    return new SourceError('record.http', `${this.url} did not finish within the deadline of ${seconds(this.ms)} (--deadline-ms)`);
  }

  async wait<T>(p: Promise<T>, expire: (e: SourceError) => void): Promise<T> {
    if (this.left <= 0) {
      this.expired = true;
      expire(this.error());
      throw this.error();
    }
    const start = performance.now();
    const timer = setTimeout(() => {
      this.expired = true;
      expire(this.error());
    }, this.left);
    try {
      return await p;
    } catch (e) {
      throw this.expired ? this.error() : e;
    } finally {
      clearTimeout(timer);
      this.left -= performance.now() - start;
    }
  }
}

/**
 * The body of an http(s) URL as bytes, through undici: bounded retries with doubling
 * backoff on 5xx and refused or reset connections, a few redirects, a size cap, an
 * overall deadline, Content-Encoding taken off (gzip, deflate, br; a gzip file inside
 * is gunzipped later, by its magic bytes), and a clear error on 4xx. Once body bytes
 * have been handed on, a failure is not retried (the records before it were already
 * read); it ends the stream with an error.
 */
export async function* httpBytes(url: string, options: HttpOptions = {}, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const timeoutMs = options.timeoutMs ?? HTTP_DEFAULTS.timeoutMs;
  const retries = options.retries ?? HTTP_DEFAULTS.retries;
  const maxBytes = options.maxBytes ?? HTTP_DEFAULTS.maxBytes;
  const backoffMs = options.backoffMs ?? HTTP_DEFAULTS.backoffMs;
  const deadline = new Deadline(options.deadlineMs ?? HTTP_DEFAULTS.deadlineMs, url);
  const { Agent, interceptors, request } = undici();
  const agent = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const dispatcher = agent.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
  const backoff = async (attempt: number): Promise<void> => {
    const stop = new AbortController();
    await deadline.wait(sleep(backoffMs * 2 ** attempt, undefined, { signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal }), () => stop.abort());
  };
  try {
    let attempt = 0;
    for (;;) {
      let response: Dispatcher.ResponseData;
      const stop = new AbortController();
      try {
        response = await deadline.wait(request(url, { dispatcher, signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal, method: 'GET' }), (e) => stop.abort(e));
      } catch (e) {
        if (signal?.aborted || e instanceof SourceError) throw e;
        const code = errorCode(e);
        if (RETRYABLE.has(code) && attempt < retries) {
          await backoff(attempt++);
          continue;
        }
        const tries = attempt ? ` after ${attempt + 1} tries` : '';
        if (TIMEOUTS.has(code)) throw new SourceError('record.http', `could not fetch ${url}: no answer within ${seconds(timeoutMs)} (--timeout-ms)${tries}`);
        throw new SourceError('record.http', `could not fetch ${url}: ${reason(e)}${tries}`);
      }
      const status = response.statusCode;
      if (status >= 500 && attempt < retries) {
        await response.body.dump().catch(() => undefined);
        await backoff(attempt++);
        continue;
      }
      if (status >= 300) {
        await response.body.dump().catch(() => undefined);
        const what = status >= 500 ? `server error ${status}${attempt ? ` after ${attempt + 1} tries` : ''}` : status >= 400 ? `HTTP ${status}` : `redirect ${status} (more than ${MAX_REDIRECTS} redirects?)`;
        throw new SourceError('record.http', `${url} answered ${what}`);
      }
      const declared = Number(response.headers['content-length'] ?? NaN);
      if (declared > maxBytes) {
        await response.body.dump({ limit: 0 }).catch(() => undefined);
        throw new SourceError('record.http', `${url} is ${declared} bytes, more than the limit of ${maxBytes}`);
      }
      const encodings = contentEncodings(response.headers['content-encoding']);
      const unknown = encodings.find((e) => !(e in DECODERS));
      if (unknown !== undefined) {
        await response.body.dump({ limit: 0 }).catch(() => undefined);
        throw new SourceError('record.http', `${url} is sent with content-encoding "${unknown}", which is not supported (gzip, deflate, br)`);
      }
      const body = response.body;
      let received = 0;
      async function* sent(): AsyncGenerator<Uint8Array> {
        const it = body[Symbol.asyncIterator]();
        try {
          for (;;) {
            const next = await deadline.wait(it.next(), (e) => body.destroy(e));
            if (next.done) return;
            received += next.value.length;
            if (received > maxBytes) throw new SourceError('record.http', `${url} sent more than the limit of ${maxBytes} bytes`);
            yield next.value as Uint8Array;
          }
        } finally {
          body.destroy();
        }
      }
      try {
        yield* encodings.length ? decoded(sent(), encodings) : sent();
      } catch (e) {
        if (e instanceof SourceError || signal?.aborted) throw e;
        const code = errorCode(e);
        if (code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code.startsWith('ERR__')) {
          throw new SourceError('record.http', `the body of ${url} is not valid content-encoding ${encodings.join(', ')} (${reason(e)}); the records after the fault are lost`);
        }
        throw new SourceError('record.http', `the body of ${url} broke off after ${received} bytes: ${reason(e)}`);
      }
      return;
    }
  } finally {
    await agent.close().catch(() => undefined);
  }
}

/** `Content-Encoding: gzip, br` → ['gzip', 'br'] (in the order applied), identity dropped. */
function contentEncodings(header: string | string[] | undefined): string[] {
  const all = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
  return all.map((e) => e.trim().toLowerCase()).filter((e) => e !== '' && e !== 'identity');
}

/** Deflate is meant to be zlib-wrapped, but some servers send raw deflate: the first two bytes tell. */
const isZlibHeader = (b: Uint8Array): boolean => b.length >= 2 && (b[0] & 0x0f) === 8 && ((b[0] << 8) | b[1]) % 31 === 0;

// node:zlib (and node:stream below) are loaded by the first encoded response, not by every run that loads the readers.
const zlib = (): typeof import('node:zlib') => process.getBuiltinModule('node:zlib');
const DECODERS: Record<string, (head: Uint8Array) => NodeJS.ReadWriteStream> = {
  gzip: () => zlib().createGunzip(),
  'x-gzip': () => zlib().createGunzip(),
  deflate: (head) => (isZlibHeader(head) ? zlib().createInflate() : zlib().createInflateRaw()),
  br: () => zlib().createBrotliDecompress(),
};

/** Takes the content encodings off, last applied first. */
async function* decoded(source: AsyncGenerator<Uint8Array>, encodings: string[]): AsyncGenerator<Uint8Array> {
  let stream: AsyncIterable<Uint8Array> = source;
  for (const encoding of [...encodings].reverse()) stream = decodeOne(stream, DECODERS[encoding]);
  try {
    yield* stream;
  } finally {
    await source.return(undefined);
  }
}

async function* decodeOne(source: AsyncIterable<Uint8Array>, make: (head: Uint8Array) => NodeJS.ReadWriteStream): AsyncGenerator<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  const input = process.getBuiltinModule('node:stream').Readable.from(
    (async function* () {
      yield first.value;
      yield* { [Symbol.asyncIterator]: () => it };
    })(),
    { objectMode: false },
  );
  const z = make(first.value);
  input.on('error', (e) => (z as unknown as Readable).destroy(e));
  input.pipe(z);
  try {
    for await (const chunk of z as unknown as AsyncIterable<Uint8Array>) yield chunk;
  } finally {
    input.destroy();
  }
}
