import type { CommandModule } from 'yargs';
import { openOutputFile, type OutputFile } from '../../output/file-output.js';
import { checkNotAnInput } from '../../output/output-path.js';
import { FORMAT_NAMES, type FormatName, type GameRecord, type ReadItem, ReadSetupError, readRecords, writeRecords } from '../../records/index.js';
import { isSourceFailure } from '../../records/source-failure.js';
import { UsageError } from '../usage-error.js';

interface Args {
  sources: string[];
  format: FormatName | 'auto';
  to: FormatName;
  out?: string;
  errors?: string;
  'history-list'?: string;
  glob?: string;
  limit?: number;
  concurrency: number;
  'timeout-ms'?: number;
  retries?: number;
  'max-bytes'?: number;
}

type Unreadable = Extract<ReadItem, { kind: 'unreadable' }>;

/**
 * `convert`: reads records from any sources and formats, writes them in one format,
 * and accounts for every record on stderr: `read N, unreadable M`, with one line per
 * unreadable record (or NDJSON in --errors). Exit codes as replay's: 2 when a source
 * could not be opened at all (or a usage error), else 1 when any record was unreadable
 * or the sources held no record, else 0.
 */
export const convertCommand: CommandModule<object, Args> = {
  command: 'convert <sources..>',
  describe: 'Read game records (files, folders, globs, -, .gz, http(s) URLs) and write them as canonical NDJSON or another format',
  builder: (y) =>
    y
      // yargs drops a lone "-" from variadic positionals unless unknown options pass as arguments; those are refused in the handler.
      .parserConfiguration({ 'unknown-options-as-args': true })
      .positional('sources', { type: 'string', array: true, demandOption: true, describe: 'Files, folders, glob patterns, - for stdin, or http(s) URLs' })
      .option('format', { choices: ['auto', ...FORMAT_NAMES] as const, default: 'auto' as const, describe: 'Input format (auto: told from each source\'s first bytes)' })
      .option('to', { choices: FORMAT_NAMES, default: 'ndjson' as const, describe: 'Output format' })
      .option('out', { type: 'string', describe: 'Write here instead of stdout' })
      .option('errors', { type: 'string', describe: 'Write unreadable records here as NDJSON instead of one line each on stderr' })
      .option('history-list', { type: 'string', describe: 'dicechess.com history-list JSON (game metadata: players, result, clocks)' })
      .option('glob', { type: 'string', describe: 'Only files below folder sources whose path matches this glob (e.g. "**/*.json")' })
      .option('limit', { type: 'number', describe: 'Stop after this many records (read or unreadable)' })
      .option('concurrency', { type: 'number', default: 4, describe: 'Sources read at once (output keeps input order)' })
      .option('timeout-ms', { type: 'number', describe: 'HTTP connect/headers/body-silence timeout' })
      .option('retries', { type: 'number', describe: 'HTTP retries on 5xx and connection resets' })
      .option('max-bytes', { type: 'number', describe: 'Largest HTTP body accepted' })
      .example('$0 convert games/ --glob "**/*.json" --history-list history.json --out games.ndjson', '')
      .example('$0 convert turns.csv.gz --to ingest-wire', '') as never,
  handler: async (argv) => {
    const unknown = argv.sources.find((s) => s.startsWith('-') && s !== '-');
    if (unknown) throw new UsageError(`unknown option ${unknown}`);
    if (!(FORMAT_NAMES as readonly string[]).includes(argv.to)) throw new UsageError(`--to must be one of ${FORMAT_NAMES.join(', ')}`);
    if (argv.concurrency < 1 || !Number.isInteger(argv.concurrency)) throw new UsageError('--concurrency must be a whole number from 1');
    if (argv.limit !== undefined && (argv.limit < 0 || !Number.isInteger(argv.limit))) throw new UsageError('--limit must be a whole number');
    if (argv.sources.filter((s) => s === '-').length > 1) throw new UsageError('stdin (-) can be read once');
    for (const [what, path] of [['--out', argv.out], ['--errors', argv.errors]] as const) if (path) checkNotAnInput(what, path, argv.sources, { folder: false });
    if (argv.out && argv.errors && argv.out === argv.errors) throw new UsageError('--out and --errors name the same file');
    const outputs: OutputFile[] = [];
    const out = argv.out ? await openOutputFile('--out', argv.out) : null;
    if (out) outputs.push(out);
    const errors = argv.errors ? await openOutputFile('--errors', argv.errors).catch(async (e) => {
      await out?.abort();
      throw e;
    }) : null;
    if (errors) outputs.push(errors);
    let read = 0;
    let sourceFailures = 0;
    const bad: Unreadable[] = [];
    const report = (u: Unreadable): void => {
      bad.push(u);
      if (isSourceFailure(u)) sourceFailures++;
      if (errors) errors.stream.write(`${JSON.stringify(u)}\n`);
      else process.stderr.write(`${u.location ?? u.source}: ${u.code}: ${u.message}${u.id ? ` (record ${u.id})` : ''}\n`);
    };
    async function* recordsOnly(): AsyncGenerator<GameRecord> {
      for await (const item of readRecords(argv.sources, {
        format: argv.format,
        historyList: argv['history-list'],
        glob: argv.glob,
        limit: argv.limit,
        concurrency: argv.concurrency,
        http: { timeoutMs: argv['timeout-ms'], retries: argv.retries, maxBytes: argv['max-bytes'] },
      })) {
        if (item.kind === 'record') {
          read++;
          yield item.record;
        } else report(item);
      }
    }
    try {
      await writeRecords(argv.to, recordsOnly(), out?.stream ?? process.stdout);
    } catch (e) {
      for (const o of outputs) await o.abort();
      if (e instanceof ReadSetupError) throw new UsageError(e.message);
      throw e;
    }
    for (const o of outputs) await o.commit();
    process.stderr.write(`read ${read}, unreadable ${bad.length}\n`);
    if (read === 0 && bad.length === 0) process.stderr.write('dice-dialects: warning: the sources held no record: nothing was converted\n');
    process.exitCode = sourceFailures > 0 ? 2 : bad.length > 0 || read === 0 ? 1 : 0;
  },
};
