import type { Dialect } from '../dialects/index.js';
import { createJudge, dialectSpec, type ReplayJudgeParams } from '../replay/judge-record.js';
import { replayWeight } from './auto-jobs.js';
import { type CorpusRunOptions, type CorpusRunResult, type Progress, runCorpus } from './pipeline.js';
import { shownPath } from './shown-path.js';
import { type ReproDialect, reproDialect, reproduction } from './reproduction.js';
import type { Example } from '../report/summary-schema.js';

/** The run pipeline's options, with the dialects and the replayer's own option in place of the judge; a run folder always. */
export interface ReplayRunOptions extends Omit<CorpusRunOptions<ReplayJudgeParams>, 'judge' | 'about' | 'out' | 'reproduce'> {
  dialects: Array<{ dialect: Dialect; overrides: string[] }>;
  /** The run folder (or, with `shard`, the shard's partial one). */
  out: string;
  continueAfterDivergence?: boolean;
}

export type { Progress };
export type ReplayRunResult = CorpusRunResult;

/** The main job: the run pipeline with the replayer's judge (every record under every dialect). */
export function runReplay(opts: ReplayRunOptions): Promise<ReplayRunResult> {
  const { dialects, continueAfterDivergence: goOn, ...run } = opts;
  const continueAfterDivergence = goOn === true;
  const params: ReplayJudgeParams = { dialects: dialects.map((d) => dialectSpec(d.dialect, d.overrides)), continueAfterDivergence };
  // Each example's check command, judged once the run is over (a few a dialect): by the result lines' dialect name.
  let repro: Map<string, ReproDialect> | null = null;
  const reproduce = (e: Example): string | null => {
    repro ??= new Map(dialects.map((d) => [d.dialect.name, reproDialect(d.dialect, d.overrides)]));
    const d = repro.get(e.dialect);
    return d === undefined ? null : reproduction(d, e.finding);
  };
  return runCorpus({
    reproduce,
    ...run,
    judge: { columns: dialects.map((d) => d.dialect.name), weight: replayWeight(dialects.length, continueAfterDivergence), module: 'replay', params, create: createJudge },
    about: {
      dialects: Object.fromEntries(dialects.map((d) => [d.dialect.name, { file: shownPath(d.dialect.file), sha256: d.dialect.sha256 }])),
      options: {
        dialects: dialects.map((d) => (d.overrides.length ? `${d.dialect.name} ${d.overrides.map((o) => `--set ${o}`).join(' ')}` : d.dialect.name)),
        continueAfterDivergence,
      },
    },
  });
}
