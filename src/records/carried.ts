import type { FormatName, GameRecord } from './model/game-record.js';
import { FORMATS } from './formats/index.js';
import { readRecords } from './read.js';
import { makeRecordText } from './write.js';

/**
 * What a record holds, kind by kind, counted: a format that carries a kind gives back as many
 * of it when its text is read again. Counts, not values, so that what a reader normalises (a
 * FEN's counters, dice sorted) is not taken for a loss.
 */
const KINDS: ReadonlyArray<readonly [name: string, count: (r: GameRecord) => number]> = [
  ['turns', (r) => r.turns.length],
  ['player ids', (r) => both(r, (p) => p.id !== null)],
  ['player names', (r) => both(r, (p) => p.name !== null)],
  ['player kinds', (r) => both(r, (p) => p.kind !== null)],
  ['ratings', (r) => both(r, (p) => p.rating !== null)],
  ['time control', (r) => Number(r.timeControl !== null)],
  ['stakes', (r) => Number(r.stakes !== null)],
  ['events (draw offers, the cube, timeouts)', (r) => r.events.length],
  ['clocks', (r) => r.turns.filter((t) => t.clockMs !== null).length],
  ['thinking times', (r) => r.turns.filter((t) => t.thinkingMs !== null).length],
  ['dice flags', (r) => r.turns.filter((t) => t.diceFlags !== null).length],
  ['boards after the turns', (r) => r.turns.filter((t) => t.fenAfter !== null).length],
  ['dice in roll order', (r) => r.turns.filter((t) => t.diceOrder === 'roll' && t.dice.length > 1).length],
  ['fairness seeds', (r) => Number(r.fairness !== null)],
  ['start time', (r) => Number(r.startedAt !== null)],
  ['end time', (r) => Number(r.finishedAt !== null)],
  ['rated', (r) => Number(r.rated !== null)],
  ['Chess960 number', (r) => Number(r.chess960 !== null)],
  ['mode', (r) => Number(r.mode !== null)],
];

/**
 * What a record says and a format must give back as it was, not only as much of it: the game's
 * result and how it ended (a state map has no resignation, and reads a timeout off the clocks).
 */
const VALUES: ReadonlyArray<readonly [name: string, value: (r: GameRecord) => unknown]> = [
  ['results', (r) => r.result],
  ['terminations', (r) => r.termination],
];

const both = (r: GameRecord, has: (p: GameRecord['players']['white']) => boolean): number => Number(has(r.players.white)) + Number(has(r.players.black));

/**
 * The kinds of data `record` holds that its text in `format` does not give back: the record
 * written, read again by the format's own reader, and each kind counted on both. A text that
 * does not read back as one record loses it whole; a record the format has no text for
 * (`unwritable`) is said of elsewhere, and loses nothing here.
 */
export async function lostInFormat(format: FormatName, record: GameRecord): Promise<string[]> {
  // The native NDJSON is the canonical record itself: nothing to read back.
  if (format === 'ndjson' || (FORMATS[format].unwritable?.(record) ?? null) !== null) return [];
  const back: GameRecord[] = [];
  for await (const item of readRecords([{ kind: 'stream', name: 'round trip', data: makeRecordText(format, record) }], { format })) {
    if (item.kind === 'record') back.push(item.record);
  }
  if (back.length !== 1) return ['the whole record'];
  const counted = KINDS.filter(([, count]) => count(back[0]) < count(record)).map(([name]) => name);
  const changed = VALUES.filter(([, value]) => value(record) !== null && value(back[0]) !== value(record)).map(([name]) => `${name} (changed or lost)`);
  return [...counted, ...changed];
}
