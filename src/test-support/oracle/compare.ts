import { judgeTurn, legalFirstMoves, legalTurns, positionAfter } from '../../api/rules.js';
import { loadDialect } from '../../dialects/index.js';
import type { Dialect } from '../../dialects/resolve.js';
import type { Die as Die_ } from '../../core/index.js';
import { GameState } from '../../rules/index.js';
import { attacked, type Board, kingSquare, other, type PieceType, readFen, writeFen } from './board.js';
import { dialectOptions, type TurnOptions, turnOptions } from './dialect.js';
import { endTurn, mutate, nearPromotion, pick, playable, randomPlay, type Rng, startBoard, thinOut, withTarget } from './positions.js';
import { after, allLines, type Die, judge, type Line, legalityTest, movableTypes, without } from './turns.js';

/**
 * One oracle sample: a dialect with option overrides, a DFEN with dice, and every way the
 * core's answers are held to the oracle's. A disagreement is returned as one paragraph
 * naming the dialect, the overrides, the DFEN (position and roll) and the differing turns.
 */

export interface Variant {
  dialect: string;
  overrides: Record<string, unknown>;
}

/** The option values the property tests vary, per kind of dialect (every value of each turn axis). */
const EACH_DIE: Record<string, unknown[]> = {
  maximum: ['path', 'path-all', 'micro-move', 'none'],
  maximumCounts: ['dice', 'moves'],
  'enPassant.window': ['reply-turn', 'first-micro-move'],
  'enPassant.die': ['pawn', 'any'],
  'enPassant.targetUnderPiece': ['dies', 'survives'],
  'castling.dice': ['king-and-rook', 'king', 'rook', 'king-or-rook'],
  'castling.attacks': ['ignored', 'orthodox'],
  check: ['none', 'orthodox'],
  kingCaptureExempt: [true, false],
  kingCaptureIgnoresCheck: [true, false],
  'promotion.die': ['pawn', 'die-piece'],
  'promotion.onKingDie': [true, false],
  'promotion.onKingDieBecomes': ['choice', 'king'],
  'promotion.pieces': [['q', 'r', 'b', 'n'], ['q'], ['n', 'q']],
  'pass.voluntary': [true, false],
  'draws.castlingCounts': [1, 2],
};
const ONE_MOVE: Record<string, unknown[]> = {
  'turn.doublesAnyMove': [true, false],
  'castling.dice': ['king-or-rook', 'king', 'rook'],
  'castling.attacks': ['ignored', 'orthodox'],
  kingCaptureIgnoresCheck: [true, false],
  'enPassant.die': ['pawn', 'any'],
  'promotion.die': ['pawn', 'die-piece'],
  'promotion.onKingDie': [true, false],
  'promotion.pieces': [['q', 'r', 'b', 'n'], ['q']],
  'pass.voluntary': [true, false],
};
const NO_DICE: Record<string, unknown[]> = {
  'castling.attacks': ['ignored', 'orthodox'],
  kingCaptureIgnoresCheck: [true, false],
  'promotion.pieces': [['q', 'r', 'b', 'n'], ['q']],
};
/** vchess.club's Dice (§13): one die of the movable types, the step test, the free first move, the second king. */
const VCHESS: Record<string, unknown[]> = {
  'dice.movableTest': ['step', 'allowed-move'],
  'turn.firstMoveFree': [true, false],
  'promotion.onKingDie': [true, false],
  'promotion.onKingDieBecomes': ['choice', 'king'],
  'castling.dice': ['king', 'king-or-rook', 'rook'],
  'castling.attacks': ['ignored', 'orthodox'],
  'enPassant.die': ['pawn', 'any'],
  'pass.voluntary': [true, false],
};
/** Gollon's count die (§14): `*` dice, the count per face, the maximum's readings under check. */
const COUNT_DIE: Record<string, unknown[]> = {
  maximum: ['path', 'path-all', 'micro-move', 'none'],
  maximumCounts: ['dice', 'moves'],
  'dice.counts': [[1, 2, 3, 4, 4, 4], [1, 1, 2, 2, 3, 3], [2, 2, 2, 2, 2, 2]],
  'enPassant.window': ['reply-turn', 'first-micro-move'],
  'castling.attacks': ['ignored', 'orthodox'],
  kingCaptureIgnoresCheck: [true, false],
  kingCaptureExempt: [true, false],
  'pass.voluntary': [true, false],
};
/** Gollon's piece die and count die (§14): one piece a turn. */
const PIECE_AND_COUNT: Record<string, unknown[]> = {
  ...COUNT_DIE,
  'dice.counts': [[1, 2, 3, 4, 5, 6], [1, 1, 2, 2, 3, 3]],
  'turn.onePiece': [true, false],
  'castling.dice': ['king', 'rook', 'king-or-rook'],
  'enPassant.die': ['pawn', 'any'],
  'promotion.die': ['pawn', 'die-piece'],
};
/** Vegas Fun Chess (§15): faces per die, an `any` face, who rolls, a pass on a free choice. */
const VEGAS: Record<string, unknown[]> = {
  'dice.whoRolls': ['not-in-or-after-check', 'every-turn'],
  'dice.facesByDie': [[[1, 2, 3, 4, 6, 1], [1, 2, 3, 4, 5, 'any']], [[6, 5, 4, 3, 2, 1], [1, 'any', 2, 'any', 3, 4]]],
  'pass.onFreeChoice': [true, false],
  'castling.dice': ['king-or-rook', 'king', 'rook'],
  'castling.attacks': ['ignored', 'orthodox'],
  'enPassant.die': ['pawn', 'any'],
  kingCaptureIgnoresCheck: [true, false],
};
export const DIALECTS = ['reference', 'dicechess-com', 'beturanga', 'wikipedia-two-dice', 'brainking-one-die', 'chess', 'vchess-dice', 'gollon-count-die', 'gollon-piece-and-count', 'vegas-fun-chess'];
const AXES: Record<string, Record<string, unknown[]>> = {
  reference: EACH_DIE,
  'dicechess-com': EACH_DIE,
  beturanga: EACH_DIE,
  'wikipedia-two-dice': ONE_MOVE,
  'brainking-one-die': ONE_MOVE,
  chess: NO_DICE,
  'vchess-dice': VCHESS,
  'gollon-count-die': COUNT_DIE,
  'gollon-piece-and-count': PIECE_AND_COUNT,
  'vegas-fun-chess': VEGAS,
};

const overrideText = (o: Record<string, unknown>): string[] => Object.entries(o).map(([k, v]) => `${k}=${JSON.stringify(v)}`);

const loaded = new Map<string, { core: Dialect; oracle: TurnOptions } | null>();
/** The core's dialect and the oracle's reading of the same variant; null when the core refuses the combination. */
export function load(v: Variant): { core: Dialect; oracle: TurnOptions } | null {
  const key = `${v.dialect} ${overrideText(v.overrides).join(' ')}`;
  if (!loaded.has(key)) {
    const core = loadDialect(v.dialect, overrideText(v.overrides));
    loaded.set(key, core.ok ? { core: core.value, oracle: turnOptions(dialectOptions(v.dialect, v.overrides)) } : null);
  }
  return loaded.get(key)!;
}

/** A random variant: each axis overridden with probability 0.35. */
export function randomVariant(rng: Rng, dialect = pick(rng, DIALECTS)): Variant {
  const overrides: Record<string, unknown> = {};
  for (const [axis, values] of Object.entries(AXES[dialect])) if (rng() < 0.35) overrides[axis] = pick(rng, values);
  return { dialect, overrides };
}

/**
 * The variants of one run: for every dialect, every value of every axis it varies (with the
 * other axes drawn at random), plus as many fully random ones; combinations the core refuses
 * as a dialect are drawn again. Loading a variant is costly, so a run draws from these.
 */
export function variantsOfRun(rng: Rng): Variant[] {
  const out: Variant[] = [];
  for (const dialect of DIALECTS) {
    const wanted: Array<[string, unknown] | null> = Object.entries(AXES[dialect]).flatMap(([axis, values]) => values.map((v) => [axis, v] as [string, unknown]));
    for (const w of [...wanted, ...wanted.map(() => null), null]) {
      for (let tries = 0; tries < 50; tries++) {
        const v = randomVariant(rng, dialect);
        if (w) v.overrides[w[0]] = w[1];
        if (load(v)) {
          out.push(v);
          break;
        }
      }
    }
  }
  return out;
}

/** Games of random play, one per kind of start, each advanced one turn per position drawn. */
const paths = new Map<string, { board: Board; turns: number }>();

/**
 * A random position for a variant: the next turn of a random game from the classic start
 * or a Chess960 start (where the dialect writes castling king-takes-rook), then perhaps
 * thinned out, mutated, or given pawns about to promote.
 */
export function randomBoard(rng: Rng, o: TurnOptions): Board {
  for (;;) {
    const kind960 = o.castlingNotation === 'king-takes-rook' && rng() < 0.6;
    const key = kind960 ? '960' : 'classic';
    let path = paths.get(key);
    if (!path || path.turns > 30 || !playable(path.board)) {
      path = { board: startBoard(kind960 ? Math.floor(rng() * 960) : null), turns: 0 };
      paths.set(key, path);
    }
    path.board = randomPlay(path.board, 1, rng);
    path.turns++;
    let b = path.board;
    if (rng() < 0.25) b = randomPlay(b, 0, rng);
    // Three-dice turns grow as the cube of the moves: most of their positions are thinned out.
    if (o.eachDie && rng() < 0.97) b = thinOut(b, 3 + Math.floor(rng() * 9), rng);
    if (rng() < 0.4) for (let i = 0, n = 1 + Math.floor(rng() * 12); i < n; i++) b = mutate(b, rng);
    if (rng() < 0.25) b = nearPromotion(b, rng);
    if (rng() < 0.3) b = withTarget(b, rng, o.targetSurvives);
    if (rng() < 0.1) b = endTurn(b);
    if (playable(b)) return b;
  }
}

const FACES: PieceType[] = ['p', 'n', 'b', 'r', 'q', 'k'];
export function randomDice(rng: Rng, o: TurnOptions): Die[] {
  // A count die's micro-moves (§14): one or two `*` (a turn's lines grow as the power of its dice).
  if (o.reads === 'count') return rng() < 0.6 ? ['*'] : ['*', '*'];
  // A piece die and a count die: one to three dice of one type.
  if (o.reads === 'piece-and-count') return new Array<Die>(1 + Math.floor(rng() * 3)).fill(pick(rng, FACES));
  // An `any` face (§15): every type beside the other die's.
  if (o.facesByDie?.some((d) => d.includes('any')) && rng() < 0.25) return [pick(rng, FACES), ...FACES];
  // Each-die dialects: a full roll at a turn's start, or the one or two dice left inside a turn.
  const n = o.diceCount === 0 ? 0 : o.eachDie && rng() < 0.5 ? 1 + Math.floor(rng() * (o.diceCount - 1)) : o.diceCount;
  return Array.from({ length: n }, () => pick(rng, FACES));
}

const LETTER = ' pnbrqk';

/**
 * What recorded faces give a turn (§13–§15), the oracle's reading: no roll on White's free first
 * move or (Vegas) in check, every type; a count die's `*`s; a piece die's type as often as the count
 * die says; each die's face (its own faces or dice.faces), an `any` face every type and a pass.
 * The free turn after giving check needs the game's last turn: the games' tests hold it.
 */
export function readRoll(b: Board, faces: number[], o: TurnOptions): { dice: string; mayPass: boolean } {
  const sorted = (ds: string[]): string => ds.sort((x, y) => (x === '*' ? 7 : LETTER.indexOf(x)) - (y === '*' ? 7 : LETTER.indexOf(y))).join('');
  const all = 'pnbrqk';
  if (o.freeFirstMove && b.fullmove === 1 && b.turn === 'w') return { dice: all, mayPass: false };
  const king = kingSquare(b, b.turn);
  if (o.noRollInCheck && king >= 0 && attacked(b, king, other(b.turn))) return { dice: all, mayPass: false };
  if (o.reads === 'count') return { dice: '*'.repeat(o.counts[faces[0] - 1]), mayPass: false };
  if (o.reads === 'piece-and-count') return { dice: LETTER[o.faces[faces[0] - 1]].repeat(o.counts[faces[1] - 1]), mayPass: false };
  const out: string[] = [];
  let free = false;
  faces.forEach((f, i) => {
    const face = (o.facesByDie?.[i] ?? o.faces)[f - 1];
    if (face === 'any') {
      out.push(...all);
      free = true;
    } else out.push(LETTER[face]);
  });
  return { dice: sorted(out), mayPass: free && o.passOnFreeChoice };
}

const show = (t: readonly string[]): string => (t.length === 0 ? 'pass' : t.join(','));
const sortedTurns = (ts: readonly (readonly string[])[]): string[] => ts.map(show).sort();

function setDiff(a: string[], b: string[]): { onlyA: string[]; onlyB: string[] } {
  const sa = new Set(a);
  const sb = new Set(b);
  return { onlyA: a.filter((x) => !sb.has(x)), onlyB: b.filter((x) => !sa.has(x)) };
}

export interface Sample {
  variant: Variant;
  board: Board;
  dice: Die[];
}

/** Recorded turns to judge: every legal one, illegal complete lines, prefixes, a pass and an extended turn. */
function recordedTurns(lines: Line[], legal: Line[], rng: Rng, isLegal: (l: Line) => boolean): string[][] {
  const some = <T>(xs: T[], n: number): T[] => Array.from({ length: Math.min(n, xs.length) }, () => pick(rng, xs));
  const out: string[][] = some(legal, 3).map((l) => l.ucis);
  for (const l of some(lines.filter((x) => !isLegal(x)), 3)) out.push(l.ucis);
  for (let i = 0; i < 2 && lines.length > 0; i++) {
    const l = pick(rng, lines);
    if (l.ucis.length > 1) out.push(l.ucis.slice(0, 1 + Math.floor(rng() * (l.ucis.length - 1))));
  }
  out.push([]);
  if (lines.length > 1) out.push([...pick(rng, lines).ucis, pick(rng, lines).ucis[0]]);
  // A promotion to another piece (a king too, §13): the dice may not pay for it.
  const promoting = lines.filter((l) => l.ucis.some((u) => u.length === 5));
  if (promoting.length > 0) {
    const l = pick(rng, promoting);
    const i = l.ucis.findIndex((u) => u.length === 5);
    out.push([...l.ucis.slice(0, i), l.ucis[i].slice(0, 4) + pick(rng, ['q', 'r', 'b', 'n', 'k']), ...l.ucis.slice(i + 1)]);
  }
  return out;
}

/** Holds the core to the oracle on one sample; returns the disagreements (empty: agreement). */
export function compare(s: Sample, rng: Rng): string[] {
  const pair = load(s.variant);
  if (!pair) return [];
  const { core, oracle: o } = pair;
  const dfen = writeFen(s.board, s.dice);
  const where = `dialect ${s.variant.dialect}${Object.keys(s.variant.overrides).length ? ` --set ${overrideText(s.variant.overrides).join(' --set ')}` : ''}\n  DFEN ${dfen}`;
  const problems: string[] = [];
  const say = (what: string): void => {
    problems.push(`${where}\n  ${what}`);
  };

  const lines = allLines(s.board, s.dice, o);
  const isLegal = legalityTest(lines, o);
  const legal = lines.filter(isLegal);
  const oracleTurns = lines.length === 0 ? ['pass'] : legal.map((l) => l.key).sort();

  // turns
  // The library lists at most 100,000 turns by default; three queen dice among many queens give more.
  const coreTurns = legalTurns(core, dfen, { limit: oracleTurns.length + 1 });
  if (!coreTurns.ok) {
    say(`the core cannot read the position: ${coreTurns.error.message}`);
    return problems;
  }
  const d = setDiff(oracleTurns, sortedTurns(coreTurns.value));
  if (d.onlyA.length || d.onlyB.length) {
    say(`legal turns differ: oracle only [${d.onlyA.slice(0, 8).join('] [')}]; core only [${d.onlyB.slice(0, 8).join('] [')}] (oracle ${oracleTurns.length}, core ${coreTurns.value.length})`);
  }

  // first micro-moves
  const firsts = [...new Set(legal.map((l) => l.ucis[0]))].sort();
  const coreFirsts = legalFirstMoves(core, dfen);
  if (coreFirsts.ok) {
    const f = setDiff(firsts, coreFirsts.value);
    if (f.onlyA.length || f.onlyB.length) say(`legal first micro-moves differ: oracle only ${f.onlyA.join(' ')}; core only ${f.onlyB.join(' ')}`);
  }

  // check: judging recorded turns
  for (const rec of recordedTurns(lines, legal, rng, isLegal)) {
    const want = judge(s.board, s.dice, rec, o, lines);
    const got = judgeTurn(core, dfen, rec);
    if (!got.ok) {
      say(`judging [${show(rec)}]: the core cannot read it: ${got.error.message}`);
      continue;
    }
    if (got.value.legal !== want) {
      say(`judging [${show(rec)}]: oracle ${want ? 'legal' : 'illegal'}, core ${got.value.legal ? 'legal' : `illegal (${got.value.rule}: ${got.value.message})`}`);
      continue;
    }
    const line = lines.find((l) => l.key === rec.join(','));
    if (got.value.legal && line && o.eachDie && (got.value.kingCaptured !== line.capturesKing || got.value.diceSpent !== line.dice)) {
      say(`judging [${show(rec)}]: oracle spends ${line.dice} dice${line.capturesKing ? ', king taken' : ''}; core ${got.value.diceSpent}${got.value.kingCaptured ? ', king taken' : ''}`);
    }
  }

  // the position after a turn's micro-moves
  if (lines.length > 0) {
    const l = pick(rng, lines);
    const got = positionAfter(core, dfen, l.ucis);
    const left = without(s.dice, l.spent).sort((x, y) => order(x) - order(y));
    // One-move dialects spend the turn, not dice: only the board is compared there.
    const want = writeFen(after(s.board, l.moves, o), o.eachDie ? left : undefined);
    if (!got.ok) say(`position after [${show(l.ucis)}]: the core refuses it: ${got.error.message}`);
    else if (writeFen(readFen(got.value, o.targetSurvives), o.eachDie ? diceOf(got.value) : undefined) !== want) say(`position after [${show(l.ucis)}]: oracle ${want}, core ${got.value}`);
  }

  // the next position once a legal turn is played and ended (the targets it leaves, the side to move)
  if (legal.length > 0 && legal[0].moves.length > 0) {
    const l = pick(rng, legal);
    const game = GameState.start(core.rules, writeFen(s.board));
    if (game.ok) {
      const v = game.value.playRecorded(coreDice(s.dice), l.ucis);
      if (v.ok && !game.value.outcome) {
        const want = writeFen(endTurn(after(s.board, l.moves, o))).split(' ').slice(0, 4).join(' ');
        const got = writeFen(readFen(game.value.dfen(), o.targetSurvives)).split(' ').slice(0, 4).join(' ');
        if (want !== got) say(`position after the turn [${show(l.ucis)}] ends: oracle ${want}, core ${got}`);
      } else if (!v.ok) say(`playing the legal turn [${show(l.ucis)}]: the core refuses it: ${v.finding.message}`);
    }
  }

  // the roll: what recorded faces give the turn (faces per die, count dice, free turns, a pass on a free choice)
  if (o.diceCount > 0) {
    const faces = Array.from({ length: o.diceCount }, () => 1 + Math.floor(rng() * 6));
    // White's first turn now and then, for the free first move.
    const b = s.board.turn === 'w' && rng() < 0.3 ? { ...s.board, fullmove: 1 } : s.board;
    const game = GameState.start(core.rules, writeFen(b));
    if (game.ok) {
      const want = readRoll(b, faces, o);
      const t = game.value.turnDice(faces);
      const got = { dice: t.dice.map((d) => (d === 7 ? '*' : FACES[d - 1])).sort((x, y) => (x === '*' ? 7 : FACES.indexOf(x as PieceType)) - (y === '*' ? 7 : FACES.indexOf(y as PieceType))).join(''), mayPass: t.mayPass };
      if (want.dice !== got.dice || want.mayPass !== got.mayPass) say(`faces ${faces.join(',')} (${writeFen(b).split(' ').slice(4).join(' ')}): oracle gives ${want.dice || '-'}${want.mayPass ? ' or a pass' : ''}, core ${got.dice || '-'}${got.mayPass ? ' or a pass' : ''}`);
    }
  }

  // movable types (the one-die draw that never rolls a type that cannot move)
  if (o.movableTypes) {
    const game = GameState.start(core.rules, writeFen(s.board));
    if (game.ok) {
      const want = movableTypes(s.board, o).join('');
      const got = game.value.movableFaces().map((r) => FACES[r - 1]).join('');
      if (want !== got) say(`movable types differ: oracle ${want || '-'}, core ${got || '-'}`);
    }
  }
  return problems;
}

const coreDice = (dice: Die[]): Die_[] => dice.map((d) => (d === '*' ? 7 : FACES.indexOf(d) + 1) as Die_);
const order = (d: Die): number => (d === '*' ? 6 : FACES.indexOf(d));

function diceOf(dfen: string): Die[] {
  const f = dfen.trim().split(/\s+/)[6];
  if (!f || f === '-') return [];
  return [...f.toLowerCase()].map((c) => c as Die).sort((x, y) => order(x) - order(y));
}
