import type { CommandModule } from 'yargs';
import { writeOutputFile } from '../../output/file-output.js';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkFileTarget, checkNotAnInput } from '../../output/output-path.js';
import { anythingBroke, configChanges, diffRuns, recordsIn, renderDiffMarkdown, ResultsFileError, type RunConfig } from '../../report/index.js';
import { canonicalJson } from '../../report/sorted.js';
import { UsageError } from '../usage-error.js';

interface DiffArgs {
  runA: string;
  runB: string;
  out?: string;
  json?: boolean;
  allowGone: boolean;
  allowConfigChange: boolean;
}

/**
 * A run folder's run_info (what it was made under); null for a results file given alone (no
 * summary, by choice). A folder whose summary cannot be read gives the reason: its
 * configuration is unknown, which counts as a change (a diff of unknown runs decides nothing).
 */
function runConfig(run: string): RunConfig | { unreadable: string } | null {
  let isFile = false;
  try {
    isFile = statSync(run).isFile();
  } catch {
    // Missing: the results reader has reported it already.
  }
  if (isFile) return null;
  try {
    const summary = JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8')) as { run_info?: RunConfig };
    if (summary.run_info === undefined || summary.run_info === null || typeof summary.run_info !== 'object') return { unreadable: `${join(run, 'summary.json')} holds no run_info` };
    return summary.run_info;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return { unreadable: `${join(run, 'summary.json')}: ${err.code === 'ENOENT' ? 'missing' : err instanceof SyntaxError ? 'not JSON' : (err.message ?? String(e))}` };
  }
}

/** What differs between the two runs' configurations; an unreadable summary is a difference of its own. */
function configDifferences(a: ReturnType<typeof runConfig>, b: ReturnType<typeof runConfig>): string[] {
  const unknown = [a, b].flatMap((c) => (c !== null && 'unreadable' in c ? [`configuration unknown: ${c.unreadable}`] : []));
  if (unknown.length > 0) return unknown;
  return a && b ? configChanges(a as RunConfig, b as RunConfig) : [];
}

/** `dice-dialects diff <runA> <runB>`: per-record changes between two run folders; exit 1 when anything broke (for nightly CI). */
export const diffCommand: CommandModule<object, DiffArgs> = {
  command: 'diff <runA> <runB>',
  describe: 'compare two run folders record by record (fixed, broken, reclassified, new, gone); exit 1 when anything broke or records are gone',
  builder: (y) =>
    y
      .positional('runA', { type: 'string', demandOption: true, describe: 'the earlier run folder (holds results.ndjson)' })
      .positional('runB', { type: 'string', demandOption: true, describe: 'the later run folder' })
      .option('out', { type: 'string', describe: 'write the diff to FILE instead of standard output' })
      .option('json', { type: 'boolean', default: false, describe: 'JSON instead of Markdown' })
      .option('allow-gone', { type: 'boolean', default: false, describe: 'records only in runA (a corpus that shrank on purpose) are not broken' })
      .option('allow-config-change', { type: 'boolean', default: false, describe: 'runs made under other dialects, overrides, options or tool versions are compared without counting as broken' }) as never,
  handler: async (args) => {
    if (args.out !== undefined) {
      checkFileTarget('--out', args.out);
      // The diff never lands on the runs it compares (their results, their summaries, anything in them).
      checkNotAnInput('--out', args.out, [args.runA, args.runB, join(args.runA, 'results.ndjson'), join(args.runB, 'results.ndjson')], { folder: false, inside: true });
    }
    let diff;
    try {
      diff = await diffRuns(args.runA, args.runB);
    } catch (error) {
      // An unreadable run folder is a usage problem (exit 2), not a regression (exit 1).
      if (error instanceof ResultsFileError) throw new UsageError(`cannot read run folder: ${error.message}`, 'run-dir');
      throw error;
    }
    const opts = { allowGone: args.allowGone, allowConfigChange: args.allowConfigChange, configChanges: configDifferences(runConfig(args.runA), runConfig(args.runB)) };
    const text = args.json ? canonicalJson(opts.configChanges.length ? { ...diff, configChanges: opts.configChanges } : diff) : renderDiffMarkdown(diff, opts);
    if (args.out !== undefined) {
      await writeOutputFile('--out', args.out, text);
      process.stdout.write(
        `diff written to ${args.out}: ${diff.broken.length} broken, ${diff.fixed.length} fixed, ${diff.reclassified.length} reclassified, ${recordsIn(diff.new)} new, ${recordsIn(diff.gone)} gone, ${diff.unchanged} unchanged\n`,
      );
    } else {
      process.stdout.write(text);
    }
    process.exitCode = anythingBroke(diff, opts) ? 1 : 0;
  },
};
