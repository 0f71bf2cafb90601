/**
 * dice-dialects as a library: the code the command line runs, errors as values.
 *
 *   import { loadDialect, judgeTurn } from 'dice-dialects';
 *   const d = loadDialect('dicechess.com');
 *   if (d.ok) judgeTurn(d.value, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PB', 'a2a3');
 *
 * `dice-dialects/rules` holds the part without Node APIs (for browsers).
 */
export * from './api/rules.js';
export { type DialectOptions, type RecordSource, type RunError, type RunOptions, loadDialect, readRecords, replayRecord, runReplay } from './api/node.js';
export { listDialects } from './dialects/registry.js';
export type { GameRecord, FormatName, Turn } from './records/model/game-record.js';
export { FORMAT_NAMES } from './records/model/game-record.js';
export type { ReadItem } from './records/items.js';
export type { ReadOptions } from './records/read.js';
export type { Finding, GameResultLine } from './replay/result.js';
export type { Progress, ReplayRunResult } from './api/pipeline.js';
export type { Summary } from './report/summary-schema.js';
