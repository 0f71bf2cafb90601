import type { CommandModule } from 'yargs';
import { checkNotAnInput } from '../../output/output-path.js';
import { MergeError, mergeShards } from '../../run/index.js';
import { UsageError } from '../usage-error.js';
import { pastCapText } from '../past-cap.js';
import { checkHistory, historyOption, recordInto } from '../history-option.js';

interface MergeArgs {
  shards: string[];
  out: string;
  quiet: boolean;
  history?: string;
}

/** `dice-dialects merge <shard-dirs..> --out DIR`: the N partial folders of `replay --shard K/N` → the whole run folder. */
export const mergeCommand: CommandModule<object, MergeArgs> = {
  command: 'merge <shards..>',
  describe: 'Merge the N folders of `replay --shard K/N` into the run folder an unsharded replay writes (byte for byte outside run info)',
  builder: (y) =>
    y
      .positional('shards', { type: 'string', array: true, demandOption: true, default: undefined, describe: 'The shard folders, in any order' })
      .option('out', { type: 'string', demandOption: true, describe: 'Run folder (written atomically)' })
      .option('quiet', { type: 'boolean', default: false, describe: 'No closing line on stderr' })
      .option('history', historyOption)
      .example('$0 merge runs/shard-* --out runs/nightly', '') as never,
  handler: async (argv) => {
    // The shared output rule: never inside a shard folder, never over a path that is not a run folder.
    checkNotAnInput('--out', argv.out, argv.shards, { folder: true });
    if (argv.history !== undefined) await checkHistory(argv.history);
    let result;
    try {
      result = await mergeShards(argv.shards, argv.out);
    } catch (error) {
      // A wrong set of folders is a usage problem: one line, exit 2, nothing written.
      if (error instanceof MergeError) throw new UsageError(error.message, error.code);
      throw error;
    }
    const t = result.summary.totals;
    if (!argv.quiet) {
      process.stderr.write(
        `merged ${result.n} shard${result.n === 1 ? '' : 's'}: ${result.records} records, ${t.conforming} conforming, ${t.diverging} diverging, ${t.unreadable} unreadable, a record once under each dialect${pastCapText(result.summary)}` +
          `${result.sourceErrors ? `; ${result.sourceErrors} source(s) could not be opened` : ''}\n`,
      );
    }
    for (const f of ['results.ndjson', 'summary.json', 'report.md', 'report.html', 'junit.xml']) process.stdout.write(`${argv.out}/${f}\n`);
    if (result.nothingRead) process.stderr.write('dice-dialects: warning: the shards held no record: nothing was checked\n');
    if (argv.history !== undefined) process.stderr.write(`${await recordInto(argv.history, argv.out)}\n`);
    // As replay: a source that could not be opened at all makes the run's exit 2 (the folder is written).
    if (result.sourceErrors > 0) process.exitCode = 2;
  },
};
