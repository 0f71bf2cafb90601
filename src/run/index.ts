/**
 * The run pipeline: read → judge (worker threads) → accumulate → write, above `replay`
 * (judging) and `report` (rendering). `runCorpus` runs any per-record judge over a
 * corpus (whole, or one shard); `runReplay` is it with the replayer's judge;
 * `mergeShards` turns a sharded run's folders into the whole run's.
 */
export { runCorpus, type CorpusRunOptions, type CorpusRunResult, type JudgeSpec, type Progress } from './pipeline.js';
export type { RecordJudge } from './batch.js';
export { runReplay, type ReplayRunOptions, type ReplayRunResult } from './replay.js';
export { mergeShards, MergeError, type MergeResult } from './merge.js';
export { openRunDir, RUN_FILES, type RunDir } from './run-dir.js';
export { parseShard, planShards, planLoads, listUnits, BLOCK, type ShardSpec, type PlannedUnit, type Unit } from './shard-plan.js';
export { RunAccumulator, AccumulatorState } from './accumulator.js';
export { type DiceCounts, DiceStatsAccumulator, EXPECTED_OPENING_PASS_RATE, EXPECTED_PASS_RATE, expectedDoublesRate, type DiceTurn } from '../run/dice-stats.js';
