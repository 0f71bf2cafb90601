import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadDialect } from '../dialects/index.js';
import { GameState } from './game.js';
import type { Rules } from './rules.js';
import { TurnEngine } from './turn-engine.js';
import { type Color, generateMoves, makeUci, type Move, ORTHODOX, type Role } from '../core/index.js';

const rulesOf = (name: string, overrides: string[] = []): Rules => {
  const d = loadDialect(name, overrides);
  if (!d.ok) throw new Error(name);
  return d.value.rules;
};

/** Check-rule dialects (the no-move test runs for them), with the ends that compete with it. */
const ENGINES = [
  new TurnEngine(rulesOf('chess')),
  new TurnEngine(rulesOf('chess', ['draws.ruleDraws=automatic', 'draws.repetition=2', 'draws.moveCounterLimit=6'])),
  new TurnEngine(rulesOf('chess', ['draws.stalemate=false'])),
  new TurnEngine(rulesOf('wikipedia-two-dice')),
];

/** Kings and a few pieces: mates, stalemates, bare kings and repetitions come up within a few turns. */
const game = fc.record({
  squares: fc.uniqueArray(fc.nat({ max: 63 }), { minLength: 3, maxLength: 7 }),
  pieces: fc.array(fc.constantFrom(...'QRRNBPqrrnbp'), { minLength: 5, maxLength: 5 }),
  side: fc.constantFrom('w', 'b'),
  choices: fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
  engine: fc.nat({ max: ENGINES.length - 1 }),
  // Near the move counter's limit, so its claim meets checkmate and stalemate.
  halfmoves: fc.constantFrom(0, 0, 97, 99),
});

function fenOf(squares: number[], pieces: string[], side: string, halfmoves: number): string {
  const board: string[] = new Array(64).fill('');
  board[squares[0]] = 'K';
  board[squares[1]] = 'k';
  for (let i = 2; i < squares.length; i++) {
    const p = pieces[i - 2];
    board[squares[i]] = (p === 'p' || p === 'P') && (squares[i] >> 3 === 0 || squares[i] >> 3 === 7) ? 'N' : p;
  }
  const ranks: string[] = [];
  for (let r = 7; r >= 0; r--) ranks.push(board.slice(r * 8, r * 8 + 8).map((x) => x || '1').join('').replace(/1+/g, (ones) => String(ones.length)));
  return `${ranks.join('/')} ${side} - - ${halfmoves} 1`;
}

describe('the checkmate and stalemate test left to settle (the replayer) against running it at once', () => {
  it('gives the same outcome and draw claim after every turn, whatever the next turn holds', () => {
    let ends = 0;
    let shortcuts = 0;
    fc.assert(
      fc.property(game, ({ squares, pieces, side, choices, engine, halfmoves }) => {
        const e = ENGINES[engine];
        const fen = fenOf(squares, pieces, side, halfmoves);
        const a = GameState.start(e, fen);
        const b = GameState.start(e, fen);
        if (!a.ok || !b.ok) return;
        const now = a.value;
        const later = b.value;
        for (let t = 0; t < choices.length; t++) {
          const c = choices[t];
          const dice = [1, 2, 3, 4, 5, 6].slice(c % 6, (c % 6) + e.rules.dice.count).concat([6, 6]).slice(0, e.rules.dice.count) as Role[];
          const ended = now.outcome !== null;
          const turns = ended ? [] : now.legalTurns(dice, 50);
          const legal = turns.length === 0 ? [] : turns[c % turns.length].map((m) => now.uci(m));
          // What the deferred game is told comes next: the real moves, a move that is not legal
          // (often one that leaves the king in check), nothing, or text that is no move.
          const pseudo: Move[] = [];
          const n = generateMoves(later.pos, c % 11 === 0 ? ((later.pos.turn ^ 1) as Color) : later.pos.turn, ORTHODOX, pseudo, 0);
          const next = (c % 3 === 0 || c % 11 === 0) && n > 0 ? [makeUci(pseudo[(c >> 2) % n])] : c % 5 === 0 ? ['a1a1'] : c % 7 === 0 ? [] : legal;
          // Now and then the turn played is that move, legal or not (then both games stop at its finding).
          const moves = c % 13 === 0 && next.length > 0 ? next : legal;
          later.settle(next);
          if (next === legal && legal.length > 0) shortcuts++;
          expect(later.outcome).toEqual(now.outcome);
          expect(later.drawClaim).toEqual(now.drawClaim);
          if (ended) break;
          const v1 = now.playRecorded(dice, moves);
          const v2 = later.playRecorded(dice, moves, { deferNoMoveTest: true });
          expect(v2).toEqual(v1);
          if (!v1.ok) return;
        }
        // After the last turn nothing comes: the test runs in full on the first read.
        expect(later.outcome).toEqual(now.outcome);
        expect(later.drawClaim).toEqual(now.drawClaim);
        if (now.outcome && (now.outcome.reason === 'checkmate' || now.outcome.reason === 'stalemate')) ends++;
      }),
      // A fixed seed: the counts below say the cases that matter came up.
      { numRuns: 2500, seed: 12 },
    );
    expect(ends).toBeGreaterThan(10);
    expect(shortcuts).toBeGreaterThan(1000);
  });
});
