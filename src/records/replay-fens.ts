import { makeDfen, parseDfen, uciToMove } from '../core/index.js';
import type { GameRecord } from './model/game-record.js';

/**
 * Positions around each turn, for writers of formats that need FENs. The moves are
 * played without legality (notation only): a move that cannot be placed on the board
 * leaves every later FEN unknown (null) rather than inventing one.
 */
export function computedFensAfter(record: Pick<GameRecord, 'startFen' | 'turns' | 'chess960'>): (string | null)[] {
  const after: (string | null)[] = [];
  const start = parseDfen(record.startFen);
  let pos = start.ok ? start.value.pos : null;
  const castling = record.chess960 === null ? 'xfen' : 'shredder';
  for (const turn of record.turns) {
    if (pos) {
      // The record's side wins over the board's: FENs must describe the turn as recorded.
      pos.turn = turn.side === 'w' ? 0 : 1;
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
    after.push(pos ? makeDfen(pos, undefined, { castling }) : null);
  }
  return after;
}

const fen4 = (fen: string): string => fen.trim().split(/\s+/).slice(0, 4).join(' ');

/** The 4-field FEN before each turn (the CSV `fen` column): the record's own FENs where it has them, else computed. */
export function fensBefore(record: Pick<GameRecord, 'startFen' | 'turns' | 'chess960'>): (string | null)[] {
  let computed: (string | null)[] | null = null;
  return record.turns.map((_, i) => {
    const recorded = i === 0 ? record.startFen : record.turns[i - 1].fenAfter;
    if (recorded) return fen4(recorded);
    computed ??= computedFensAfter(record);
    const c = computed[i - 1];
    return c ? fen4(c) : null;
  });
}

/** The record with every missing `fenAfter` filled by playing the moves (for corpus writers that want FENs in every format). */
export function withFenAfter<T extends Pick<GameRecord, 'startFen' | 'turns' | 'chess960'>>(record: T): T {
  if (record.turns.every((t) => t.fenAfter !== null)) return record;
  const computed = computedFensAfter(record);
  return { ...record, turns: record.turns.map((t, i) => (t.fenAfter === null ? { ...t, fenAfter: computed[i] } : t)) };
}
