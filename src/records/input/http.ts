import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, interceptors, request } from 'undici';
import { SourceError } from './source-error.js';

export interface HttpOptions {
  /** Connect, headers and body-silence timeout in ms. */
  timeoutMs?: number;
  /** Retries after a 5xx answer or a connection failure before the body starts. */
  retries?: number;
  /** Largest body accepted, in bytes (compressed size as sent). */
  maxBytes?: number;
  /** First backoff delay in ms; doubles each retry. */
  backoffMs?: number;
}

export const HTTP_DEFAULTS = { timeoutMs: 30_000, retries: 3, maxBytes: 2 * 1024 ** 3, backoffMs: 250 } as const;
const MAX_REDIRECTS = 3;

/** Failures worth another try: the connection broke or timed out before any body byte arrived. */
const RETRYABLE = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_CLOSED']);

function errorCode(e: unknown): string {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code ?? err?.cause?.code ?? '';
}

function reason(e: unknown): string {
  const err = e as { message?: string; code?: string };
  return err?.code ? `${err.message ?? 'failed'} (${err.code})` : String(err?.message ?? e);
}

/**
 * The body of an http(s) URL as bytes, through undici: bounded retries with doubling
 * backoff on 5xx and connection resets, a few redirects, a size cap, and a clear
 * error on 4xx. Once body bytes have been handed on, a failure is not retried (the
 * records before it were already read); it ends the stream with an error.
 */
export async function* httpBytes(url: string, options: HttpOptions = {}, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const timeoutMs = options.timeoutMs ?? HTTP_DEFAULTS.timeoutMs;
  const retries = options.retries ?? HTTP_DEFAULTS.retries;
  const maxBytes = options.maxBytes ?? HTTP_DEFAULTS.maxBytes;
  const backoffMs = options.backoffMs ?? HTTP_DEFAULTS.backoffMs;
  const agent = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const dispatcher = agent.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
  try {
    let attempt = 0;
    for (;;) {
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(url, { dispatcher, signal, method: 'GET' });
      } catch (e) {
        if (signal?.aborted) throw e;
        if (RETRYABLE.has(errorCode(e)) && attempt < retries) {
          await sleep(backoffMs * 2 ** attempt++, undefined, { signal });
          continue;
        }
        throw new SourceError('record.http', `could not fetch ${url}: ${reason(e)}${attempt ? ` after ${attempt + 1} tries` : ''}`);
      }
      const status = response.statusCode;
      if (status >= 500 && attempt < retries) {
        await response.body.dump();
        await sleep(backoffMs * 2 ** attempt++, undefined, { signal });
        continue;
      }
      if (status >= 300) {
        await response.body.dump();
        const what = status >= 500 ? `server error ${status}${attempt ? ` after ${attempt + 1} tries` : ''}` : status >= 400 ? `HTTP ${status}` : `redirect ${status} (more than ${MAX_REDIRECTS} redirects?)`;
        throw new SourceError('record.http', `${url} answered ${what}`);
      }
      const declared = Number(response.headers['content-length'] ?? NaN);
      if (declared > maxBytes) {
        await response.body.dump({ limit: 0 }).catch(() => undefined);
        throw new SourceError('record.http', `${url} is ${declared} bytes, more than the limit of ${maxBytes}`);
      }
      let received = 0;
      try {
        for await (const chunk of response.body) {
          received += chunk.length;
          if (received > maxBytes) {
            response.body.destroy();
            throw new SourceError('record.http', `${url} sent more than the limit of ${maxBytes} bytes`);
          }
          yield chunk as Uint8Array;
        }
      } catch (e) {
        if (e instanceof SourceError || signal?.aborted) throw e;
        throw new SourceError('record.http', `the body of ${url} broke off after ${received} bytes: ${reason(e)}`);
      }
      return;
    }
  } finally {
    await agent.close().catch(() => undefined);
  }
}
