import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Store } from '../store-types.js';
import { CSP_HEADER } from './layout.js';
import { route } from './routes.js';

/**
 * The dashboard over a history database: read-only (GET and HEAD only, the store opened
 * read-only), on 127.0.0.1 unless told otherwise. One request at a time reaches the store.
 */
export async function serveDashboard(store: Store, opts: { port?: number; host?: string } = {}): Promise<{ server: Server; url: string }> {
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer((req, res) => {
    const work = queue.then(async () => {
      try {
        const a = await route(store, req.method ?? 'GET', req.url ?? '/');
        const body = typeof a.body === 'string' ? Buffer.from(a.body) : a.body;
        res.writeHead(a.status, {
          'content-type': a.type,
          'content-length': body.length,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          // A run's own report carries its own policy; the dashboard's pages this one.
          ...(a.type.startsWith('text/html') ? { 'content-security-policy': CSP_HEADER } : {}),
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      } catch (error) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`internal error: ${(error as Error).message}\n`);
      }
    });
    queue = work.catch(() => {});
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/` };
}
