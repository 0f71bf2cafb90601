import type { CommandModule } from 'yargs';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Command = CommandModule<any, any>;

/**
 * Every sub-command by name, each loaded only when asked for (a replay does not load the
 * generator, the case runner and the rest): a registry, not file names, so that it holds in
 * the compiled files and in the CLI bundle alike. Each module sets `process.exitCode` itself
 * (0 ok, 1 found a problem, 2 usage error) and throws UsageError for one-line usage errors.
 * Add one line per command; the order is the order of the help text.
 */
export const COMMAND_MODULES: Record<string, () => Promise<Command>> = {
  replay: async () => (await import('./replay.js')).replayCommand,
  merge: async () => (await import('./merge.js')).mergeCommand,
  diff: async () => (await import('./diff.js')).diffCommand,
  moves: async () => (await import('./moves.js')).movesCommand,
  turns: async () => (await import('./turns.js')).turnsCommand,
  check: async () => (await import('./check.js')).checkCommand,
  cases: async () => (await import('./cases.js')).casesCommand,
  dialects: async () => (await import('./dialects.js')).dialectsCommand,
  perft: async () => (await import('./perft.js')).perftCommand,
  convert: async () => (await import('./convert.js')).convertCommand,
  schema: async () => (await import('./schema.js')).schemaCommand,
  generate: async () => (await import('./generate.js')).generateCommand,
  score: async () => (await import('./score.js')).scoreCommand,
  infer: async () => (await import('./infer.js')).inferCommand,
  explore: async () => (await import('./explore.js')).exploreCommand,
  fetch: async () => (await import('./fetch.js')).fetchCommand,
  history: async () => (await import('./history.js')).historyCommand,
  serve: async () => (await import('./serve.js')).serveCommand,
};

/** Every sub-command, in the order of the help text. */
export const allCommands = (): Promise<Command[]> => Promise.all(Object.values(COMMAND_MODULES).map((load) => load()));
