import { chess960Fen, makeDfen, parseDfen, squareName, uciToMove, STANDARD_FEN } from '../../core/index.js';
import { makePrng } from '../../dice/index.js';
import type { GameRecordInput } from '../model/game-record.js';
import { GameRecord } from '../model/game-record-schema.js';

/** A seeded uniform [0, 1) source (the project's own PRNG), so a failing seed reproduces. */
export function prng(seed: number): () => number {
  const p = makePrng(seed);
  return () => p.next();
}

/**
 * A random game for round-trip tests: pieces jump to random squares that do not hold
 * their own side's pieces (notation-valid, no rules), the dice are the moved pieces'
 * faces padded with unused faces, sometimes a pass. No castling-like king moves.
 */
export function randomGame(seed: number, opts: { turns?: number; chess960?: boolean } = {}): GameRecord {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const n960 = opts.chess960 ? Math.floor(rnd() * 960) : 518;
  const startFen = n960 === 518 ? STANDARD_FEN : (chess960Fen(n960) as { ok: true; value: string }).value;
  const pos = (parseDfen(startFen) as { ok: true; value: { pos: import('../../core/index.js').Position } }).value.pos;
  const turns: GameRecordInput['turns'] = [];
  const count = opts.turns ?? 1 + Math.floor(rnd() * 12);
  let kingTaken = false;
  let winner: 'white' | 'black' | null = null;
  for (let t = 0; t < count && !kingTaken; t++) {
    const side = pos.turn === 0 ? 'w' : 'b';
    const sign = pos.turn === 0 ? 1 : -1;
    const moves: string[] = [];
    const faces: number[] = [];
    const wanted = rnd() < 0.15 ? 0 : 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < wanted; k++) {
      const own = [...pos.board.keys()].filter((sq) => pos.board[sq] * sign > 0);
      const from = pick(own);
      const role = Math.abs(pos.board[from]);
      // Pawns step like pawns (other pawn steps would read as double steps or en passant and lose a promotion).
      const forward = (sq: number): boolean => {
        if (role !== 1) return true;
        const dr = ((sq >> 3) - (from >> 3)) * sign;
        const df = Math.abs((sq & 7) - (from & 7));
        return (df === 0 && (dr === 1 || (dr === 2 && (from >> 3) === (sign > 0 ? 1 : 6)))) || (df === 1 && dr === 1 && pos.board[sq] !== 0);
      };
      const targets = [...pos.board.keys()].filter((sq) => sq !== from && pos.board[sq] * sign <= 0 && forward(sq));
      if (targets.length === 0) continue;
      const to = pick(targets);
      if (role === 6 && (to >> 3) === (from >> 3) && Math.abs((to & 7) - (from & 7)) >= 2) continue;
      let uci = squareName(from) + squareName(to);
      if (role === 1 && ((to >> 3) === 0 || (to >> 3) === 7)) uci += pick(['q', 'r', 'b', 'n']);
      const move = uciToMove(pos, uci);
      if (!move.ok) continue;
      if (Math.abs(pos.board[to]) === 6) {
        kingTaken = true;
        winner = side === 'w' ? 'white' : 'black';
      }
      pos.make(move.value);
      moves.push(uci);
      faces.push(role);
      if (kingTaken) break;
    }
    while (faces.length < 3) faces.push(1 + Math.floor(rnd() * 6));
    // Roll order: shuffle so the order is not sorted.
    for (let i = faces.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [faces[i], faces[j]] = [faces[j], faces[i]];
    }
    pos.endTurn();
    turns.push({ side, dice: faces, diceOrder: 'roll', moves, fenAfter: makeDfen(pos), thinkingMs: Math.floor(rnd() * 9000) });
  }
  const result = winner ?? pick(['white', 'black', 'draw', null] as const);
  return GameRecord.parse({
    id: `game-${seed}`,
    site: pick(['dicechess.com', 'fortemate', null]),
    format: 'ndjson',
    mode: pick(['classic', 'x2', null]),
    startFen,
    chess960: n960 === 518 ? null : n960,
    startedAt: '2026-01-02T03:04:05Z',
    players: {
      white: { id: '11', name: 'ann', kind: 'human', rating: 1500 },
      black: { id: '-2', name: 'bot two', kind: 'bot', rating: 1400 },
    },
    timeControl: { kind: 'fischer', initialMs: 300_000, incrementMs: 2_000 },
    stakes: { initial: 10, final: 10, currency: 'GOLD' },
    turns,
    result,
    termination: result === null ? 'unknown' : kingTaken ? 'king_captured' : result === 'draw' ? 'draw_agreement' : 'resign',
  });
}
