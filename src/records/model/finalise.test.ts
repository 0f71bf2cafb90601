import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CASTLE,
  capturesKingOnLastRank,
  chess960Fen,
  generateCastling,
  generateMoves,
  makeUci,
  type Move,
  moveFrom,
  moveKind,
  moveTo,
  ORTHODOX,
  PAWN,
  parseDfen,
  STANDARD_FEN,
  uciToMove,
} from '../../core/index.js';
import { normaliseSpellings } from './finalise.js';
import type { GameRecordInput } from './game-record.js';

const mayCastle = (m: string): boolean =>
  m.length === 4 && m[1] === m[3] && (m[1] === '1' || m[1] === '8') && Math.abs(m.charCodeAt(0) - m.charCodeAt(2)) >= 1;
const mayTakeKingOnLastRank = (m: string): boolean =>
  ((m[1] === '7' && m[3] === '8') || (m[1] === '2' && m[3] === '1')) && Math.abs(m.charCodeAt(0) - m.charCodeAt(2)) === 1;
const isPawn = (piece: number): boolean => piece === PAWN || piece === -PAWN;

/** The spelling pass as it was before it followed the kings: the board tracked up to the last turn with any back-rank or last-rank move. */
function normaliseByBoard(input: GameRecordInput, notes: Set<string>): void {
  let last = input.turns.length - 1;
  while (last >= 0 && !input.turns[last].moves.some((m) => mayCastle(m) || mayTakeKingOnLastRank(m))) last--;
  if (last < 0) return;
  const parsed = parseDfen(input.startFen);
  if (!parsed.ok) return;
  const pos = parsed.value.pos;
  const is960 = input.chess960 !== null && input.chess960 !== undefined;
  for (let t = 0; t <= last; t++) {
    const turn = input.turns[t];
    for (let i = 0; i < turn.moves.length; i++) {
      const text = turn.moves[i];
      const move = uciToMove(pos, text);
      if (!move.ok) return;
      if (moveKind(move.value) === CASTLE) {
        const twoSquares = makeUci(move.value, 'king-two-squares');
        if (text === twoSquares) notes.add('castling:king-two-squares');
        else {
          notes.add('castling:king-takes-rook');
          const from = moveFrom(move.value) & 7;
          const rookFile = moveTo(move.value) & 7;
          if (!is960 && from === 4 && (rookFile === 0 || rookFile === 7)) turn.moves[i] = twoSquares;
        }
      } else if (mayTakeKingOnLastRank(text) && isPawn(pos.board[moveFrom(move.value)]) && capturesKingOnLastRank(pos, pos.board[moveFrom(move.value)] > 0 ? 0 : 1, moveTo(move.value))) {
        if (text.length === 4) notes.add('king-capture-on-last-rank:plain');
        else {
          notes.add('king-capture-on-last-rank:promotion-letter');
          turn.moves[i] = makeUci(move.value);
        }
      }
      pos.make(move.value);
    }
    pos.endTurn();
  }
}

const STARTS = [STANDARD_FEN, '4k3/1P6/8/8/8/8/6p1/R3K2R w KQ - 0 1', 'r3k2r/p6P/8/8/8/8/P6p/R3K2R b KQkq - 0 1', '1k6/8/8/8/8/8/8/4K2R w K - 0 1'];

/**
 * Records of random pseudo-legal play (kings walk and get taken, castling either way,
 * promotion letters on king captures), now and then a move no board can place, from
 * classic, Chess960 and sparse starts, one or two micro-moves a turn.
 */
const record = fc
  .record({ start: fc.nat({ max: 10 }), choices: fc.array(fc.nat(), { minLength: 1, maxLength: 160 }), chess960: fc.boolean() })
  .map(({ start, choices, chess960 }) => {
    const fen = start < STARTS.length ? STARTS[start] : (chess960Fen((start * 97) % 960) as { ok: true; value: string }).value;
    const parsed = parseDfen(fen);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const pos = parsed.value.pos;
    const turns: GameRecordInput['turns'] = [];
    for (let t = 0; t < choices.length; t++) {
      const c = choices[t];
      const moves: string[] = [];
      for (let k = 0; k < 1 + (c % 4 === 0 ? 1 : 0); k++) {
        const buf: Move[] = [];
        let n = generateMoves(pos, pos.turn, { ...ORTHODOX, castling: false }, buf, 0);
        n = generateCastling(pos, pos.turn, false, buf, n);
        if (n === 0 || c % 37 === 5) {
          moves.push(c % 2 ? 'a3a4' : 'h6g5');
          continue;
        }
        const m = buf[(c >> 3) % n];
        let text = makeUci(m, c % 3 === 0 ? 'king-takes-rook' : 'king-two-squares');
        if (c % 5 === 1 && text.length === 4 && mayTakeKingOnLastRank(text)) text += 'q';
        moves.push(text);
        pos.make(m);
      }
      turns.push({ side: pos.turn === 0 ? 'w' : 'b', dice: [], moves });
      pos.endTurn();
    }
    return { id: 'x', format: 'ndjson', startFen: fen, chess960: chess960 && start >= STARTS.length ? 1 : null, players: { white: {}, black: {} }, turns, result: null } as unknown as GameRecordInput;
  });

describe('normaliseSpellings, following the kings to know how far to track the board', () => {
  it('spells every move and notes every spelling as tracking the board to the last back-rank move did', () => {
    let changed = 0;
    let noted = 0;
    let kingTaken = 0;
    fc.assert(
      fc.property(record, (input) => {
        const a = structuredClone(input);
        const b = structuredClone(input);
        const notesA = new Set<string>();
        const notesB = new Set<string>();
        normaliseSpellings(a, notesA);
        normaliseByBoard(b, notesB);
        expect(a.turns.map((t) => t.moves)).toEqual(b.turns.map((t) => t.moves));
        expect([...notesA].sort()).toEqual([...notesB].sort());
        if (JSON.stringify(a.turns) !== JSON.stringify(input.turns)) changed++;
        if (notesA.size > 0) noted++;
        if ([...notesA].some((n) => n.startsWith('king-capture'))) kingTaken++;
      }),
      // A fixed seed: the counts below say the cases that matter came up.
      { numRuns: 3000, seed: 12 },
    );
    expect(changed).toBeGreaterThan(20);
    expect(noted).toBeGreaterThan(150);
    expect(kingTaken).toBeGreaterThan(0);
  });
});
