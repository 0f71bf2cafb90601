import type { GameRecord } from '../records/model/game-record.js';
import { type RawRecords, type ReadItem, recordsIn } from '../records/items.js';
import { parseRawRecords } from '../records/raw-records.js';
import type { GameResultLine } from '../replay/result.js';
import type { FaultCounts } from './accumulator.js';
import { countedNote } from './counted-note.js';
import { type DiceCounts, DiceStatsAccumulator } from './dice-stats.js';

/** One item of the input stream as it travels to a worker: a record, why it could not be read, or unparsed native lines. */
export type BatchItem = ReadItem | RawRecords;

/** A judging function per record: emits the record's result lines (any number, usually one per dialect) in order; `corpus` is the item's corpus (its lines' `source`). */
export type RecordJudge = (item: ReadItem, emit: (line: GameResultLine) => void, corpus: string | null) => void;

/**
 * A judge with counters of its own besides the result lines (e.g. `infer`'s per-value
 * tallies): it judges records as a RecordJudge does, and at the end of each batch hands
 * over the plain-data (structured-cloneable) partial state of that batch and starts afresh.
 * The run merges the partial states in input order with the judge's `merge` (JudgeSpec.state).
 */
export interface StatefulJudge<S = unknown> {
  judge: RecordJudge;
  takeState: () => S;
}

/** What `createJudge(params)` may return: a plain per-record judge, or one with mergeable state. */
export type AnyJudge = RecordJudge | StatefulJudge;

/** A judge a worker thread can build: an ES module exporting `createJudge(params)`, and the params (structured-cloneable). */
export interface JudgeRef {
  /** The module, a built-in judge's name (worker-modules.ts) or an ES module's URL (href); it must export `createJudge(params): AnyJudge`. */
  module: string;
  params: unknown;
  /** Tells judges apart (module and params), computed once by the run so a worker need not serialise the params per batch. */
  key: string;
}

/** Sent to each worker as the pool starts: it imports the judge module and builds the judge before the first batch comes. */
export interface WarmTask {
  warm: JudgeRef;
}

export interface BatchTask {
  items: BatchItem[];
  /** The corpus of each item (the `source` of its result lines): the file it came from, as the user named it. */
  corpora: Array<string | null>;
  /** The run's dialect columns: conforming lines are counted per item and column instead of travelling back. */
  columns: string[];
  judge: JudgeRef;
  /** Decoded items of items[0] (a raw item's first records) already judged by an earlier part of this batch: skipped. */
  skip?: number;
  /** Stop once the result text reaches this many characters (after the record that crossed it): the rest is judged as a further part. */
  budget?: number;
}

/**
 * What a batch gives back: the results.ndjson text of its lines in input order; the lines
 * that are not conforming (the summary counts their findings and picks examples from
 * them); how many lines were conforming per item and column; the corpus dice counters.
 */
export interface BatchResult {
  text: string;
  notable: GameResultLine[];
  /** conforming[item × columns + column]. */
  conforming: number[];
  dice: DiceCounts;
  /** Records with normalised or metadata recording faults, once per record (not per dialect). */
  faults: FaultCounts;
  /** Where each unreadable line of `notable` sits in `text` (start, end pairs, in order): the run may fold repeats out. */
  unreadableAt: number[];
  /** A stateful judge's partial state for this part of the batch (undefined for a plain RecordJudge). */
  state?: unknown;
  /**
   * Where the rest of the batch starts when the text reached the budget (item of the task,
   * decoded items of it already judged), and the task's items from there on: a batch's bytes
   * are moved to a worker, not copied, so the reading thread no longer holds them for a
   * further part. Null: all judged.
   */
  rest: { item: number; skip: number; items: BatchItem[] } | null;
}

/**
 * Result characters per part of a batch: a batch is sized by its input bytes, but one record
 * can give megabytes of findings (every divergence of a long game under every dialect, with
 * --continue-after-divergence). A worker stops after the record that takes its text past
 * this and the rest of the batch is judged as a further part, so what one part holds (its
 * text, its notable lines, and their copies on the way back) stays bounded whatever the
 * records; the text written is the same.
 */
export const RESULT_BUDGET = 4 * 1024 * 1024;

/** Judges a batch: lines in input order, serialised here (in the worker) so only text and counters travel back. */
export function runBatch(task: BatchTask, judgeOrStateful: AnyJudge): BatchResult {
  const judge = typeof judgeOrStateful === 'function' ? judgeOrStateful : judgeOrStateful.judge;
  const width = task.columns.length;
  const column = new Map(task.columns.map((c, i) => [c, i]));
  const notable: GameResultLine[] = [];
  const conforming = new Array<number>(task.items.length * width).fill(0);
  const dice = new DiceStatsAccumulator();
  const unreadableAt: number[] = [];
  const faults: FaultCounts = {};
  let text = '';
  let i = 0;
  const emit = (line: GameResultLine): void => {
    line.source = task.corpora[i];
    const start = text.length;
    text += `${JSON.stringify(line)}\n`;
    if (line.status === 'unreadable') unreadableAt.push(start, text.length);
    const c = column.get(line.dialect);
    if (line.status === 'conforming' && c !== undefined) conforming[i * width + c]++;
    else notable.push(line);
  };
  const judgeItem = (item: ReadItem): void => {
    if (item.kind === 'record') {
      addDice(item.record, dice);
      for (const note of item.record.notes) {
        if (countedNote(note) === null) continue;
        const key = `${note}\u0000${task.corpora[i] ?? ''}`;
        faults[key] = (faults[key] ?? 0) + 1;
      }
    }
    judge(item, emit, task.corpora[i]);
  };
  // What one part hands back: a stateful judge's state covers exactly the records of this part.
  const part = (rest: { item: number; skip: number } | null): BatchResult => {
    const result: BatchResult = { text, notable, conforming, dice: dice.counts(), faults, unreadableAt, rest: rest && { ...rest, items: task.items.slice(rest.item) } };
    if (typeof judgeOrStateful !== 'function') result.state = judgeOrStateful.takeState();
    return result;
  };
  const budget = task.budget ?? RESULT_BUDGET;
  let skip = task.skip ?? 0;
  let judged = 0;
  for (; i < task.items.length; i++) {
    const item = task.items[i];
    if (item.kind === 'raw') {
      const total = recordsIn(item);
      let r = 0;
      for (const decoded of parseRawRecords(item)) {
        if (r++ < skip) continue;
        judgeItem(decoded);
        judged++;
        if (text.length >= budget && r < total) return part({ item: i, skip: r });
      }
    } else {
      judgeItem(item);
      judged++;
    }
    skip = 0;
    if (text.length >= budget && judged > 0 && i + 1 < task.items.length) return part({ item: i + 1, skip: 0 });
  }
  return part(null);
}

/** The corpus dice of a record, once per record whatever the number of dialects. Opening rolls: each side's first turn. */
function addDice(record: GameRecord, dice: DiceStatsAccumulator): void {
  const turns = record.turns;
  // A no-op last turn (the game ended after the roll) is no pass: it rolled, and nobody moved.
  const noOp = record.notes.length > 0 && record.notes.includes('record.no-op-last-turn') ? turns.length - 1 : -1;
  for (let t = 0; t < turns.length; t++) dice.add({ dice: turns[t].dice, passed: turns[t].moves.length === 0 && t !== noOp, opening: t < 2 });
}
