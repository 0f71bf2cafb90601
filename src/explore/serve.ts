import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Serves one page at `/` (and `/index.html`) on 127.0.0.1 only; everything else is 404. */
export async function servePage(html: string, port = 0): Promise<{ server: Server; url: string }> {
  const body = Buffer.from(html);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split(/[?#]/)[0];
    if ((req.method === 'GET' || req.method === 'HEAD') && (path === '/' || path === '/index.html')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('not found\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${bound}/` };
}
