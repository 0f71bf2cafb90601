import type { Dialect } from '../dialects/index.js';
import type { FormatName } from '../records/game-record.js';
import type { ReadOptions, SourceNote } from '../records/index.js';
import { createJudge, dialectSpec, type ReplayJudgeParams } from '../replay/judge-record.js';
import { type CorpusRunResult, type Progress, runCorpus, type SourceFailure } from './pipeline.js';
import type { ShardSpec } from './shard-plan.js';
import { shownPath } from './shown-path.js';

export interface ReplayRunOptions {
  sources: string[];
  dialects: Array<{ dialect: Dialect; overrides: string[] }>;
  out: string;
  format?: FormatName | 'auto';
  /** Threads that judge: this one and `jobs − 1` workers; 1 = this thread alone. */
  jobs?: number;
  continueAfterDivergence?: boolean;
  limit?: number;
  /** How to read the sources beyond the format and limit: folder filter, history list, HTTP limits. */
  glob?: string;
  historyList?: string | string[];
  http?: ReadOptions['http'];
  junitPerGame?: boolean;
  /** Judge only shard K of N (a partial run folder for `merge`). */
  shard?: ShardSpec;
  /** Records per block of a striped unit (tests only). */
  shardBlock?: number;
  /** Told of each note about a source (passed over, empty, a link not followed), as it comes; the summary lists them too. */
  onNote?: (note: SourceNote) => void;
  onProgress?: (p: Progress) => void;
  /** Told of each source that could not be read at all (the run exits 2 for one), as it comes. */
  onSourceFailure?: (failure: SourceFailure) => void;
}

export type { Progress };
export type ReplayRunResult = CorpusRunResult;

/** The main job: the run pipeline with the replayer's judge (every record under every dialect). */
export function runReplay(opts: ReplayRunOptions): Promise<ReplayRunResult> {
  const continueAfterDivergence = opts.continueAfterDivergence === true;
  const params: ReplayJudgeParams = { dialects: opts.dialects.map((d) => dialectSpec(d.dialect, d.overrides)), continueAfterDivergence };
  return runCorpus({
    sources: opts.sources,
    format: opts.format,
    limit: opts.limit,
    glob: opts.glob,
    historyList: opts.historyList,
    http: opts.http,
    onNote: opts.onNote,
    jobs: opts.jobs,
    out: opts.out,
    shard: opts.shard,
    shardBlock: opts.shardBlock,
    junitPerGame: opts.junitPerGame,
    onProgress: opts.onProgress,
    onSourceFailure: opts.onSourceFailure,
    judge: { columns: opts.dialects.map((d) => d.dialect.name), module: 'replay', params, create: createJudge },
    about: {
      dialects: Object.fromEntries(opts.dialects.map((d) => [d.dialect.name, { file: shownPath(d.dialect.file), sha256: d.dialect.sha256 }])),
      options: {
        dialects: opts.dialects.map((d) => (d.overrides.length ? `${d.dialect.name} ${d.overrides.map((o) => `--set ${o}`).join(' ')}` : d.dialect.name)),
        continueAfterDivergence,
      },
    },
  });
}
