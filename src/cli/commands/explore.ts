import type { CommandModule } from 'yargs';
import { formatProblem, loadDialect } from '../../dialects/index.js';
import { ExplorerError, explorerPage, writeExplorer } from '../../explore/files.js';
import { servePage } from '../../explore/serve.js';
import { UsageError } from '../usage-error.js';
import { serveUntilSignal } from '../until-signal.js';

interface Args {
  out?: string;
  dialect?: string[];
  serve: boolean;
  port: number;
}

export const exploreCommand: CommandModule<object, Args> = {
  command: 'explore',
  describe: 'The rules explorer: one position and roll under every dialect, in a self-contained page (--out DIR writes DIR/index.html; --serve serves it on 127.0.0.1)',
  builder: (y) =>
    y
      .option('out', { type: 'string', describe: 'Write the page to DIR/index.html' })
      .option('serve', { type: 'boolean', default: false, describe: 'Serve the page on 127.0.0.1 and print its URL (Ctrl-C stops)' })
      .option('port', { type: 'number', default: 0, describe: 'Port for --serve (0: any free port)' })
      .option('dialect', { type: 'string', array: true, describe: 'A dialect .json file to add as a column (repeatable; the shipped dialects are always there)' })
      .example('$0 explore --out site/', '')
      .example('$0 explore --serve --port 8377', '')
      .example('$0 explore --out site/ --dialect house-rules.json', '') as never,
  handler: async (argv) => {
    if (argv.out === undefined && !argv.serve) throw new UsageError('name --out DIR (write DIR/index.html) or --serve');
    if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535) throw new UsageError('--port must be a whole number from 0 to 65535');
    const files: string[] = [];
    for (const name of argv.dialect ?? []) {
      const loaded = loadDialect(name);
      if (!loaded.ok) throw new UsageError(`dialect "${name}": ${formatProblem(loaded.error[0])}`, loaded.error[0].code);
      files.push(loaded.value.file);
    }
    try {
      const html = explorerPage(files);
      if (argv.out !== undefined) process.stdout.write(`${await writeExplorer(argv.out, html)}\n`);
      if (!argv.serve) return;
      const { server, url } = await servePage(html, argv.port);
      process.stdout.write(`${url}\n`);
      process.stderr.write(`serving the explorer at ${url} (Ctrl-C stops)\n`);
      await serveUntilSignal(server);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (e instanceof ExplorerError) throw new UsageError(e.message, e.code);
      if (err.code === 'EADDRINUSE' || err.code === 'EACCES') throw new UsageError(`cannot listen on 127.0.0.1:${argv.port}: ${err.code}`, 'explore.listen');
      if (typeof err.code === 'string' && err.syscall !== undefined) throw new UsageError(`cannot write ${argv.out}: ${err.code}`, 'explore.write');
      throw e;
    }
  },
};
