import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRecord } from '../write.js';
import { collect, records, unreadables } from '../test-support/collect.js';
import { randomGame } from '../test-support/random-game.js';

/** A loopback server (127.0.0.1 only) with the failure modes the reader must survive. */
const body = Array.from({ length: 30 }, (_, i) => formatRecord('ndjson', randomGame(1000 + i, { turns: 4 }))).join('');
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

const http = { timeoutMs: 500, retries: 2, backoffMs: 10 };

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
    const started = Date.now();
    const items = await collect([`${base}/stall.ndjson`], { http });
    expect(Date.now() - started).toBeLessThan(10_000);
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
});
