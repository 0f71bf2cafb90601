import { makeDiceLetters, type Role } from '../../core/index.js';
import type { GameRecord, GameRecordInput, Side } from '../model/game-record.js';
import { HASH } from '../char-codes.js';
import { finaliseRecord } from '../model/finalise.js';
import { type Draft, fail } from '../items.js';
import { checkFen } from '../notation/fen.js';
import { parseDice } from '../notation/dice.js';
import { normaliseUci } from '../notation/uci.js';
import { type FormatModule, type RawPlace, convertOne, docPlace, readParsed } from './format.js';
import { lineRawBatches } from './line-records.js';

/**
 * E. Opening book: `<4-field FEN> <dice letters>\t<comma-separated UCI turn>` per line.
 * Each line is a single-turn record with a derived id (`book.tsv:12`). Lines starting
 * with `#` are comments.
 */
/** A line that is no record: blank (also in Unicode's sense) or a comment. */
function parse(text: string, at: RawPlace): Draft[] {
  if (text.trim() === '' || text.startsWith('#')) return [];
  const place = docPlace(at.source, at.line);
  return [
    convertOne(() => {
      const notes = new Set<string>(['id:derived']);
      const tab = text.indexOf('\t');
      if (tab < 0) fail('record.missing-field', 'no tab between the position and the turn');
      const fields = text.slice(0, tab).trim().split(/\s+/);
      if (fields.length < 5) fail('record.missing-field', `"${text.slice(0, tab)}" needs a 4-field FEN and the dice letters`);
      const startFen = checkFen(fields.slice(0, -1).join(' '), 'start', 'position');
      const side = startFen.split(' ')[1] as Side;
      const diceText = fields[fields.length - 1];
      const { dice, order } = diceText === '-' ? { dice: [], order: 'unknown' as const } : parseDice(diceText, side, notes);
      const turnText = text.slice(tab + 1).trim();
      const moves = turnText === '' || turnText === '-' ? [] : turnText.split(',').map((m) => normaliseUci(m, notes));
      const input: GameRecordInput = {
        id: place.derivedId,
        format: 'opening-book',
        location: place.location,
        startFen,
        players: { white: {}, black: {} },
        turns: [{ side, dice, diceOrder: order, moves, location: place.location }],
        result: null,
      };
      return finaliseRecord(input, notes);
    }, place.location),
  ];
}

/** The record's first turn as one book line (dice letters sorted by value, cased by side); nothing for a record without turns. */
export function makeBookLine(r: GameRecord): string {
  const turn = r.turns[0];
  if (!turn) return '';
  const fen = r.startFen.trim().split(/\s+/).slice(0, 4);
  fen[1] = turn.side;
  return `${fen.join(' ')} ${makeDiceLetters(turn.dice as Role[], turn.side === 'w' ? 0 : 1)}\t${turn.moves.join(',')}\n`;
}

export const openingBookFormat: FormatModule = {
  name: 'opening-book',
  // Comment lines stay on the reading thread.
  readBatches: (src) => lineRawBatches(src, 'opening-book', (bytes, start) => bytes[start] === HASH),
  parse,
  read: (src, ctx) => readParsed(openingBookFormat, src, ctx),
  make: makeBookLine,
  unwritable: (r) => (r.turns.length === 0 ? "a book line is a game's first turn, and this game has no turn" : null),
};
