import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { CommandModule } from 'yargs';
import { FORMAT_NAMES, type FormatName, type GameRecord, type ReadItem, ReadSetupError, readRecords, writeRecords } from '../../records/index.js';
import { UnreadableRepeats, foldedMessage } from '../../replay/unreadable-repeats.js';
import { type SourceArgs, resolveSourceOptions, sourceOptions } from '../source-options.js';
import { UsageError } from '../usage-error.js';

interface Args extends SourceArgs {
  to: FormatName;
  out?: string;
  errors?: string;
  concurrency: number;
}

type Unreadable = Extract<ReadItem, { kind: 'unreadable' }>;

/**
 * `convert`: reads records from any sources and formats, writes them in one format,
 * and accounts for every record on stderr: `read N, unreadable M`, with one line per
 * unreadable record (or NDJSON in --errors). Exit 1 when any record was unreadable.
 */
export const convertCommand: CommandModule<object, Args> = {
  command: 'convert <sources..>',
  describe: 'Read game records (files, folders, globs, -, .gz, http(s) URLs) and write them as canonical NDJSON or another format',
  builder: (y) =>
    sourceOptions(y)
      .option('to', { choices: FORMAT_NAMES, default: 'ndjson' as const, describe: 'Output format' })
      .option('out', { type: 'string', describe: 'Write here instead of stdout' })
      .option('errors', { type: 'string', describe: 'Write unreadable records here as NDJSON instead of one line each on stderr' })
      .option('concurrency', { type: 'number', default: 4, describe: 'Sources read at once (output keeps input order)' })
      .example('$0 convert games/ --glob "**/*.json" --history-list history.json --out games.ndjson', '')
      .example('$0 convert turns.csv.gz --to ingest-wire', '') as never,
  handler: async (argv) => {
    const { sources, read: readOptions } = resolveSourceOptions(argv);
    if (!(FORMAT_NAMES as readonly string[]).includes(argv.to)) throw new UsageError(`--to must be one of ${FORMAT_NAMES.join(', ')}`);
    if (argv.concurrency < 1 || !Number.isInteger(argv.concurrency)) throw new UsageError('--concurrency must be a whole number from 1');
    const out = argv.out ? createWriteStream(argv.out) : process.stdout;
    const errors = argv.errors ? createWriteStream(argv.errors) : null;
    let read = 0;
    let notes = 0;
    let bad = 0;
    // Repeated identical entries are folded (first ten in full, then one with the count and line ranges), as in replay.
    const repeats = new UnreadableRepeats<Unreadable>();
    const show = (u: Unreadable & { repeats?: number }): void => {
      if (errors) errors.write(`${JSON.stringify(u)}\n`);
      else process.stderr.write(`${u.location ?? u.source}: ${u.code}: ${u.message}${u.id ? ` (record ${u.id})` : ''}\n`);
    };
    const report = (u: Unreadable): void => {
      bad++;
      if (repeats.admit(`${u.source}\u0000${u.code}\u0000${u.message}`, u, u.index, u.location)) show(u);
    };
    async function* recordsOnly(): AsyncGenerator<GameRecord> {
      for await (const item of readRecords(sources, {
        ...readOptions,
        concurrency: argv.concurrency,
        onNote: (n) => {
          notes++;
          process.stderr.write(`dice-dialects: note: ${n.message}\n`);
        },
      })) {
        if (item.kind === 'record') {
          read++;
          yield item.record;
        } else report(item);
      }
    }
    try {
      await writeRecords(argv.to, recordsOnly(), out);
      for (const f of repeats.folded()) {
        show({ ...f.sample, index: f.firstIndex, id: null, location: f.location, message: foldedMessage(f, f.sample.code, f.sample.message), repeats: f.count });
      }
    } catch (e) {
      if (e instanceof ReadSetupError) throw new UsageError(e.message);
      throw e;
    } finally {
      if (out !== process.stdout) {
        (out as NodeJS.WritableStream).end();
        await finished(out as NodeJS.WritableStream);
      }
      if (errors) {
        errors.end();
        await finished(errors);
      }
    }
    process.stderr.write(`read ${read}, unreadable ${bad}${notes ? `, ${notes} source note${notes === 1 ? '' : 's'}` : ''}\n`);
    process.exitCode = bad > 0 ? 1 : 0;
  },
};
