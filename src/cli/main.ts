import yargs from 'yargs';
import { COMMANDS } from './commands/index.js';
import { OutputPathError } from '../output/output-path.js';
import { STDIN_ARG, restoreArgs } from './stdin-arg.js';
import { UsageError } from './usage-error.js';

/** Runs the command line; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  process.exitCode = 0;
  let usageFailure: string | null = null;
  // yargs drops a lone "-" (stdin) from every positional list: it travels under another name.
  const parser = yargs(argv.map((a) => (a === '-' ? STDIN_ARG : a)))
    .scriptName('dice-dialects')
    .strict()
    .demandCommand(1, 'name a command (see --help)')
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .fail((msg, error) => {
      // Throwing stops yargs before any handler runs on a rejected option.
      if (error && !(error instanceof UsageError)) throw error;
      throw error ?? new UsageError(msg ?? 'bad usage');
    })
    .middleware(restoreArgs as never, true)
    .help();
  for (const command of COMMANDS) parser.command(command);
  try {
    await parser.parseAsync();
  } catch (error) {
    if (error instanceof UsageError || error instanceof OutputPathError) usageFailure = error.message;
    else throw error;
  }
  if (usageFailure !== null) {
    process.stderr.write(`dice-dialects: ${String(usageFailure).replace(/\s*\n\s*/g, " ")}\n`);
    return 2;
  }
  return Number(process.exitCode ?? 0);
}
