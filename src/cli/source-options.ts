import type { Argv } from 'yargs';
import { FORMAT_NAMES, type FormatName, type ReadOptions } from '../records/index.js';
import { UsageError } from './usage-error.js';
import type { SourceFailure } from '../run/pipeline.js';

/** The options of every command that reads records, as yargs hands them over. */
export interface SourceArgs {
  sources: string[];
  format: FormatName | 'auto';
  glob?: string;
  'history-list'?: string;
  limit?: unknown;
  'timeout-ms'?: unknown;
  retries?: unknown;
  'max-bytes'?: unknown;
  'deadline-ms'?: unknown;
}

/** What a reading command needs: the sources as given and how to read them. */
export interface ResolvedSources {
  sources: string[];
  read: Required<Pick<ReadOptions, 'format' | 'http'>> & Pick<ReadOptions, 'glob' | 'historyList' | 'limit'>;
}

/**
 * Adds `<sources..>` and the source options (`--format`, `--glob`, `--history-list`,
 * `--limit`, the HTTP limits) to a command. Sources may stand anywhere: an array option
 * takes one value per flag (`--dialect a --dialect b`), so words after it are sources.
 */
export function sourceOptions<T>(y: Argv<T>): Argv<T & SourceArgs> {
  return (
    y
      .parserConfiguration({ 'greedy-arrays': false })
      .positional('sources', { type: 'string', array: true, demandOption: true, default: undefined, describe: 'Files, folders, glob patterns, - for stdin, or http(s) URLs' })
      .option('format', { choices: ['auto', ...FORMAT_NAMES] as const, default: 'auto' as const, describe: "Input format (auto: told from each source's first bytes)" })
      .option('glob', { type: 'string', describe: 'Only files below folder sources whose path matches this glob (e.g. "**/*.json")' })
      .option('history-list', { type: 'string', describe: 'dicechess.com history-list JSON, file or URL (game metadata: players, result, clocks)' })
      // Numbers are taken as text and checked here: yargs turns "abc" into NaN and keeps 1.5.
      .option('limit', { type: 'string', describe: 'Stop after this many records (read or unreadable)' })
      .option('timeout-ms', { type: 'string', describe: 'HTTP: longest wait for a connection, the headers or the next body bytes (default 30000)' })
      .option('retries', { type: 'string', describe: 'HTTP: retries on 5xx and refused or reset connections (default 3; timeouts are not retried)' })
      .option('max-bytes', { type: 'string', describe: 'HTTP: largest body accepted, as sent (default 2 GiB)' })
      .option('deadline-ms', { type: 'string', describe: 'HTTP: overall deadline of one source, every try and the whole body (default 900000)' }) as unknown as Argv<
      T & SourceArgs
    >
  );
}

/** A whole-number option, or undefined when absent; anything else is a usage error naming the option. */
export function wholeNumberOption(name: string, value: unknown, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw new UsageError(`--${name} is given more than once`);
  const text = String(value).trim();
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number from ${min}`);
  return n;
}

function oneText(name: string, value: unknown): string | undefined {
  if (Array.isArray(value)) throw new UsageError(`--${name} is given more than once`);
  if (value !== undefined && String(value) === '') throw new UsageError(`--${name} needs a value`);
  return value === undefined ? undefined : String(value);
}

/** Checks the source options once for every reading command: one line and exit 2 for anything wrong. */
export function resolveSourceOptions(argv: SourceArgs): ResolvedSources {
  const sources = argv.sources.map(String);
  if (sources.filter((s) => s === '-').length > 1) throw new UsageError('stdin (-) can be read once');
  if (argv['history-list'] === '-' && sources.includes('-')) throw new UsageError('stdin (-) can be read once: it cannot be both a source and the --history-list');
  return {
    sources,
    read: {
      format: argv.format,
      glob: oneText('glob', argv.glob),
      historyList: oneText('history-list', argv['history-list']),
      limit: wholeNumberOption('limit', argv.limit, 1),
      http: {
        timeoutMs: wholeNumberOption('timeout-ms', argv['timeout-ms'], 1),
        retries: wholeNumberOption('retries', argv.retries, 0),
        maxBytes: wholeNumberOption('max-bytes', argv['max-bytes'], 1),
        deadlineMs: wholeNumberOption('deadline-ms', argv['deadline-ms'], 1),
      },
    },
  };
}

/** The line a reading command prints for a source it could not read at all (the run goes on, and exits 2). */
export const sourceFailureLine = (f: SourceFailure): string => `dice-dialects: error: ${f.location ?? f.source ?? 'a source'}: ${f.code}: ${f.message}`;
