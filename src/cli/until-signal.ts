import type { Server } from 'node:http';

/** Resolves once SIGINT or SIGTERM has closed the server and its connections (a command that serves until Ctrl-C). */
export function serveUntilSignal(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
