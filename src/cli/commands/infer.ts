import type { CommandModule } from 'yargs';
import { type Dialect, formatProblem, listDialects, loadDialect } from '../../dialects/index.js';
import { INFERRED_DIALECT_FILE } from '../../infer/dialect-file.js';
import { checkOutputFile } from '../../output/file-output.js';
import { checkFolderTarget, checkNotAnInput } from '../../output/output-path.js';
import { defaultOptionPaths, type OptionPlan, planOption } from '../../infer/options.js';
import { runInfer } from '../../infer/run.js';
import { resolveSourceOptions, type SourceArgs, sourceFailureLine, sourceOptions } from '../source-options.js';
import { UsageError } from '../usage-error.js';
import { checkJobs, forceJobsOption, jobsOption } from '../jobs-option.js';

interface Args extends SourceArgs {
  dialect: string;
  option?: string[];
  set?: string[];
  out?: string;
  write?: string;
  'write-favoured': boolean;
  'take-rate': number;
  evidence: number;
  by?: string;
  json: boolean;
  jobs?: number;
  'force-jobs': boolean;
  quiet: boolean;
}

const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;

export const inferCommand: CommandModule<object, Args> = {
  command: 'infer <sources..>',
  describe: "Infer which value of each disputed rule option a corpus's games support, with the evidence; optionally write the inferred dialect",
  builder: (y) =>
    sourceOptions(y)
      .option('dialect', { type: 'string', demandOption: true, describe: 'The base dialect (name, alias or JSON file)' })
      .option('option', { type: 'string', array: true, describe: 'An option to infer, optionally narrowed: PATH or PATH=v1,v2 (repeatable; default: every open option of the base, plus maximum and enPassant.window)' })
      .option('set', { type: 'string', array: true, describe: 'Fix an option of the base dialect: path=value (repeatable), as in replay' })
      .option('out', { type: 'string', describe: 'Run folder: infer.json, report.md, report.html (written atomically)' })
      .option('write', { type: 'string', describe: 'Write the inferred dialect file (extends the base)' })
      .option('write-favoured', { type: 'boolean', default: false, describe: 'With --write: also write each undecided option whose favoured value (evidence by absence) is alone, the evidence in its note' })
      .option('take-rate', { type: 'number', default: 0.01, describe: 'Evidence by absence: the assumed chance p that a player uses a looser rule\'s extra freedom at each opportunity (an assumption about players)' })
      .option('evidence', { type: 'number', default: 2, describe: 'Evidence by absence: the log10 likelihood ratio at which a looser value is disfavoured (2 = 100:1)' })
      .option('by', { type: 'string', describe: 'Verdicts per corpus file (source, file) or per start month (month)' })
      .option('json', { type: 'boolean', default: false, describe: 'The infer.json document alone on stdout (progress on stderr)' })
      .option('jobs', jobsOption)
      .option('force-jobs', forceJobsOption)
      .option('quiet', { type: 'boolean', default: false, describe: 'No progress line' })
      .example('$0 infer corpora/samples/dicechess-com --dialect dicechess-com --out runs/infer-dc', '')
      .example('$0 infer games.ndjson.gz --dialect reference --option enPassant.window --option maximum --json', '')
      .example('$0 infer exports/ --dialect reference --write dialects/site-x.json', '') as never,
  handler: async (argv) => {
    if (Array.isArray(argv.dialect)) throw new UsageError('--dialect takes one base dialect');
    const overrides = (argv.set ?? []).map(String);
    const loaded = loadDialect(argv.dialect, overrides);
    if (!loaded.ok) throw new UsageError(loaded.error.map(formatProblem).join('; '));
    const base = loaded.value;
    checkJobs(argv.jobs, argv['force-jobs']);
    const { sources, read } = resolveSourceOptions(argv);
    const takeRate = argv['take-rate'];
    if (!(takeRate > 0 && takeRate < 1)) throw new UsageError('--take-rate must be a number between 0 and 1 (exclusive)');
    if (!(argv.evidence >= 0) || !Number.isFinite(argv.evidence)) throw new UsageError('--evidence must be a number ≥ 0 (a log10 likelihood ratio)');
    const by = argv.by === undefined ? undefined : argv.by === 'source' || argv.by === 'file' ? 'source' : argv.by === 'month' ? 'month' : null;
    if (by === null) throw new UsageError(`--by ${argv.by}: use source (or file) or month`);
    if (argv['write-favoured'] && argv.write === undefined) throw new UsageError('--write-favoured goes with --write FILE');
    const args = (argv.option ?? []).map(String);
    const options: OptionPlan[] = [];
    for (const arg of args.length ? args : defaultOptionPaths(base)) {
      const plan = planOption(arg, base, overrides);
      // An option the user did not name, with one judgeable value under this base, is left out with a note.
      if (!plan.ok && args.length === 0 && plan.error.code === 'infer.no-candidates') {
        process.stderr.write(`dice-dialects: note: ${plan.error.message.replace(/^--option /, 'option ').replace(/, nothing to infer/, ': left out (nothing to infer)')}\n`);
        continue;
      }
      if (!plan.ok) throw new UsageError(plan.error.message, plan.error.code);
      if (options.some((o) => o.path === plan.value.path)) throw new UsageError(`--option ${plan.value.path} is named twice`);
      options.push(plan.value);
    }
    // Output paths are checked before any game is judged (the shared checks every command uses).
    if (argv.out !== undefined) {
      checkFolderTarget('--out', argv.out, 'infer-folder');
      checkNotAnInput('--out', argv.out, sources, { folder: true });
    }
    if (argv.write !== undefined) {
      checkOutputFile('--write', argv.write, { ours: INFERRED_DIALECT_FILE });
      checkNotAnInput('--write', argv.write, sources, { folder: true });
    }
    const named: Dialect[] = [];
    for (const info of listDialects()) {
      const d = loadDialect(info.file);
      if (d.ok) named.push(d.value);
      else process.stderr.write(`dice-dialects: dialect ${info.name} does not load, left out of the best fit: ${formatProblem(d.error[0])}\n`);
    }
    const tty = process.stderr.isTTY && !argv.quiet;
    const { doc, sourceErrors } = await runInfer({
      sources,
      baseArg: argv.dialect,
      base,
      baseOverrides: overrides,
      options,
      named,
      ...read,
      jobs: argv.jobs,
      forceJobs: argv['force-jobs'],
      out: argv.out,
      write: argv.write,
      writeFavoured: argv['write-favoured'],
      takeRate,
      evidence: argv.evidence,
      by,
      onSourceFailure: (f) => process.stderr.write(`${tty ? '\r\x1b[K' : ''}${sourceFailureLine(f)}\n`),
      onNote: (n) => process.stderr.write(`${tty ? '\r\x1b[K' : ''}dice-dialects: note: ${n.message}\n`),
      onProgress: tty
        ? (pass, p) => process.stderr.write(`\r${pass === 'infer' ? 'judging' : 'confirming'}: games ${p.records}  ${p.elapsedMs > 0 ? Math.round((p.records * 1000) / p.elapsedMs) : 0} games/s  rss ${mb(p.rssBytes)}${p.done ? '\n' : ''}`)
        : undefined,
    });
    if (argv.json) process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    else if (doc.games === 0) process.stdout.write('no game in the corpus could be judged: no verdict on any option, and no dialect fits or fails\n');
    else {
      const lines = [
        doc.bestDialect ? `best-fitting named dialect: ${doc.bestDialect.name} (${doc.bestDialect.conforming} of ${doc.games} games conform${doc.bestDialect.tiedWith.length ? `; as many under ${doc.bestDialect.tiedWith.join(', ')}` : ''})` : 'no named dialect fits any game',
        // The sentence names the option and says its verdict once.
        ...doc.options.map((o) => o.sentence.replace(/`/g, '')),
        ...doc.options.map((o) => `favoured — ${o.favouredSentence.replace(/`/g, '')}`),
        `(evidence by absence assumes a take rate of ${doc.takeRate}: an assumption about players, not a fact; --take-rate P)`,
        `confirmation: ${doc.confirmation.conforming ?? 'not judged'} conforming with every inferred value, ${doc.confirmation.baseConforming} under the base dialect`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    if (!argv.quiet) process.stderr.write(`inferred from ${doc.games} games (${doc.unreadable} unreadable records) in ${(doc.timing.wallMs / 1000).toFixed(1)} s\n`);
    if (argv.out !== undefined && !argv.json) for (const f of ['infer.json', 'report.md', 'report.html']) process.stdout.write(`${argv.out}/${f}\n`);
    if (argv.write !== undefined && !argv.json && doc.games > 0) process.stdout.write(`${argv.write}\n`);
    if (sourceErrors > 0) process.exitCode = 2;
    else if (doc.games === 0) {
      process.stderr.write(`dice-dialects: no game could be judged: nothing was inferred${argv.write !== undefined ? ` (${argv.write} not written)` : ''}\n`);
      process.exitCode = 1;
    }
  },
};
