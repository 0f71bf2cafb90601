import type { GameRecord } from '../records/game-record.js';
import type { RawLines, ReadItem } from '../records/items.js';
import { decodeRawLines } from '../records/raw-lines.js';
import type { Rules } from '../rules/index.js';
import { type DiceCounts, DiceStatsAccumulator } from '../report/dice-stats.js';
import type { GameResultLine } from './result.js';
import { judgeFairness, type PreparedDialect, prepareDialect, replayGame } from './replay-game.js';

/** One item of the input stream as it travels to a worker: a record, why it could not be read, or unparsed native lines. */
export type BatchItem = ReadItem | RawLines;

/**
 * What a batch gives back: the results.ndjson text of its lines in input order; the lines
 * that are not conforming (the summary counts their findings and picks examples from
 * them); how many lines were conforming per item and dialect; the corpus dice counters.
 */
export interface BatchResult {
  text: string;
  notable: GameResultLine[];
  /** conforming[item × dialects + dialect]. */
  conforming: number[];
  dice: DiceCounts;
}

/** A dialect as the main thread loaded it (name or file, `--set` overrides, the resolved rules): workers need not load it again. */
export interface DialectSpec {
  /** The dialect's file and overrides: what tells two specs apart. */
  name: string;
  overrides: string[];
  /** The dialect's name in result lines. */
  label: string;
  rules: Rules;
}

export interface BatchTask {
  items: BatchItem[];
  /** The corpus of each item (the `source` of its result lines): the file it came from, as the user named it. */
  corpora: Array<string | null>;
  dialects: DialectSpec[];
  continueAfterDivergence: boolean;
}

/** Sent to each worker as the pool starts: it loads the judging code and prepares the dialects before the first batch comes. */
export interface WarmTask {
  warm: DialectSpec[];
}

const cache = new Map<string, PreparedDialect>();

/** Prepares (once per thread) the dialects a task names. */
export function preparedDialects(specs: DialectSpec[]): PreparedDialect[] {
  return specs.map((spec) => {
    const key = `${spec.name}\u0000${spec.overrides.join('\u0000')}`;
    let d = cache.get(key);
    if (!d) {
      d = prepareDialect(spec.label, spec.rules);
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
  const notable: GameResultLine[] = [];
  const conforming = new Array<number>(task.items.length * dialects.length).fill(0);
  const dice = new DiceStatsAccumulator();
  let text = '';
  const emit = (line: GameResultLine, item: number, d: number, corpus: string | null): void => {
    line.source = corpus;
    text += `${JSON.stringify(line)}\n`;
    if (line.status === 'conforming') conforming[item * dialects.length + d]++;
    else notable.push(line);
  };
  const judgeItem = (item: ReadItem, i: number): void => {
    const corpus = task.corpora[i];
    if (item.kind === 'unreadable') {
      dialects.forEach((d, k) => emit(unreadableLine(item, d.name), i, k, corpus));
      return;
    }
    addDice(item.record, dice);
    // The fairness reveal is judged once per record, not once per dialect.
    const opts = { continueAfterDivergence: task.continueAfterDivergence, fairness: judgeFairness(item.record) };
    dialects.forEach((d, k) => emit(replayGame(item.record, d, item.index, opts), i, k, corpus));
  };
  task.items.forEach((item, i) => {
    if (item.kind === 'raw') for (const decoded of decodeRawLines(item)) judgeItem(decoded, i);
    else judgeItem(item, i);
  });
  return { text, notable, conforming, dice: dice.counts() };
}

/** The corpus dice of a record, once per record whatever the number of dialects. Opening rolls: each side's first turn. */
function addDice(record: GameRecord, dice: DiceStatsAccumulator): void {
  const turns = record.turns;
  for (let t = 0; t < turns.length; t++) dice.add({ dice: turns[t].dice, passed: turns[t].moves.length === 0, opening: t < 2 });
}
