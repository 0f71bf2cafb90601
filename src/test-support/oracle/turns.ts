import {
  attacked,
  type Board,
  castlingMoves,
  fileOf,
  kingSquare,
  lastRank,
  type OMove,
  other,
  type PieceType,
  pieceMoves,
  play,
  rankOf,
  sideOf,
  sq,
  takesKing,
  typeOf,
  uci,
} from './board.js';
import type { TurnOptions } from './dialect.js';

/**
 * The oracle's turn rules, docs/rules.md §3 and §12 applied by definition: list every line
 * of micro-moves, then keep the ones each reading of the maximum allows. Slow on purpose.
 */

/** Dice in value order, pawn lowest. */
const VALUE: PieceType[] = ['p', 'n', 'b', 'r', 'q', 'k'];

/** A die of a turn's pool: a piece type, or `*`, a die that pays one micro-move of any piece (a count die's, §14). */
export type Die = PieceType | '*';

/** An allowed micro-move and the dice it spends. */
export interface Step {
  move: OMove;
  spent: Die[];
}

export const without = (dice: Die[], spent: Die[]): Die[] => {
  const left = [...dice];
  for (const d of spent) left.splice(left.indexOf(d), 1);
  return left;
};

/** The die that pays a pawn's move to the last rank under the die-piece rule (§7, §12, §13), or null. */
function lastRankPayer(dice: Die[], m: OMove, o: TurnOptions): PieceType | null {
  // §13: only the king die makes a king, and then it makes nothing else.
  if (m.promo === 'k') return dice.includes('k') ? 'k' : null;
  if (dice.includes('p')) return 'p';
  if (m.promo && dice.includes(m.promo)) return m.promo;
  if (!m.promo) for (const d of ['n', 'b', 'r', 'q'] as const) if (dice.includes(d)) return d;
  if (dice.includes('k') && o.promotionOnKingDie && (!m.promo || !o.promotionKing)) return 'k';
  return null;
}

/** The dice castling spends, or null when the dice do not pay for it (§12.1). */
function castlingPayment(dice: Die[], o: TurnOptions): Die[] | null {
  switch (o.castlingDice) {
    case 'king-and-rook':
      return dice.includes('k') && dice.includes('r') ? ['k', 'r'] : null;
    case 'king':
      return dice.includes('k') ? ['k'] : null;
    case 'rook':
      return dice.includes('r') ? ['r'] : null;
    case 'king-or-rook':
      return dice.includes('k') ? ['k'] : dice.includes('r') ? ['r'] : null;
    case 'none':
      return [];
  }
}

/** Does the check rule forbid this move (§12.1)? */
function checkForbids(b: Board, m: OMove, o: TurnOptions): boolean {
  if (o.check !== 'orthodox') return false;
  if (takesKing(b, m) && o.kingCaptureIgnoresCheck) return false;
  const after = play(b, m, o.castlingCounts, o.targetSurvives);
  const k = kingSquare(after, b.turn);
  return k >= 0 && attacked(after, k, other(b.turn));
}

/**
 * Every micro-move the dice allow at micro-move index `index` of the turn, with the dice each
 * spends. `from`: one piece a turn (§14), the square the turn's piece stands on (-1: any piece).
 */
export function allowedSteps(b: Board, dice: Die[], index: number, o: TurnOptions, from = -1): Step[] {
  const doubles = new Set(dice).size < dice.length;
  const anyType = o.diceCount === 0 || (!o.eachDie && o.doublesAnyMove && doubles);
  // A `*` die pays any one micro-move, castling and en passant included (§14).
  const wild = dice.includes('*');
  const gen = {
    promotionPieces: o.promotionKing && o.promotionDie === 'die-piece' ? [...o.promotionPieces, 'k' as const] : o.promotionPieces,
    enPassantOpen: o.enPassantWindow === 'reply-turn' || index === 0,
    castlingOrthodox: o.castlingOrthodox,
  };
  const out: Step[] = [];
  if (o.diceCount > 0 && dice.length === 0) return out;
  for (let s = 0; s < 64; s++) {
    const piece = b.squares[s];
    if (piece === '' || sideOf(piece) !== b.turn || (from >= 0 && s !== from)) continue;
    const t = typeOf(piece);
    // A piece whose type no die pays for has no allowed move (pawns may still promote or take en passant on another die).
    if (!anyType && !wild && t !== 'p' && !dice.includes(t)) continue;
    for (const m of pieceMoves(b, s, gen)) {
      let spent: Die[] | null;
      if (wild) {
        spent = m.promo === 'k' ? null : ['*'];
      } else if (t === 'p' && o.promotionDie === 'die-piece' && rankOf(m.to) === lastRank(b.turn)) {
        const payer = lastRankPayer(dice, m, o);
        spent = payer ? [payer] : null;
      } else if (m.promo === 'k') {
        spent = null;
      } else if (anyType || dice.includes(t)) {
        spent = [t];
      } else if (m.enPassant && o.enPassantDie === 'any') {
        spent = [VALUE.find((d) => dice.includes(d)) as PieceType];
      } else {
        spent = null;
      }
      if (spent) out.push({ move: m, spent });
    }
  }
  const castlingPaid = anyType ? [] : wild ? ['*' as const] : castlingPayment(dice, o);
  if (castlingPaid) for (const m of castlingMoves(b, gen)) if (from < 0 || m.from === from) out.push({ move: m, spent: castlingPaid });
  return out.filter((st) => !checkForbids(b, st.move, o)).map((st) => (o.eachDie ? st : { ...st, spent: [] }));
}

/** What a step counts toward the maximum (§3): its dice, or one micro-move that spends any. */
const counts = (st: Step, o: TurnOptions): number => (o.maximumCounts === 'moves' ? Math.min(1, st.spent.length) : st.spent.length);

/** A line of micro-moves from the turn's start (§3). */
export interface Line {
  moves: OMove[];
  ucis: string[];
  /** The UCI micro-moves joined by commas. */
  key: string;
  dice: number;
  /** What the maximum counts of the line (§3): `dice`, or its micro-moves. */
  count: number;
  capturesKing: boolean;
  /** The dice the line spent. */
  spent: Die[];
  /** L before each micro-move, and what that micro-move counts: for the micro-move reading. */
  steps: Array<{ before: number; spent: number; capture: boolean }>;
}

interface Node {
  step: Step | null;
  capture: boolean;
  children: Node[];
  /** L: the most any line from here can count, king-capture lines counted up to the capture. */
  most: number;
}

/** Where a micro-move leaves its piece: the king's square after castling (§14's one piece a turn). */
const landing = (m: OMove): number => (m.castle ? sq(fileOf(m.to) > fileOf(m.from) ? 6 : 2, rankOf(m.from)) : m.to);

function grow(b: Board, dice: Die[], index: number, o: TurnOptions, from = -1): Node[] {
  const children: Node[] = [];
  for (const st of allowedSteps(b, dice, index, o, from)) {
    if (takesKing(b, st.move)) {
      children.push({ step: st, capture: true, children: [], most: 0 });
      continue;
    }
    const sub = o.eachDie ? grow(play(b, st.move, o.castlingCounts, o.targetSurvives), without(dice, st.spent), index + 1, o, o.onePiece ? landing(st.move) : -1) : [];
    const most = Math.max(0, ...sub.map((c) => counts(c.step!, o) + c.most));
    children.push({ step: st, capture: false, children: sub, most });
  }
  return children;
}

/** Every complete line (§3): no die left, nothing allowed, or the king taken. [] when nothing moves at all. */
export function allLines(b: Board, dice: Die[], o: TurnOptions): Line[] {
  const roots = grow(b, dice, 0, o);
  const out: Line[] = [];
  const walk = (nodes: Node[], before: number, prefix: Line): void => {
    for (const n of nodes) {
      const st = n.step!;
      const line: Line = {
        moves: [...prefix.moves, st.move],
        ucis: [...prefix.ucis, uci(st.move, o.castlingNotation)],
        key: '',
        dice: prefix.dice + st.spent.length,
        count: prefix.count + counts(st, o),
        spent: [...prefix.spent, ...st.spent],
        capturesKing: n.capture,
        steps: [...prefix.steps, { before, spent: counts(st, o), capture: n.capture }],
      };
      if (n.children.length === 0) out.push({ ...line, key: line.ucis.join(',') });
      else walk(n.children, n.most, line);
    }
  };
  const rootMost = Math.max(0, ...roots.map((c) => counts(c.step!, o) + c.most));
  walk(roots, rootMost, { moves: [], ucis: [], key: '', dice: 0, count: 0, capturesKing: false, spent: [], steps: [] });
  return out;
}

/** The test a complete line must pass to be a legal turn under the dialect's reading of the maximum (§3). */
export function legalityTest(lines: Line[], o: TurnOptions): (line: Line) => boolean {
  if (!o.eachDie || o.maximum === 'none') return () => true;
  const exempt = o.kingCaptureExempt;
  if (o.maximum === 'micro-move') {
    return (line) =>
      line.steps.every((s, i) => {
        if (s.capture && exempt) return true;
        const after = i + 1 < line.steps.length ? line.steps[i + 1].before : 0;
        return s.spent + after === s.before;
      });
  }
  const counted = o.maximum === 'path-all' || !exempt ? lines : lines.filter((l) => !l.capturesKing);
  const most = Math.max(-1, ...counted.map((l) => l.count));
  return (line) => (line.capturesKing && exempt) || line.count === most;
}

/** The legal turns (`[[]]`: the forced pass). */
export function legalTurns(b: Board, dice: Die[], o: TurnOptions): Line[] {
  const lines = allLines(b, dice, o);
  if (lines.length === 0) return [{ moves: [], ucis: [], key: '', dice: 0, count: 0, capturesKing: false, spent: [], steps: [] }];
  return lines.filter(legalityTest(lines, o));
}

/** Is a recorded turn (UCI micro-moves) legal (§12.3)? */
export function judge(b: Board, dice: Die[], recorded: string[], o: TurnOptions, lines = allLines(b, dice, o)): boolean {
  if (recorded.length === 0 && o.passVoluntary) return true;
  if (lines.length === 0) return recorded.length === 0;
  const key = recorded.join(',');
  if (o.eachDie && o.maximum === 'none') {
    return recorded.length > 0 && lines.some((l) => l.key === key || l.key.startsWith(`${key},`));
  }
  const legal = legalityTest(lines, o);
  return lines.some((l) => l.key === key && legal(l));
}

/** The faces (as piece types) that have an allowed micro-move on a one-die roll (§12.4), or that pass vchess's step test (§13). */
export function movableTypes(b: Board, o: TurnOptions): PieceType[] {
  if (o.stepTest) return VALUE.filter((t) => b.squares.some((p, s) => p !== '' && sideOf(p) === b.turn && typeOf(p) === t && stepsOut(b, s)));
  return VALUE.filter((t) => allowedSteps(b, [t], 0, o).length > 0);
}

const KNIGHT_STEPS = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
const DIAGONAL_STEPS = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
const LINE_STEPS = [[1, 0], [-1, 0], [0, 1], [0, -1]];

/**
 * §13's "can move": a pawn with the square ahead empty or an enemy piece diagonally ahead;
 * another piece with one step of its kind (a knight's jump, one square along its lines) onto an
 * empty square or an enemy piece.
 */
function stepsOut(b: Board, s: number): boolean {
  const piece = b.squares[s];
  const side = sideOf(piece);
  const f = fileOf(s);
  const r = rankOf(s);
  const at = (df: number, dr: number): string | null => (f + df < 0 || f + df > 7 || r + dr < 0 || r + dr > 7 ? null : b.squares[sq(f + df, r + dr)]);
  const t = typeOf(piece);
  if (t === 'p') {
    const dr = side === 'w' ? 1 : -1;
    const enemy = (x: string | null): boolean => x !== null && x !== '' && sideOf(x) !== side;
    return at(0, dr) === '' || enemy(at(-1, dr)) || enemy(at(1, dr));
  }
  const steps = t === 'n' ? KNIGHT_STEPS : t === 'b' ? DIAGONAL_STEPS : t === 'r' ? LINE_STEPS : [...DIAGONAL_STEPS, ...LINE_STEPS];
  return steps.some(([df, dr]) => {
    const x = at(df, dr);
    return x !== null && (x === '' || sideOf(x) !== side);
  });
}

/** The board after a line's micro-moves. */
export function after(b: Board, moves: OMove[], o: TurnOptions): Board {
  return moves.reduce((x, m) => play(x, m, o.castlingCounts, o.targetSurvives), b);
}
