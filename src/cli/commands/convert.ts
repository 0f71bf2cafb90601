import { statSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { openOutputFile, type OutputFile } from '../../output/file-output.js';
import { throughGzip } from '../../output/gzip-output.js';
import { checkNotAnInput } from '../../output/output-path.js';
import { expandSources } from '../../records/input/expand.js';
import { FORMAT_NAMES, type FormatName, type GameRecord, type ReadItem, ReadSetupError, readRecords, writeRecords } from '../../records/index.js';
import { isSourceFailure } from '../../records/source-failure.js';
import { UnreadableRepeats, foldedMessage } from '../../run/unreadable-repeats.js';
import { type SourceArgs, resolveSourceOptions, sourceOptions } from '../source-options.js';
import { lostInFormat } from '../../records/carried.js';
import { UsageError } from '../usage-error.js';

interface Args extends SourceArgs {
  to: FormatName;
  out?: string;
  errors?: string;
  concurrency: number;
}

type Unreadable = Extract<ReadItem, { kind: 'unreadable' }>;

/** True for a source that names a folder (whose files are found only by walking it). */
const isFolder = (source: string): boolean => {
  try {
    return statSync(source).isDirectory();
  } catch {
    return false;
  }
};

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
    sourceOptions(y)
      .option('to', { choices: FORMAT_NAMES, default: 'ndjson' as const, describe: 'Output format' })
      .option('out', { type: 'string', describe: 'Write here instead of stdout (gzip when it ends in .gz)' })
      .option('errors', { type: 'string', describe: 'Write unreadable records here as NDJSON instead of one line each on stderr' })
      .option('concurrency', { type: 'number', default: 4, describe: 'Sources read at once (output keeps input order)' })
      .example('$0 convert games/ --glob "**/*.json" --history-list history.json --out games.ndjson', '')
      .example('$0 convert turns.csv.gz --to ingest-wire', '') as never,
  handler: async (argv) => {
    const { sources, read: readOptions } = resolveSourceOptions(argv);
    if (!(FORMAT_NAMES as readonly string[]).includes(argv.to)) throw new UsageError(`--to must be one of ${FORMAT_NAMES.join(', ')}`);
    if (argv.concurrency < 1 || !Number.isInteger(argv.concurrency)) throw new UsageError('--concurrency must be a whole number from 1');
    const targets: Array<[what: string, path: string]> = [];
    if (argv.out !== undefined) targets.push(['--out', argv.out]);
    if (argv.errors !== undefined) targets.push(['--errors', argv.errors]);
    for (const [what, path] of targets) checkNotAnInput(what, path, [...sources, ...[readOptions.historyList ?? []].flat()], { folder: false });
    // A file found in a source folder may be an output under another name (a symbolic link to it): refused before a byte is written.
    if (targets.length > 0 && sources.some(isFolder)) {
      const found: string[] = [];
      for await (const input of expandSources(sources, readOptions.glob)) if (input.kind === 'file') found.push(input.path);
      for (const [what, path] of targets) checkNotAnInput(what, path, found, { folder: false });
    }
    if (argv.out && argv.errors && argv.out === argv.errors) throw new UsageError('--out and --errors name the same file');
    const outputs: OutputFile[] = [];
    // A name ending in .gz is written gzip-compressed, as generate writes it (and as every reader reads it).
    const plain = argv.out !== undefined ? await openOutputFile('--out', argv.out) : null;
    const out = plain !== null && argv.out!.endsWith('.gz') ? throughGzip(plain) : plain;
    if (out) outputs.push(out);
    const errors = argv.errors !== undefined
      ? await openOutputFile('--errors', argv.errors).catch(async (e) => {
          await out?.abort();
          throw e;
        })
      : null;
    if (errors) outputs.push(errors);
    let read = 0;
    let notes = 0;
    let bad = 0;
    let sourceFailures = 0;
    let unwritten = 0;
    // Repeated identical entries are folded (first ten in full, then one with the count and line ranges), as in replay.
    const repeats = new UnreadableRepeats<Unreadable>();
    const show = (u: Unreadable & { repeats?: number }): void => {
      if (errors) errors.stream.write(`${JSON.stringify(u)}\n`);
      else process.stderr.write(`${u.location ?? u.source}: ${u.code}: ${u.message}${u.id ? ` (record ${u.id})` : ''}\n`);
    };
    const report = (u: Unreadable): void => {
      bad++;
      if (isSourceFailure(u)) sourceFailures++;
      if (repeats.admit(`${u.source}\u0000${u.code}\u0000${u.message}`, u, u.index, u.location)) show(u);
    };
    // What the target format cannot carry, kind by kind: each record written and read back (records/carried.ts).
    const lost = new Map<string, number>();
    const noteLosses = async (record: GameRecord): Promise<void> => {
      for (const k of await lostInFormat(argv.to, record)) lost.set(k, (lost.get(k) ?? 0) + 1);
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
          await noteLosses(item.record);
          yield item.record;
        } else report(item);
      }
    }
    try {
      await writeRecords(argv.to, recordsOnly(), out?.stream ?? process.stdout, (record, reason) => {
        unwritten++;
        process.stderr.write(`${record.location ?? record.id}: record.not-written: not written as ${argv.to}: ${reason} (record ${record.id})\n`);
      });
      for (const f of repeats.folded()) {
        show({ ...f.sample, index: f.firstIndex, id: null, location: f.location, message: foldedMessage(f, f.sample.code, f.sample.message), repeats: f.count });
      }
    } catch (e) {
      // An output that failed (a full disk, a closed device) is the cause, not what its writer then met.
      let failed: Error | null = null;
      for (const o of outputs) failed ??= await o.abort();
      if (e instanceof ReadSetupError) throw new UsageError(e.message);
      throw failed ?? e;
    }
    for (const o of outputs) await o.commit();
    if (lost.size > 0) {
      const what = [...lost].map(([k, n]) => `${k} (${n} record${n === 1 ? '' : 's'})`).join(', ');
      process.stderr.write(`dice-dialects: warning: ${argv.to} does not carry all the records held: ${what}; ndjson carries everything\n`);
    }
    process.stderr.write(`read ${read}, unreadable ${bad}${unwritten ? `, not written ${unwritten}` : ''}${notes ? `, ${notes} source note${notes === 1 ? '' : 's'}` : ''}\n`);
    if (read === 0 && bad === 0) process.stderr.write('dice-dialects: warning: the sources held no record: nothing was converted\n');
    process.exitCode = sourceFailures > 0 ? 2 : bad > 0 || unwritten > 0 || read === 0 ? 1 : 0;
  },
};
