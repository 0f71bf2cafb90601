import type { CommandModule } from 'yargs';
import { type Dialect, formatProblem, listDialects, loadDialect } from '../../dialects/index.js';
import { checkNotAnInput } from '../../output/output-path.js';
import { ReadSetupError } from '../../records/index.js';
import { type Progress, parseShard, runReplay } from '../../run/index.js';
import { RUN_FILES } from '../../run/run-dir.js';
import { type SourceArgs, resolveSourceOptions, sourceOptions, sourceFailureLine } from '../source-options.js';
import { UsageError } from '../usage-error.js';
import { pastCapText } from '../past-cap.js';
import { checkHistory, historyOption, recordInto } from '../history-option.js';
import { checkJobs, forceJobsOption, jobsOption } from '../jobs-option.js';

interface Args extends SourceArgs {
  dialect?: string[];
  allDialects: boolean;
  set?: string[];
  out: string;
  jobs?: number;
  forceJobs: boolean;
  continueAfterDivergence: boolean;
  quiet: boolean;
  failOn?: 'diverging' | 'unreadable';
  junitPerGame: boolean;
  shard?: string;
  history?: string;
}

const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;

function progressLine(p: Progress): string {
  const rate = p.elapsedMs > 0 ? Math.round((p.records * 1000) / p.elapsedMs) : 0;
  return `games ${p.records}  ${rate} games/s  diverging ${p.diverging}  unreadable ${p.unreadable}  rss ${mb(p.rssBytes)}`;
}

export const replayCommand: CommandModule<object, Args> = {
  command: 'replay <sources..>',
  describe: 'Replay recorded games (files, folders, .gz, URLs, - for stdin) through dialects and report every divergence',
  builder: (y) =>
    sourceOptions(y)
      .option('dialect', { type: 'string', array: true, describe: 'Dialect name, alias or JSON file (repeatable)' })
      .option('all-dialects', { type: 'boolean', default: false, describe: 'Every dialect in dialects/' })
      .option('set', { type: 'string', array: true, describe: 'Override an option for every dialect: path=value (repeatable)' })
      .option('out', { type: 'string', demandOption: true, describe: 'Run folder (written atomically)' })
      .option('jobs', jobsOption)
      .option('force-jobs', forceJobsOption)
      .option('continue-after-divergence', { type: 'boolean', default: false, describe: 'Record every divergence of a game, not only the first' })
      .option('quiet', { type: 'boolean', default: false, describe: 'No progress line' })
      .option('fail-on', { choices: ['diverging', 'unreadable'] as const, describe: 'Exit 1 when any game diverges (or, with "unreadable", when any record is unreadable); a recording fault that hides the play counts as unreadable, a repaired one never counts' })
      .option('junit-per-game', { type: 'boolean', default: false, describe: 'One JUnit test case per game as well as per divergence class' })
      .option('history', historyOption)
      .option('shard', { type: 'string', describe: 'Judge only shard K of N (K/N, 1 ≤ K ≤ N) into a partial run folder; `merge` joins the N folders' })
      .example('$0 replay corpora/samples --all-dialects --out reports/latest', '')
      .example('$0 replay games.ndjson.gz --dialect dicechess-com --set enPassant.window=first-micro-move --out runs/ep', '') as never,
  handler: async (argv) => {
    const { sources, read } = resolveSourceOptions(argv);
    const names = argv.allDialects ? listDialects().map((d) => d.name) : (argv.dialect ?? []);
    if (names.length === 0) throw new UsageError('name at least one --dialect, or --all-dialects');
    const overrides = argv.set ?? [];
    const dialects: Array<{ dialect: Dialect; overrides: string[] }> = [];
    for (const name of names) {
      const loaded = loadDialect(name, overrides);
      if (!loaded.ok) throw new UsageError(loaded.error.map(formatProblem).join('; '));
      dialects.push({ dialect: loaded.value, overrides });
    }
    checkJobs(argv.jobs, argv.forceJobs);
    const shard = argv.shard === undefined ? undefined : parseShard(argv.shard);
    if (shard === null) throw new UsageError(`--shard must be K/N with 1 ≤ K ≤ N (got ${JSON.stringify(argv.shard)})`);
    checkNotAnInput('--out', argv.out, sources, { folder: true });
    if (argv.history !== undefined && shard) throw new UsageError('--history records whole runs: record the merged run (merge --history) instead of each shard');
    if (argv.history !== undefined) await checkHistory(argv.history);
    const tty = process.stderr.isTTY && !argv.quiet;
    const result = await runReplay({
      sources,
      dialects,
      out: argv.out,
      ...read,
      jobs: argv.jobs,
      forceJobs: argv.forceJobs,
      continueAfterDivergence: argv.continueAfterDivergence,
      junitPerGame: argv.junitPerGame,
      shard,
      onNote: (n) => process.stderr.write(`${tty ? '\r\x1b[K' : ''}dice-dialects: note: ${n.message}\n`),
      // Why the run judges on the threads it does, when that is not plain (quiet: not said).
      onJobsNote: argv.quiet ? undefined : (n) => process.stderr.write(`dice-dialects: note: ${n}\n`),
      onSourceFailure: (f) => process.stderr.write(`${tty ? '\r\x1b[K' : ''}${sourceFailureLine(f)}\n`),
      onProgress: tty ? (p) => process.stderr.write(`\r${progressLine(p)}${p.done ? '\n' : ''}`) : undefined,
    }).catch((e: unknown) => {
      throw e instanceof ReadSetupError ? new UsageError(e.message) : e;
    });
    const s = result.summary.totals;
    const p = result.progress;
    if (!argv.quiet) {
      process.stderr.write(
        `${shard ? `shard ${shard.k}/${shard.n}: ` : ''}replayed ${p.records} record${p.records === 1 ? '' : 's'} under ${dialects.length} dialect${dialects.length === 1 ? '' : 's'} in ${(p.elapsedMs / 1000).toFixed(1)} s: ` +
          `${s.conforming} conforming, ${s.diverging} diverging, ${s.unreadable} unreadable${s.faulty ? `, ${s.faulty} faulty (recording faults)` : ''}, a record once under each dialect${pastCapText(result.summary)}\n`,
      );
    }
    for (const f of shard ? ['results.ndjson', 'shard.json'] : RUN_FILES) process.stdout.write(`${argv.out}/${f}\n`);
    // Said even with --quiet: a green run that checked nothing is the failure CI must not miss (for a shard, merge says it of the whole run).
    if (result.nothingRead && !shard) process.stderr.write(`dice-dialects: warning: the sources held no record: nothing was checked${argv.failOn ? ' (--fail-on: exit 1)' : ''}\n`);
    if (argv.history !== undefined) process.stderr.write(`${await recordInto(argv.history, argv.out)}\n`);
    if (result.sourceErrors > 0) process.exitCode = 2;
    else if (argv.failOn && result.nothingRead && !shard) process.exitCode = 1;
    // A recording fault that hides the play fails as an unreadable record does; a repaired (normalised) one never fails.
    else if (argv.failOn === 'diverging' && (s.diverging > 0 || s.unreadable > 0 || s.faulty > 0)) process.exitCode = 1;
    else if (argv.failOn === 'unreadable' && (s.unreadable > 0 || s.faulty > 0)) process.exitCode = 1;
  },
};
