import type { GameRecord } from '../records/game-record.js';
import { decodeRawItem, type RawItem } from '../records/index.js';
import { loadDialect } from '../dialects/index.js';
import type { GameResultLine } from './result.js';
import { judgeFairness, type PreparedDialect, prepareDialect, replayGame } from './replay-game.js';

/** One item of the input stream as it travels to a worker: a record, or why it could not be read. */
export type BatchItem =
  | { kind: 'record'; index: number; record: GameRecord }
  | { kind: 'unreadable'; index: number; source: string; location: string | null; id: string | null; code: string; message: string }
  | RawItem;

/** What a batch gives back: result lines in input order, and the corpus dice of its records (see `encodeDice`). */
export interface BatchResult {
  lines: GameResultLine[];
  dice: number[];
}

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
export function judgeBatch(task: BatchTask): BatchResult {
  const dialects = preparedDialects(task.dialects);
  const lines: GameResultLine[] = [];
  const dice: number[] = [];
  for (const raw of task.items) {
    const item = raw.kind === 'raw' ? decodeRawItem(raw) : raw;
    if (item.kind === 'unreadable') {
      for (const d of dialects) lines.push(unreadableLine(item, d.name));
      continue;
    }
    encodeDice(item.record, dice);
    // The fairness reveal is judged once per record, not once per dialect.
    const opts = { continueAfterDivergence: task.continueAfterDivergence, fairness: judgeFairness(item.record) };
    for (const d of dialects) lines.push(replayGame(item.record, d, item.index, opts));
  }
  return { lines, dice };
}

/**
 * The corpus dice of a record, once per record whatever the number of dialects, as a
 * compact list for the trip back from a worker: per turn [n, face…, flags] with
 * flags bit 0 = forced pass, bit 1 = an opening roll (each side's first turn).
 */
export function encodeDice(record: GameRecord, out: number[]): void {
  const turns = record.turns;
  for (let t = 0; t < turns.length; t++) {
    const faces = turns[t].dice;
    out.push(faces.length, ...faces, (turns[t].moves.length === 0 ? 1 : 0) | (t < 2 ? 2 : 0));
  }
}

/** Walks `encodeDice` output. */
export function decodeDice(data: readonly number[], visit: (t: { dice: number[]; passed: boolean; opening: boolean }) => void): void {
  const turn = { dice: [] as number[], passed: false, opening: false };
  for (let i = 0; i < data.length; ) {
    const n = data[i];
    turn.dice.length = 0;
    for (let k = 1; k <= n; k++) turn.dice.push(data[i + k]);
    const flags = data[i + 1 + n];
    turn.passed = (flags & 1) !== 0;
    turn.opening = (flags & 2) !== 0;
    visit(turn);
    i += n + 2;
  }
}
