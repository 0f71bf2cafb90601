import type { GameRecord } from '../records/game-record.js';
import { loadDialect } from '../dialects/index.js';
import type { GameResultLine } from './result.js';
import { type PreparedDialect, prepareDialect, replayGame } from './replay-game.js';

/** One item of the input stream as it travels to a worker: a record, or why it could not be read. */
export type BatchItem =
  | { kind: 'record'; index: number; record: GameRecord }
  | { kind: 'unreadable'; index: number; source: string; location: string | null; id: string | null; code: string; message: string };

/** How to find the dialects again inside a worker: by name or file, plus `--set` overrides. */
export interface DialectSpec {
  name: string;
  overrides: string[];
}

export interface BatchTask {
  items: BatchItem[];
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
export function unreadableLine(item: Extract<BatchItem, { kind: 'unreadable' }>, dialect: string): GameResultLine {
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

/** Judges a batch under every dialect: lines in input order, dialects in the given order per record. */
export function judgeBatch(task: BatchTask): GameResultLine[] {
  const dialects = preparedDialects(task.dialects);
  const out: GameResultLine[] = [];
  for (const item of task.items) {
    for (const d of dialects) {
      if (item.kind === 'unreadable') out.push(unreadableLine(item, d.name));
      else out.push(replayGame(item.record, d, item.index, { continueAfterDivergence: task.continueAfterDivergence }));
    }
  }
  return out;
}
