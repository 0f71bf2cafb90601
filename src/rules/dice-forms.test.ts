import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANY_DIE, generateMoves, type Move, moveFrom, moveTo, ORTHODOX, type Role, STANDARD_FEN } from '../core/index.js';
import { loadDialect } from '../dialects/index.js';
import { GameState } from './game.js';
import { diceOfRoll, stepMovableRoles } from './roll.js';
import type { Rules } from './rules.js';

const rulesOf = (name: string): Rules => {
  const d = loadDialect(name);
  if (!d.ok) throw new Error(name);
  return d.value.rules;
};

const start = (rules: Rules, fen = STANDARD_FEN): GameState => {
  const g = GameState.start(rules, fen);
  if (!g.ok) throw new Error(g.error.message);
  return g.value;
};

/** Judges one recorded turn (faces as recorded) the way the replayer does: the roll, then the moves. */
function judgeTurn(game: GameState, faces: number[], moves: string[]) {
  const roll = game.checkDice(faces);
  if (roll) return { ok: false as const, rule: roll.rule };
  const { dice, mayPass } = game.turnDice(faces);
  const v = game.playRecorded(dice, moves, { mayPass });
  return v.ok ? { ok: true as const } : { ok: false as const, rule: v.finding.rule };
}

const COUNT = rulesOf('gollon-count-die');
const PIECE_COUNT = rulesOf('gollon-piece-and-count');
const VCHESS = rulesOf('vchess-dice');
const VEGAS = rulesOf('vegas-fun-chess');

describe('reading a roll', () => {
  it('a count die gives its micro-moves of any piece; a piece die and a count die give that many dice of the piece', () => {
    expect(diceOfRoll(COUNT, [2])).toEqual([ANY_DIE, ANY_DIE]);
    expect(diceOfRoll(COUNT, [6])).toEqual([ANY_DIE, ANY_DIE, ANY_DIE, ANY_DIE]);
    expect(diceOfRoll(PIECE_COUNT, [2, 3])).toEqual([2, 2, 2]);
  });

  it("Vegas Fun Chess: die 1's 5 is a king and its 6 a pawn; die 2's 5 a queen and its 6 any move", () => {
    expect(diceOfRoll(VEGAS, [5, 5])).toEqual([6, 5]);
    expect(diceOfRoll(VEGAS, [6, 1])).toEqual([1, 1]);
    expect(diceOfRoll(VEGAS, [2, 6])).toEqual([2, 1, 2, 3, 4, 5, 6]);
  });
});

describe('gollon-count-die', () => {
  it('plays as many moves as the die says, by any pieces, and no fewer', () => {
    expect(judgeTurn(start(COUNT), [5], ['e2e4', 'g1f3', 'f1c4', 'e1g1'])).toEqual({ ok: true });
    expect(judgeTurn(start(COUNT), [4], ['e2e4', 'g1f3'])).toEqual({ ok: false, rule: 'maximum.fewer-dice' });
    expect(judgeTurn(start(COUNT), [1], ['e2e4', 'g1f3'])).toEqual({ ok: false, rule: 'turn.too-many-moves' });
  });
});

describe('gollon-piece-and-count', () => {
  it('one piece of the rolled type makes every move', () => {
    expect(judgeTurn(start(PIECE_COUNT), [2, 3], ['g1f3', 'f3g5', 'g5e6'])).toEqual({ ok: true });
    expect(judgeTurn(start(PIECE_COUNT), [2, 2], ['g1f3', 'b1c3'])).toEqual({ ok: false, rule: 'turn.other-piece' });
    expect(judgeTurn(start(PIECE_COUNT), [1, 2], ['e2e4', 'd2d4'])).toEqual({ ok: false, rule: 'turn.other-piece' });
    expect(judgeTurn(start(PIECE_COUNT), [1, 2], ['e2e3', 'e3e4'])).toEqual({ ok: true });
  });

  it('property: every legal turn is a chain, each micro-move starting where the one before it landed', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1 << 30 }), { minLength: 8, maxLength: 40 }), (seed) => {
        const game = start(PIECE_COUNT);
        let i = 0;
        const next = () => seed[i++ % seed.length];
        for (let t = 0; t < 12 && !game.outcome; t++) {
          const { dice } = game.turnDice([(next() % 6) + 1, (next() % 6) + 1]);
          const turns = game.legalTurns(dice, 200);
          for (const turn of turns) {
            for (let k = 1; k < turn.length; k++) {
              // Castling lands the king on the g- or c-file; every other move lands on its to-square.
              const prev = turn[k - 1];
              const landed = prev >> 15 === 3 ? (moveFrom(prev) & 56) + ((moveTo(prev) & 7) > (moveFrom(prev) & 7) ? 6 : 2) : moveTo(prev);
              expect(moveFrom(turn[k])).toBe(landed);
            }
          }
          game.play(turns[next() % turns.length]);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('vchess-dice', () => {
  it("White's first move is free (no die recorded); later turns roll one die of a type that passes the step test", () => {
    const game = start(VCHESS);
    expect(judgeTurn(game, [2], ['e2e4'])).toEqual({ ok: false, rule: 'dice.count' });
    expect(judgeTurn(game, [], ['e2e4'])).toEqual({ ok: true });
    // Black's bishops, rooks, queen and king have no step onto an empty or enemy square.
    expect(judgeTurn(game, [3], ['f8c5'])).toEqual({ ok: false, rule: 'dice.unmovable-type-rolled' });
    expect(judgeTurn(game, [2], ['g8f6'])).toEqual({ ok: true });
  });

  it('property: every type the step test passes has a move of that type (en passant, castling and promotion on a piece die aside)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1 << 30 }), { minLength: 8, maxLength: 40 }), (seed) => {
        const game = start(VCHESS);
        let i = 0;
        const next = () => seed[i++ % seed.length];
        for (let t = 0; t < 40 && !game.outcome; t++) {
          const movable = stepMovableRoles(game.pos);
          const buf: Move[] = [];
          for (const r of movable) expect(generateMoves(game.pos, game.pos.turn, { ...ORTHODOX, roles: 1 << r }, buf, 0)).toBeGreaterThan(0);
          const faces = game.freeTurn() ? [] : [movable[next() % movable.length]];
          const turns = game.legalTurns(game.turnDice(faces).dice, 500);
          game.play(turns[next() % turns.length]);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('vegas-fun-chess', () => {
  it('the optional face allows any move or a pass; other rolls do not allow a pass', () => {
    expect(judgeTurn(start(VEGAS), [4, 6], ['g1f3'])).toEqual({ ok: true });
    expect(judgeTurn(start(VEGAS), [4, 6], [])).toEqual({ ok: true });
    expect(judgeTurn(start(VEGAS), [1, 2], [])).toEqual({ ok: false, rule: 'pass.not-allowed' });
    // Die 1's 5 is a king, die 2's 5 a queen: neither can move from the start, so the turn passes.
    expect(judgeTurn(start(VEGAS), [5, 5], [])).toEqual({ ok: true });
  });

  it('a player in check, and the player who gave it, do not roll; only the checker may pass', () => {
    // White to move gives check with Bb5+.
    const game = start(VEGAS, 'rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3');
    expect(judgeTurn(game, [3, 3], ['f1b5'])).toEqual({ ok: true });
    expect(game.freeTurn()).toBe('in-check');
    expect(judgeTurn(game, [1, 1], ['c7c6'])).toEqual({ ok: false, rule: 'dice.count' });
    expect(judgeTurn(game, [], [])).toEqual({ ok: false, rule: 'pass.not-allowed' });
    expect(judgeTurn(game, [], ['b8d7'])).toEqual({ ok: true });
    expect(game.freeTurn()).toBe('after-check');
    expect(judgeTurn(game, [], [])).toEqual({ ok: true });
    expect(game.freeTurn()).toBeNull();
  });

  it('checked back after giving check: the in-check rule (no pass) by default, the pass with pass.whenCheckedBack', () => {
    // White's Ra8+ checks; Black's Qd8 blocks it and checks the king on h4 back.
    const fen = '4k3/8/8/3q4/7K/8/8/R7 w - - 0 10';
    const lenient = loadDialect('vegas-fun-chess', ['pass.whenCheckedBack=true']);
    if (!lenient.ok) throw new Error('vegas-fun-chess pass.whenCheckedBack=true');
    for (const [rules, passes] of [[VEGAS, false], [lenient.value.rules, true]] as const) {
      const game = start(rules, fen);
      expect(judgeTurn(game, [4, 1], ['a1a8'])).toEqual({ ok: true });
      expect(judgeTurn(game, [], ['d5d8'])).toEqual({ ok: true });
      expect(game.freeTurn()).toBe('in-check');
      expect(game.turnDice([]).mayPass).toBe(passes);
      expect(judgeTurn(game, [], [])).toEqual(passes ? { ok: true } : { ok: false, rule: 'pass.not-allowed' });
    }
    expect(loadDialect('wikipedia-two-dice', ['pass.whenCheckedBack=true']).ok).toBe(false);
  });

  it('a dice-less turn is any legal move', () => {
    const game = start(VEGAS, 'rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3');
    expect(game.freeTurn()).toBe('in-check');
    const moves = game.legalFirstMicroMoves(game.turnDice([]).dice).map((m) => game.uci(m)).sort();
    expect(moves).toEqual(['b8c6', 'b8d7', 'c7c6', 'c8d7', 'd8d7', 'e8e7']);
  });
});

describe('the new options cost the other dialects nothing', () => {
  it.each(['reference', 'dicechess-com', 'beturanga', 'brainking-one-die', 'wikipedia-two-dice', 'chess'])('%s reads a roll as it stands', (name) => {
    const game = start(rulesOf(name));
    expect(game.plainRolls).toBe(true);
    const faces = [1, 2, 3] as Role[];
    expect(game.turnDice(faces).dice).toBe(faces);
  });
});
