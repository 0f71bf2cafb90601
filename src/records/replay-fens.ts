import { makeDfen, parseDfen, uciToMove } from '../core/index.js';
import type { GameRecord } from './game-record.js';

/**
 * Positions around each turn, for writers of formats that carry FENs. The moves are
 * played without legality (notation only): a move that cannot be placed on the board
 * leaves every later FEN unknown (null) rather than inventing one.
 */
export interface TurnFens {
  /** 4-field FEN before each turn (the CSV `fen` column). */
  before: (string | null)[];
  /** 6-field FEN after each turn, the opponent to move. */
  after: (string | null)[];
}

export function turnFens(record: Pick<GameRecord, 'startFen' | 'turns'>): TurnFens {
  const before: (string | null)[] = [];
  const after: (string | null)[] = [];
  const start = parseDfen(record.startFen);
  let pos = start.ok ? start.value.pos : null;
  for (const turn of record.turns) {
    // The record's side wins over the board's: FENs must describe the turn as recorded.
    if (pos) pos.turn = turn.side === 'w' ? 0 : 1;
    before.push(pos ? makeDfen(pos, undefined, { short: true }) : null);
    if (pos) {
      for (const m of turn.moves) {
        const move = uciToMove(pos, m);
        if (!move.ok) {
          pos = null;
          break;
        }
        pos.make(move.value);
      }
    }
    if (pos) pos.endTurn();
    after.push(pos ? makeDfen(pos) : null);
  }
  return { before, after };
}

export const fenAfterEachTurn = (record: Pick<GameRecord, 'startFen' | 'turns'>): (string | null)[] => turnFens(record).after;
