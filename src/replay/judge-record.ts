import type { Dialect } from '../dialects/resolve.js';
import type { ReadItem } from '../records/items.js';
import type { Rules } from '../rules/index.js';
import type { GameResultLine } from './result.js';
import { judgeFairness, type PreparedDialect, prepareDialect, replayGame } from './replay-game.js';

/**
 * A dialect as the main thread resolved it (file, `--set` overrides, the resolved rules), for
 * any judge that runs in worker threads (replay's, infer's): workers need not load it again.
 */
export interface DialectSpec {
  /** The dialect's file and overrides: what tells two specs apart. */
  name: string;
  overrides: string[];
  /** The dialect's name in result lines. */
  label: string;
  rules: Rules;
}

/** The spec of a loaded dialect (`overrides`: the `--set` texts it was loaded with). */
export const dialectSpec = (dialect: Dialect, overrides: string[]): DialectSpec => ({ name: dialect.file, overrides, label: dialect.name, rules: dialect.rules });

/** What the replay judge is built from (structured-cloneable: it travels to worker threads). */
export interface ReplayJudgeParams {
  dialects: DialectSpec[];
  continueAfterDivergence: boolean;
}

/** Prepares the dialects a judge is built from, from the rules the main thread resolved (a thread builds each judge once: src/run/worker.ts). */
export function preparedDialects(specs: DialectSpec[]): PreparedDialect[] {
  return specs.map((spec) => prepareDialect(spec.label, spec.rules));
}

/** The result line of an unreadable record, the same for every dialect. */
export function unreadableLine(item: Extract<ReadItem, { kind: 'unreadable' }>, dialect: string): GameResultLine {
  return {
    id: item.id ?? `${item.location ?? item.source}`,
    dialect,
    status: 'unreadable',
    index: item.index,
    source: item.location ?? item.source,
    turns: null,
    findings: [{ rule: item.code, turn: null, microMove: null, dfen: null, dice: null, recorded: [], allowed: [], message: item.message, location: item.location ?? item.source }],
  };
}

/**
 * The replayer's judging function: one record (or why it could not be read) in, one
 * result line per dialect out, in the dialects' order. This is all `src/replay` does;
 * the run pipeline (src/run) reads, batches, counts and writes around it.
 */
export function createJudge(params: ReplayJudgeParams): (item: ReadItem, emit: (line: GameResultLine) => void) => void {
  const dialects = preparedDialects(params.dialects);
  // Only provably-fair dialects judge the reveal: with none, it is not computed at all.
  const needsFairness = dialects.some((d) => d.rules.dice.draw === 'provably-fair');
  return (item, emit) => {
    if (item.kind === 'unreadable') {
      for (const d of dialects) emit(unreadableLine(item, d.name));
      return;
    }
    // The fairness reveal is judged once per record, not once per dialect.
    const opts = { continueAfterDivergence: params.continueAfterDivergence, fairness: needsFairness ? judgeFairness(item.record) : null };
    for (const d of dialects) emit(replayGame(item.record, d, item.index, opts));
  };
}
