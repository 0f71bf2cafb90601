import type { CommandModule } from 'yargs';
import { HistoryError, openStore, readySchema, type Store } from '../../history/index.js';
import { serveDashboard } from '../../history/dashboard/server.js';
import { UsageError } from '../usage-error.js';
import { serveUntilSignal } from '../until-signal.js';

interface Args {
  db: string;
  port: number;
  host: string;
}

/** `dice-dialects serve --db DB`: the history dashboard, read-only, on 127.0.0.1 by default. */
export const serveCommand: CommandModule<object, Args> = {
  command: 'serve',
  describe: 'the history dashboard (runs, trend charts, run, game, diff and search pages, and their JSON under /api/), read-only',
  builder: (y) =>
    y
      .option('db', { type: 'string', demandOption: true, describe: 'History database: a file or a postgres:// URL' })
      .option('port', { type: 'number', default: 0, describe: 'Port (0: any free port; the URL is printed)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on (only this machine by default)' })
      .example('$0 serve --db reports/nightly/history.db --port 8378', '') as never,
  handler: async (argv) => {
    if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535) throw new UsageError('--port must be a whole number from 0 to 65535');
    let store: Store | null = null;
    try {
      store = await openStore(argv.db, { readonly: true });
      await readySchema(store, 'read');
      const { server, url } = await serveDashboard(store, { port: argv.port, host: argv.host });
      process.stdout.write(`${url}\n`);
      process.stderr.write(`serving the history dashboard of ${store.shown} at ${url} (Ctrl-C stops)\n`);
      await serveUntilSignal(server);
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      if (error instanceof HistoryError) throw new UsageError(error.message, error.code);
      if (err.code === 'EADDRINUSE' || err.code === 'EACCES' || err.code === 'EADDRNOTAVAIL') throw new UsageError(`cannot listen on ${argv.host}:${argv.port}: ${err.code}`, 'serve.listen');
      throw error;
    } finally {
      await store?.close();
    }
  },
};
