import type { CommandModule } from 'yargs';
import { OutputPathError } from '../output/output-path.js';
import { toolVersion } from '../run/run-info.js';
import { WorkerFailure } from '../run/worker-failure.js';
import { allCommands, COMMAND_MODULES } from './commands/index.js';
import { dropEarlyWorkers, startWorkersEarly } from './early-workers.js';
import { STDIN_ARG, restoreArgs } from './stdin-arg.js';
import { UsageError } from './usage-error.js';

/**
 * The commands the arguments need: a command named first is loaded alone, so that a replay
 * does not load the generator, the case runner and the rest; anything else (help, an
 * unknown word) loads every command.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function commandsFor(argv: string[]): Promise<CommandModule<any, any>[]> {
  const name = argv[0] ?? '';
  if (Object.hasOwn(COMMAND_MODULES, name)) return [await COMMAND_MODULES[name]()];
  return allCommands();
}

/** Runs the command line; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  // Worker threads first (a replay's), then yargs and the command, which load meanwhile.
  await startWorkersEarly(argv);
  try {
    return await runCommand(argv);
  } finally {
    await dropEarlyWorkers();
  }
}

async function runCommand(argv: string[]): Promise<number> {
  process.exitCode = 0;
  const { default: yargs } = await import('yargs');
  let usageFailure: string | null = null;
  // yargs drops a lone "-" (stdin) from every positional list: it travels under another name.
  const parser = yargs(argv.map((a) => (a === '-' ? STDIN_ARG : a)))
    .scriptName('dice-dialects')
    // Said here, not found by yargs: bundled, yargs looks for package.json and its locales from
    // the working folder. The tool speaks English whatever the locale, yargs' words too.
    .version(toolVersion())
    .locale('en')
    .strict()
    .demandCommand(1, 'name a command (see --help)')
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .fail((msg, error) => {
      // Throwing stops yargs before any handler runs on a rejected option.
      if (error && !(error instanceof UsageError)) throw error;
      throw error ?? new UsageError(usageWords(msg ?? 'bad usage', argv));
    })
    .middleware(restoreArgs as never, true)
    .help();
  for (const command of await commandsFor(argv)) parser.command(command);
  // Before a command's handler runs, yargs lays out the whole help text (cliui, string-width:
  // 100–150 ms of this thread) in case the handler shows it; none here does (a failure is one
  // line, --help takes its own path), so it is laid out only when asked for.
  const usage = (parser as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }).getInternalMethods?.().getUsageInstance?.();
  if (usage?.cacheHelpMessage) usage.cacheHelpMessage = () => {};
  try {
    await parser.parseAsync();
  } catch (error) {
    if (error instanceof UsageError || error instanceof OutputPathError || error instanceof WorkerFailure) usageFailure = error.message;
    else throw error;
  }
  if (usageFailure !== null) {
    process.stderr.write(`dice-dialects: ${String(usageFailure).replace(/\s*\n\s*/g, " ")}\n`);
    return 2;
  }
  return Number(process.exitCode ?? 0);
}

/**
 * yargs' words, where they fall short: its suggestion for a mistyped command names neither
 * the command nor that it is unknown, and an unknown `--two-words` option is listed twice
 * (its camelCase twin).
 */
function usageWords(msg: string, argv: string[]): string {
  if (/^Did you mean /.test(msg)) return `unknown command "${argv.find((a) => !a.startsWith('-')) ?? ''}". ${msg}`;
  const unknown = /^Unknown arguments?: (.*)$/.exec(msg);
  if (unknown === null) return msg;
  const names = unknown[1].split(', ');
  const camel = (n: string): string => n.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  const kept = names.filter((n) => !names.some((m) => m !== n && camel(m) === n));
  return `Unknown argument${kept.length === 1 ? '' : 's'}: ${kept.join(', ')}`;
}
