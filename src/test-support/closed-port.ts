import { createServer } from 'node:net';

/**
 * A loopback URL nothing listens on: a port the system just gave a server of ours, closed
 * again. (A fixed port such as 9 may well be open on some machine.)
 */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
