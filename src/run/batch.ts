import type { GameRecord } from '../records/game-record.js';
import type { RawLines, ReadItem } from '../records/items.js';
import { decodeRawLines } from '../records/raw-lines.js';
import type { GameResultLine } from '../replay/result.js';
import { type DiceCounts, DiceStatsAccumulator } from './dice-stats.js';

/** One item of the input stream as it travels to a worker: a record, why it could not be read, or unparsed native lines. */
export type BatchItem = ReadItem | RawLines;

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
  /** URL (href) of the module; it must export `createJudge(params): RecordJudge`. */
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
  /** Where each unreadable line of `notable` sits in `text` (start, end pairs, in order): the run may fold repeats out. */
  unreadableAt: number[];
  /** A stateful judge's partial state for this batch (undefined for a plain RecordJudge). */
  state?: unknown;
}

/** Judges a batch: lines in input order, serialised here (in the worker) so only text and counters travel back. */
export function runBatch(task: BatchTask, judgeOrStateful: AnyJudge): BatchResult {
  const judge = typeof judgeOrStateful === 'function' ? judgeOrStateful : judgeOrStateful.judge;
  const width = task.columns.length;
  const column = new Map(task.columns.map((c, i) => [c, i]));
  const notable: GameResultLine[] = [];
  const conforming = new Array<number>(task.items.length * width).fill(0);
  const dice = new DiceStatsAccumulator();
  const unreadableAt: number[] = [];
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
    if (item.kind === 'record') addDice(item.record, dice);
    judge(item, emit, task.corpora[i]);
  };
  for (; i < task.items.length; i++) {
    const item = task.items[i];
    if (item.kind === 'raw') for (const decoded of decodeRawLines(item)) judgeItem(decoded);
    else judgeItem(item);
  }
  const result: BatchResult = { text, notable, conforming, dice: dice.counts(), unreadableAt };
  if (typeof judgeOrStateful !== 'function') result.state = judgeOrStateful.takeState();
  return result;
}

/** The corpus dice of a record, once per record whatever the number of dialects. Opening rolls: each side's first turn. */
function addDice(record: GameRecord, dice: DiceStatsAccumulator): void {
  const turns = record.turns;
  for (let t = 0; t < turns.length; t++) dice.add({ dice: turns[t].dice, passed: turns[t].moves.length === 0, opening: t < 2 });
}
