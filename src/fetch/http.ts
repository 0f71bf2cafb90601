import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent, Dispatcher } from 'undici';
import { undici } from '../records/input/undici.js';
import { Pace, backoffMs, retryAfterMs } from './pace.js';
import type { Redactor } from './redact.js';

export interface ClientOptions {
  /** Connect, headers and body-silence timeout, ms. */
  timeoutMs: number;
  /** One attempt's whole time, ms (a body that trickles forever never goes silent). */
  deadlineMs: number;
  /** Tries after the first, on 5xx, 429, resets, timeouts and broken bodies. */
  retries: number;
  /** Largest body accepted, bytes. */
  maxBytes: number;
  /** First backoff delay, ms (doubles per retry, with jitter). */
  backoffMs: number;
  /** Longest wait honoured from a Retry-After header, ms; a longer one ends the tries. */
  maxRetryAfterMs: number;
  /** Request starts per second, 0 = unlimited. */
  rate: number;
  /** Sent with every request (Authorization lives here, nowhere else). */
  headers: Record<string, string>;
  redactor: Redactor;
  userAgent: string;
}

export const CLIENT_DEFAULTS = {
  timeoutMs: 30_000,
  retries: 4,
  maxBytes: 64 * 1024 * 1024,
  backoffMs: 500,
  maxRetryAfterMs: 300_000,
} as const;

export interface Call {
  method: 'GET' | 'POST';
  url: string;
  json?: unknown;
}

export type Answer =
  | { ok: true; status: number; body: Buffer; attempts: number; contentType?: string | null }
  /** `status` is the last HTTP status seen (null when none arrived); `reason` a short text from the server's body. */
  | { ok: false; code: FailureCode; status: number | null; reason: string; message: string; attempts: number };

export type FailureCode = 'http.status' | 'http.network' | 'http.timeout' | 'http.too-large' | 'http.redirect' | 'http.retry-after' | 'http.aborted';

const NETWORK = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);
const TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ABORT_ERR', 'TimeoutError']);

const codeOf = (e: unknown): string => {
  const err = e as { code?: string; name?: string; cause?: { code?: string } };
  return err?.code ?? err?.cause?.code ?? err?.name ?? '';
};

/** A short, printable piece of an error body (servers explain 4xx there). */
function reasonText(body: Buffer): string {
  const text = body.toString('utf8').replace(/\s+/g, ' ').trim();
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    for (const k of ['message', 'error', 'reason', 'detail']) if (typeof v?.[k] === 'string') return (v[k] as string).slice(0, 200);
  } catch {
    /* not JSON: the text itself */
  }
  return text.slice(0, 200);
}

/** Stops a body without reading it (destroying emits an error nobody else listens to). */
function cancel(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

class Attempt {
  constructor(
    readonly code: FailureCode,
    readonly status: number | null,
    readonly detail: string,
    readonly retryable: boolean,
    readonly reason = '',
    readonly waitMs: number | null = null,
  ) {}
}

/**
 * HTTP for `fetch`, through undici: connect, headers and body-silence timeouts plus
 * a deadline per attempt, bounded retries with exponential backoff and jitter on 5xx,
 * 429 and 408 (Retry-After honoured, for every request), resets, timeouts and broken bodies,
 * a body size cap, no redirects (a redirect could carry the token elsewhere). Every
 * body is read to the end or destroyed. Failures are values; messages are redacted.
 */
export class Client {
  readonly pace: Pace;
  private readonly agent: Agent;
  requests = 0;
  /** Open once the first call has its answer: until then it is the only call (a 401 stops a run before anything else is asked). */
  private gate: Promise<void> | null = null;

  constructor(readonly opts: ClientOptions) {
    this.pace = new Pace(opts.rate);
    this.agent = new (undici().Agent)({ connect: { timeout: opts.timeoutMs }, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs });
  }

  async call(call: Call, signal?: AbortSignal): Promise<Answer> {
    if (this.gate === null) {
      let open!: () => void;
      this.gate = new Promise((r) => (open = r));
      try {
        return await this.tries(call, signal);
      } finally {
        open();
      }
    }
    await this.gate;
    if (signal?.aborted) return { ok: false, code: 'http.aborted', status: null, reason: '', message: `${call.method} ${this.opts.redactor.text(call.url)}: stopped`, attempts: 0 };
    return this.tries(call, signal);
  }

  private async tries(call: Call, signal?: AbortSignal): Promise<Answer> {
    const { redactor } = this.opts;
    let last: Attempt | null = null as Attempt | null;
    let tried = 0;
    for (let attempt = 0; ; attempt++) {
      tried = attempt + 1;
      try {
        await this.pace.turn(signal);
      } catch {
        last = new Attempt('http.aborted', last?.status ?? null, 'stopped', false);
        break;
      }
      this.requests++;
      const r = await this.once(call, signal);
      if (!(r instanceof Attempt)) return { ok: true, status: r.status, body: r.body, attempts: attempt + 1, contentType: r.contentType };
      last = r;
      if (signal?.aborted) {
        last = new Attempt('http.aborted', r.status, 'stopped', false);
        break;
      }
      if (!r.retryable || attempt >= this.opts.retries) break;
      let wait = backoffMs(attempt, this.opts.backoffMs, 60_000);
      if (r.waitMs !== null) {
        if (r.waitMs > this.opts.maxRetryAfterMs) {
          last = new Attempt('http.retry-after', r.status, `${r.detail}; the server asks to wait ${Math.round(r.waitMs / 1000)} s, more than ${Math.round(this.opts.maxRetryAfterMs / 1000)} s`, false, r.reason);
          break;
        }
        // Retry-After binds every request of the run, not only this one.
        this.pace.pause(r.waitMs);
        wait = r.waitMs;
      }
      await sleep(wait, undefined, { signal }).catch(() => undefined);
      if (signal?.aborted) {
        last = new Attempt('http.aborted', r.status, 'stopped', false);
        break;
      }
    }
    if (last === null) throw new Error('unreachable: no attempt made');
    const tries = tried > 1 ? ` after ${tried} tries` : '';
    return {
      ok: false,
      code: last.code,
      status: last.status,
      reason: redactor.text(last.reason),
      message: redactor.text(`${call.method} ${call.url}: ${last.detail}${tries}`),
      attempts: tried,
    };
  }

  private async once(call: Call, outer?: AbortSignal): Promise<{ status: number; body: Buffer; contentType: string | null } | Attempt> {
    const deadline = AbortSignal.timeout(this.opts.deadlineMs);
    const signal = outer ? AbortSignal.any([outer, deadline]) : deadline;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.opts.userAgent, ...this.opts.headers };
    let body: string | undefined;
    if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      headers['content-type'] = 'application/json';
    }
    let res: Dispatcher.ResponseData;
    try {
      res = await undici().request(call.url, { method: call.method, headers, body, dispatcher: this.agent, signal });
    } catch (e) {
      return this.failure(e, deadline, 'no answer');
    }
    const status = res.statusCode;
    const cap = status >= 200 && status < 300 ? this.opts.maxBytes : 16 * 1024;
    const declared = Number(res.headers['content-length'] ?? NaN);
    if (status >= 200 && status < 300 && declared > cap) {
      cancel(res.body);
      return new Attempt('http.too-large', status, `the answer is ${declared} bytes, more than the cap of ${cap}`, false);
    }
    const chunks: Buffer[] = [];
    let received = 0;
    try {
      for await (const chunk of res.body) {
        received += chunk.length;
        if (received > cap) {
          cancel(res.body);
          if (status >= 200 && status < 300) return new Attempt('http.too-large', status, `the answer went past the cap of ${cap} bytes`, false);
          break; // an error page: its first bytes are reason enough
        }
        chunks.push(chunk as Buffer);
      }
    } catch (e) {
      cancel(res.body);
      return this.failure(e, deadline, `the body broke off after ${received} bytes`, status);
    }
    const bytes = Buffer.concat(chunks);
    if (status >= 200 && status < 300) return { status, body: bytes, contentType: typeof res.headers['content-type'] === 'string' ? res.headers['content-type'] : null };
    const reason = reasonText(bytes);
    const text = `HTTP ${status}${reason ? ` (${reason})` : ''}`;
    // Busy or failing servers: try again, after the wait they ask for when they ask for one.
    if (status === 429 || status === 408 || status >= 500) return new Attempt('http.status', status, text, true, reason, retryAfterMs(res.headers['retry-after']));
    if (status >= 300 && status < 400) return new Attempt('http.redirect', status, `${text}: redirected to ${String(res.headers.location ?? '?')}, not followed`, false, reason);
    return new Attempt('http.status', status, text, false, reason);
  }

  private failure(e: unknown, deadline: AbortSignal, what: string, status: number | null = null): Attempt {
    const code = codeOf(e);
    if (deadline.aborted) return new Attempt('http.timeout', status, `${what}: the attempt ran past its deadline of ${this.opts.deadlineMs} ms`, true);
    if (TIMEOUTS.has(code)) return new Attempt('http.timeout', status, `${what}: timed out (${code})`, code !== 'ABORT_ERR');
    const msg = (e as Error)?.message ?? String(e);
    return new Attempt('http.network', status, `${what}: ${msg}${code ? ` (${code})` : ''}`, NETWORK.has(code) || status !== null);
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}
