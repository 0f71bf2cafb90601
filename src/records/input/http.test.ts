import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRecordText } from '../write.js';
import { collect, records, unreadables } from '../test-support/collect.js';
import { randomGame } from '../test-support/random-game.js';

/** A loopback server (127.0.0.1 only) with the failure modes the reader must survive. */
const body = Array.from({ length: 30 }, (_, i) => makeRecordText('ndjson', randomGame(1000 + i, { turns: 4 }))).join('');
const ids = Array.from({ length: 30 }, (_, i) => `game-${1000 + i}`);
let server: Server;
let base = '';
const hits = new Map<string, number>();
const open = new Set<import('node:net').Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '/';
    hits.set(url, (hits.get(url) ?? 0) + 1);
    switch (url) {
      case '/games.ndjson.gz':
        res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(gzipSync(body));
        return;
      case '/flaky.ndjson':
        if (hits.get(url) === 1) res.writeHead(500).end('busy');
        else res.writeHead(200).end(body);
        return;
      case '/down.ndjson':
        res.writeHead(503).end('down');
        return;
      case '/missing.ndjson':
        res.writeHead(404).end('no');
        return;
      case '/redirect':
        res.writeHead(302, { location: '/games.ndjson.gz' }).end();
        return;
      case '/loop':
        res.writeHead(302, { location: '/loop' }).end();
        return;
      case '/truncated.ndjson': {
        const half = Buffer.from(body).subarray(0, Math.floor(body.length / 2));
        res.writeHead(200, { 'content-length': String(body.length) });
        res.write(half, () => res.socket?.destroy());
        return;
      }
      case '/stall.ndjson': {
        res.writeHead(200, { 'content-length': String(body.length) });
        res.write(Buffer.from(body).subarray(0, 2000)); // then nothing: the body timeout must fire
        return;
      }
      case '/trickle.ndjson': {
        // One byte every 100 ms, for ever: no silence is long enough for the timeout, only the deadline ends it.
        res.writeHead(200);
        let at = 0;
        const timer = setInterval(() => {
          if (res.destroyed) clearInterval(timer);
          else res.write(body[at++ % body.length]);
        }, 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case '/no-headers.ndjson':
        return; // accepts the request and never answers
      case '/deflate.ndjson':
        res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync(body));
        return;
      case '/raw-deflate.ndjson':
        res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateRawSync(body));
        return;
      case '/double.ndjson.gz':
        // A .gz file served with gzip content-encoding on top: two layers to take off.
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/gzip' }).end(gzipSync(gzipSync(body)));
        return;
      case '/bad-encoding.ndjson':
        res.writeHead(200, { 'content-encoding': 'gzip' }).end(body);
        return;
      case '/empty.ndjson':
        res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(''));
        return;
      case '/zstd.ndjson':
        res.writeHead(200, { 'content-encoding': 'zstd' }).end(body);
        return;
      default:
        res.writeHead(200).end(body);
    }
  });
  server.on('connection', (s) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of open) s.destroy();
  await new Promise((r) => server.close(r));
});

// Healthy loopback answers take milliseconds: 30 s is far beyond any load. Tests of a timeout
// set their own, and assert the error, not how long it took.
const http = { timeoutMs: 30_000, retries: 2, backoffMs: 10 };

describe('http(s) sources through undici', () => {
  it('reads gzip NDJSON and follows a redirect', async () => {
    expect(records(await collect([`${base}/games.ndjson.gz`], { http })).map((r) => r.id)).toEqual(ids);
    expect(records(await collect([`${base}/redirect`], { http })).map((r) => r.id)).toEqual(ids);
    const first = records(await collect([`${base}/games.ndjson.gz`], { http }))[0];
    expect(first.location).toBe(`${base}/games.ndjson.gz:1`);
  });

  it('retries a 500 and then reads', async () => {
    const items = await collect([`${base}/flaky.ndjson`], { http });
    expect(records(items).map((r) => r.id)).toEqual(ids);
    expect(hits.get('/flaky.ndjson')).toBe(2);
  });

  it('gives up on a 5xx after the retries, and says 4xx plainly', async () => {
    const items = await collect([`${base}/down.ndjson`, `${base}/missing.ndjson`, `${base}/loop`], { http });
    expect(items.map((i) => (i.kind === 'unreadable' ? i.code : 'record'))).toEqual(['record.http', 'record.http', 'record.http']);
    const [down, missing, loop] = unreadables(items);
    expect(hits.get('/down.ndjson')).toBe(3);
    expect(down.message).toMatch(/server error 503 after 3 tries/);
    expect(missing.message).toMatch(/answered HTTP 404/);
    expect(loop.message).toMatch(/redirect/i);
  });

  it('a body cut short keeps the records before the cut and adds one entry', async () => {
    const items = await collect([`${base}/truncated.ndjson`], { http });
    const read = records(items);
    expect(read.length).toBeGreaterThan(5);
    expect(read.length).toBeLessThan(30);
    expect(read.map((r) => r.id)).toEqual(ids.slice(0, read.length));
    expect(unreadables(items).map((u) => u.code)).toEqual(['record.http']);
  });

  it('a stalled body times out', async () => {
    const items = await collect([`${base}/stall.ndjson`], { http: { ...http, timeoutMs: 3_000 } });
    const bad = unreadables(items);
    expect(bad).toHaveLength(1);
    expect(bad[0].code).toBe('record.http');
    expect(bad[0].message).toMatch(/broke off|timeout/i);
  });

  it('refuses a body over the size limit', async () => {
    const items = await collect([`${base}/plain.ndjson`], { http: { ...http, maxBytes: 1000 } });
    expect(unreadables(items).map((u) => u.code)).toEqual(['record.http']);
    expect(unreadables(items)[0].message).toMatch(/limit of 1000/);
  });

  it('a body that trickles for ever ends at the source deadline, with the records read before it', async () => {
    const items = await collect([`${base}/trickle.ndjson`], { http: { ...http, deadlineMs: 1_500 } });
    const bad = unreadables(items);
    expect(bad.map((u) => u.code)).toEqual(['record.http']);
    expect(bad[0].message).toMatch(/deadline of 1\.5 s/);
  });

  it('a server that never answers is asked once (a timeout is not retried) and ends with the documented error', async () => {
    const items = await collect([`${base}/no-headers.ndjson`], { http: { ...http, timeoutMs: 3_000, retries: 3 } });
    expect(unreadables(items).map((u) => u.code)).toEqual(['record.http']);
    expect(unreadables(items)[0].message).toMatch(/no answer within 3 s/);
    expect(hits.get('/no-headers.ndjson')).toBe(1);
  });

  it('the deadline also bounds the retries of a failing server', async () => {
    const items = await collect([`${base}/down.ndjson`], { http: { timeoutMs: 30_000, retries: 1000, backoffMs: 200, deadlineMs: 1_000 } });
    expect(unreadables(items).map((u) => u.code)).toEqual(['record.http']);
    expect(unreadables(items)[0].message).toMatch(/deadline of 1 s/);
  });

  it('decodes Content-Encoding deflate (zlib and raw), and gzip on top of a .gz file', async () => {
    for (const url of ['/deflate.ndjson', '/raw-deflate.ndjson', '/double.ndjson.gz']) {
      const items = await collect([`${base}${url}`], { http });
      expect(unreadables(items)).toEqual([]);
      expect(records(items).map((r) => r.id)).toEqual(ids);
    }
  });

  it('a body that does not match its Content-Encoding, or an encoding not known, is one clear entry', async () => {
    const items = await collect([`${base}/bad-encoding.ndjson`, `${base}/zstd.ndjson`], { http });
    expect(records(items)).toEqual([]);
    const [bad, zstd] = unreadables(items);
    expect(bad.code).toBe('record.http');
    expect(bad.message).toMatch(/content-encoding gzip/i);
    expect(zstd.message).toMatch(/content-encoding "zstd", which is not supported/i);
  });

  it('an empty body is noted, not silent', async () => {
    const notes: import('../items.js').SourceNote[] = [];
    const items = await collect([`${base}/empty.ndjson`], { http, onNote: (n) => notes.push(n) });
    expect(items).toEqual([]);
    expect(notes.map((n) => n.code)).toEqual(['source.empty']);
  });
});
