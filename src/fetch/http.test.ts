import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, type ClientOptions } from './http.js';
import { Redactor } from './redact.js';

/** What the loopback server saw of one request. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback server on port 0 answering request `i` with `answers[i]` (the last one repeats). */
async function serve(answers: ((res: ServerResponse) => void)[]): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      answers[Math.min(seen.length - 1, answers.length - 1)](res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const servers: Server[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); })));
});

const TOKEN = 'Bearer secret-token-0123456789';

function client(over: Partial<ClientOptions> = {}): Client {
  const c = new Client({
    timeoutMs: 10_000,
    deadlineMs: 20_000,
    retries: 2,
    maxBytes: 1024,
    backoffMs: 1,
    maxRetryAfterMs: 5_000,
    rate: 0,
    headers: { authorization: TOKEN },
    redactor: new Redactor([TOKEN]),
    userAgent: 'dice-dialects-test',
    ...over,
  });
  clients.push(c);
  return c;
}

const status = (code: number, body = '', headers: Record<string, string> = {}) => (res: ServerResponse) => {
  res.writeHead(code, { 'content-type': 'application/json', ...headers });
  res.end(body);
};

describe('fetch HTTP client against a loopback server', () => {
  it('returns a 200 body, sends the headers and the JSON body of a POST', async () => {
    const s = await serve([status(200, '{"games":[]}')]);
    const a = await client().call({ method: 'POST', url: `${s.url}/api/list`, json: { page: 2 } });
    expect(a).toMatchObject({ ok: true, status: 200, attempts: 1 });
    if (a.ok) expect(a.body.toString()).toBe('{"games":[]}');
    expect(s.seen).toHaveLength(1);
    expect(s.seen[0]).toMatchObject({ method: 'POST', url: '/api/list', body: '{"page":2}' });
    expect(s.seen[0].headers).toMatchObject({ authorization: TOKEN, 'user-agent': 'dice-dialects-test', 'content-type': 'application/json', accept: 'application/json' });
  });

  it('retries 503 and 429 and succeeds on the third try', async () => {
    const s = await serve([status(503, 'busy'), status(429, '', { 'retry-after': '0' }), status(200, 'ok')]);
    const a = await client().call({ method: 'GET', url: `${s.url}/g/1` });
    expect(a).toMatchObject({ ok: true, status: 200, attempts: 3 });
    expect(s.seen).toHaveLength(3);
  });

  it('stops after 1 + retries tries on a server that keeps failing, with the last status and reason', async () => {
    const s = await serve([status(500, '{"message":"database down"}')]);
    const a = await client({ retries: 2 }).call({ method: 'GET', url: `${s.url}/g/1` });
    expect(a).toMatchObject({ ok: false, code: 'http.status', status: 500, reason: 'database down', attempts: 3 });
    if (!a.ok) expect(a.message).toMatch(/HTTP 500 .*after 3 tries/);
    expect(s.seen).toHaveLength(3);
  });

  it('does not retry a 401, and never prints the token', async () => {
    const s = await serve([status(401, `{"error":"bad token ${TOKEN}"}`)]);
    const a = await client().call({ method: 'GET', url: `${s.url}/g/1` });
    expect(a).toMatchObject({ ok: false, code: 'http.status', status: 401, attempts: 1 });
    expect(s.seen).toHaveLength(1);
    expect(JSON.stringify(a)).not.toContain('secret-token');
    if (!a.ok) expect(a.reason).toContain('[redacted]');
  });

  it('refuses to follow a redirect (the token must not travel elsewhere)', async () => {
    const s = await serve([status(302, '', { location: 'http://127.0.0.1:1/elsewhere' })]);
    const a = await client().call({ method: 'GET', url: `${s.url}/g/1` });
    expect(a).toMatchObject({ ok: false, code: 'http.redirect', status: 302, attempts: 1 });
    if (!a.ok) expect(a.message).toMatch(/not followed/);
    expect(s.seen).toHaveLength(1);
  });

  it('refuses a body over the cap, by its declared length and by its bytes, without retrying', async () => {
    const big = 'x'.repeat(2000);
    const s = await serve([status(200, big)]);
    const declared = await client({ maxBytes: 1000 }).call({ method: 'GET', url: `${s.url}/big` });
    expect(declared).toMatchObject({ ok: false, code: 'http.too-large', status: 200, attempts: 1 });

    const chunked = await serve([(res) => { res.writeHead(200); res.write(big); res.end(big); }]);
    const streamed = await client({ maxBytes: 1000 }).call({ method: 'GET', url: `${chunked.url}/big` });
    expect(streamed).toMatchObject({ ok: false, code: 'http.too-large', attempts: 1 });
    if (!streamed.ok) expect(streamed.message).toMatch(/past the cap of 1000/);
    expect(chunked.seen).toHaveLength(1);

    const exact = await serve([status(200, 'y'.repeat(1000))]);
    expect(await client({ maxBytes: 1000 }).call({ method: 'GET', url: `${exact.url}/ok` })).toMatchObject({ ok: true });
  });

  it('ends the tries when Retry-After asks for more than the longest wait honoured', async () => {
    const s = await serve([status(429, '', { 'retry-after': '3600' })]);
    const a = await client({ maxRetryAfterMs: 1000 }).call({ method: 'GET', url: `${s.url}/g` });
    expect(a).toMatchObject({ ok: false, code: 'http.retry-after', status: 429, attempts: 1 });
    expect(s.seen).toHaveLength(1);
  });

  it('retries a connection reset, then reports a network failure', async () => {
    const s = await serve([(res) => res.socket?.destroy()]);
    const a = await client({ retries: 1 }).call({ method: 'GET', url: `${s.url}/g` });
    expect(a).toMatchObject({ ok: false, code: 'http.network', status: null, attempts: 2 });
    expect(s.seen).toHaveLength(2);
  });

  it('times out an attempt past its deadline and retries it', async () => {
    const s = await serve([() => undefined, status(200, 'late but fine')]);
    const a = await client({ deadlineMs: 300, retries: 1 }).call({ method: 'GET', url: `${s.url}/slow` });
    expect(a).toMatchObject({ ok: true, attempts: 2 });
  });

  it('answers an aborted call with http.aborted', async () => {
    const s = await serve([status(503)]);
    const stop = new AbortController();
    const c = client({ retries: 5, backoffMs: 60_000 });
    const pending = c.call({ method: 'GET', url: `${s.url}/g` }, stop.signal);
    while (s.seen.length === 0) await new Promise((r) => setImmediate(r));
    stop.abort();
    expect(await pending).toMatchObject({ ok: false, code: 'http.aborted' });
  });
});
