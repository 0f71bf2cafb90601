import type { ReadItem } from '../records/items.js';
import { loadDialect } from '../dialects/load.js';
import type { GameResultLine } from './result.js';
import { judgeFairness, type PreparedDialect, prepareDialect, replayGame } from './replay-game.js';

/** How to find the dialects again inside a worker: by name or file, plus `--set` overrides. */
export interface DialectSpec {
  name: string;
  overrides: string[];
}

/** What the replay judge is built from (structured-cloneable: it travels to worker threads). */
export interface ReplayJudgeParams {
  dialects: DialectSpec[];
  continueAfterDivergence: boolean;
}

const cache = new Map<string, PreparedDialect>();

/** Loads (once per thread) the dialects a task names. Failure here is a bug: the main thread validated them. */
export function preparedDialects(specs: DialectSpec[]): PreparedDialect[] {
  return specs.map((spec) => {
    const key = `${spec.name}\u0000${spec.overrides.join('\u0000')}`;
    let d = cache.get(key);
    if (!d) {
      const loaded = loadDialect(spec.name, spec.overrides);
      if (!loaded.ok) throw new Error(`dialect ${spec.name}: ${loaded.error.map((p) => p.message).join('; ')}`);
      d = prepareDialect(loaded.value.name, loaded.value.rules);
      cache.set(key, d);
    }
    return d;
  });
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
  return (item, emit) => {
    if (item.kind === 'unreadable') {
      for (const d of dialects) emit(unreadableLine(item, d.name));
      return;
    }
    // The fairness reveal is judged once per record, not once per dialect.
    const opts = { continueAfterDivergence: params.continueAfterDivergence, fairness: judgeFairness(item.record) };
    for (const d of dialects) emit(replayGame(item.record, d, item.index, opts));
  };
}
