/**
 * The clean-room oracle's board: deliberately plain and slow, written from docs/rules.md §1
 * and shares no code with src/core or src/rules. Squares are 0–63 (a1 = 0, h8 = 63);
 * pieces are FEN letters ("P" white pawn, "k" black king, "" empty). Every move returns a
 * new state, nothing is ever undone.
 */

export type Side = 'w' | 'b';
export type PieceType = 'p' | 'n' | 'b' | 'r' | 'q' | 'k';

/** A castling right: the side and the file of its rook. */
export interface Right {
  side: Side;
  rookFile: number;
}

/** An en passant target: the square crossed, and the side whose pawn made the double step. */
export interface Target {
  square: number;
  side: Side;
}

export interface Board {
  squares: string[];
  turn: Side;
  rights: Right[];
  targets: Target[];
  halfmove: number;
  fullmove: number;
}

export interface OMove {
  from: number;
  to: number;
  /** Promotion piece type. */
  promo?: PieceType;
  /** Castling: `to` is the rook's square. */
  castle?: boolean;
  enPassant?: boolean;
  doubleStep?: boolean;
}

export const FILES = 'abcdefgh';
export const sq = (file: number, rank: number): number => rank * 8 + file;
export const fileOf = (s: number): number => s % 8;
export const rankOf = (s: number): number => Math.floor(s / 8);
export const name = (s: number): string => FILES[fileOf(s)] + String(rankOf(s) + 1);
export const parseSquareName = (t: string): number => sq(FILES.indexOf(t[0]), Number(t[1]) - 1);
export const sideOf = (piece: string): Side => (piece < 'a' ? 'w' : 'b');
export const typeOf = (piece: string): PieceType => piece.toLowerCase() as PieceType;
export const other = (s: Side): Side => (s === 'w' ? 'b' : 'w');
export const pieceOf = (side: Side, t: PieceType): string => (side === 'w' ? t.toUpperCase() : t);
const onBoard = (f: number, r: number): boolean => f >= 0 && f < 8 && r >= 0 && r < 8;
export const backRank = (side: Side): number => (side === 'w' ? 0 : 7);
export const lastRank = (side: Side): number => (side === 'w' ? 7 : 0);

/** The side's king; of two (a pawn promoted to a king, §13), the one on its own first rank, the one that may castle. */
export function kingSquare(b: Board, side: Side): number {
  const king = pieceOf(side, 'k');
  let first = -1;
  for (let s = 0; s < 64; s++) {
    if (b.squares[s] !== king) continue;
    if (rankOf(s) === backRank(side)) return s;
    if (first < 0) first = s;
  }
  return first;
}

// ---- FEN ------------------------------------------------------------------------

/** Reads the first six FEN fields (castling KQkq, X-FEN or Shredder letters). `underPiece`: a target may stand under a piece (§1, `enPassant.targetUnderPiece`). */
export function readFen(text: string, underPiece = false): Board {
  const [placement, turn, castling, ep, half = '0', full = '1'] = text.trim().split(/\s+/);
  const squares: string[] = new Array(64).fill('');
  placement.split('/').forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else squares[sq(file++, 7 - i)] = ch;
    }
  });
  const b: Board = { squares, turn: turn as Side, rights: [], targets: [], halfmove: Number(half), fullmove: Number(full) };
  if (castling !== '-') {
    for (const ch of castling) {
      const side = sideOf(ch);
      const rank = backRank(side);
      const king = fileOf(kingSquare(b, side));
      const rook = pieceOf(side, 'r');
      const lower = ch.toLowerCase();
      let rookFile = -1;
      if (lower === 'k') for (let f = 7; f > king && rookFile < 0; f--) if (squares[sq(f, rank)] === rook) rookFile = f;
      if (lower === 'q') for (let f = 0; f < king && rookFile < 0; f++) if (squares[sq(f, rank)] === rook) rookFile = f;
      if (lower !== 'k' && lower !== 'q') rookFile = FILES.indexOf(lower);
      b.rights.push({ side, rookFile });
    }
  }
  if (ep !== '-') {
    for (let i = 0; i < ep.length; i += 2) {
      const s = parseSquareName(ep.slice(i, i + 2));
      const side: Side = rankOf(s) === 2 ? 'w' : 'b';
      const pawnSq = side === 'w' ? s + 8 : s - 8;
      // A target whose pawn is gone (or whose square is taken) is stale: not a target.
      if (b.squares[pawnSq] === pieceOf(side, 'p') && (b.squares[s] === '' || underPiece)) b.targets.push({ square: s, side });
    }
  }
  return b;
}

/** Writes FEN (castling in Shredder letters, targets in square order), plus dice letters when given. */
export function writeFen(b: Board, dice?: readonly string[]): string {
  const rows: string[] = [];
  for (let r = 7; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = b.squares[sq(f, r)];
      if (p === '') empty++;
      else {
        if (empty) row += String(empty);
        empty = 0;
        row += p;
      }
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  const rights = [...b.rights]
    .sort((x, y) => (x.side === y.side ? y.rookFile - x.rookFile : x.side === 'w' ? -1 : 1))
    .map((r) => (r.side === 'w' ? FILES[r.rookFile].toUpperCase() : FILES[r.rookFile]))
    .join('');
  const targets = [...b.targets].sort((x, y) => x.square - y.square).map((t) => name(t.square)).join('');
  const fields = [rows.join('/'), b.turn, rights || '-', targets || '-', String(b.halfmove), String(b.fullmove)];
  if (dice) fields.push(dice.length === 0 ? '-' : dice.map((d) => (b.turn === 'w' ? d.toUpperCase() : d)).join(''));
  return fields.join(' ');
}

// ---- geometry ---------------------------------------------------------------------

const KNIGHT_STEPS = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
const KING_STEPS = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
const ROOK_DIRS = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const BISHOP_DIRS = [[1, 1], [1, -1], [-1, 1], [-1, -1]];

/** Squares a piece on `from` attacks (pawns: their two diagonals). */
export function attacksFrom(b: Board, from: number): number[] {
  const piece = b.squares[from];
  const t = typeOf(piece);
  const f0 = fileOf(from);
  const r0 = rankOf(from);
  const out: number[] = [];
  const leap = (steps: number[][]): void => {
    for (const [df, dr] of steps) if (onBoard(f0 + df, r0 + dr)) out.push(sq(f0 + df, r0 + dr));
  };
  const slide = (dirs: number[][]): void => {
    for (const [df, dr] of dirs) {
      for (let f = f0 + df, r = r0 + dr; onBoard(f, r); f += df, r += dr) {
        out.push(sq(f, r));
        if (b.squares[sq(f, r)] !== '') break;
      }
    }
  };
  if (t === 'p') {
    const dr = sideOf(piece) === 'w' ? 1 : -1;
    for (const df of [-1, 1]) if (onBoard(f0 + df, r0 + dr)) out.push(sq(f0 + df, r0 + dr));
  } else if (t === 'n') leap(KNIGHT_STEPS);
  else if (t === 'k') leap(KING_STEPS);
  else if (t === 'b') slide(BISHOP_DIRS);
  else if (t === 'r') slide(ROOK_DIRS);
  else if (t === 'q') slide([...ROOK_DIRS, ...BISHOP_DIRS]);
  return out;
}

/** Is `target` attacked by any piece of `by`? Looked for from the target outwards. */
export function attacked(b: Board, target: number, by: Side): boolean {
  const f0 = fileOf(target);
  const r0 = rankOf(target);
  const at = (f: number, r: number): string => (onBoard(f, r) ? b.squares[sq(f, r)] : '');
  const is = (p: string, t: PieceType): boolean => p !== '' && sideOf(p) === by && typeOf(p) === t;
  if (KNIGHT_STEPS.some(([df, dr]) => is(at(f0 + df, r0 + dr), 'n'))) return true;
  if (KING_STEPS.some(([df, dr]) => is(at(f0 + df, r0 + dr), 'k'))) return true;
  // A pawn of `by` attacks diagonally forward: it stands one rank behind the target, from its side.
  const back = by === 'w' ? -1 : 1;
  if (is(at(f0 - 1, r0 + back), 'p') || is(at(f0 + 1, r0 + back), 'p')) return true;
  const ray = (dirs: number[][], types: PieceType[]): boolean =>
    dirs.some(([df, dr]) => {
      for (let f = f0 + df, r = r0 + dr; onBoard(f, r); f += df, r += dr) {
        const p = b.squares[sq(f, r)];
        if (p !== '') return sideOf(p) === by && types.includes(typeOf(p));
      }
      return false;
    });
  return ray(ROOK_DIRS, ['r', 'q']) || ray(BISHOP_DIRS, ['b', 'q']);
}

export interface GenRules {
  promotionPieces: PieceType[];
  /** May en passant targets be taken now? */
  enPassantOpen: boolean;
  /** Castling must not start in, pass through or land on an attacked square. */
  castlingOrthodox: boolean;
}

/**
 * Every move of the piece on `from` by chess geometry alone (no dice, no check rule),
 * castling excluded. Promotions list one move per allowed piece; a pawn taking the king on
 * the last rank does not promote.
 */
export function pieceMoves(b: Board, from: number, g: GenRules): OMove[] {
  const piece = b.squares[from];
  const side = sideOf(piece);
  const out: OMove[] = [];
  if (typeOf(piece) !== 'p') {
    for (const to of attacksFrom(b, from)) {
      const q = b.squares[to];
      if (q === '' || sideOf(q) !== side) out.push({ from, to });
    }
    return out;
  }
  const dr = side === 'w' ? 1 : -1;
  const f0 = fileOf(from);
  const r0 = rankOf(from);
  const pawnTo = (to: number, captured: string): void => {
    if (rankOf(to) === lastRank(side) && typeOf(captured || 'x') !== 'k') {
      for (const promo of g.promotionPieces) out.push({ from, to, promo });
    } else out.push({ from, to });
  };
  const one = sq(f0, r0 + dr);
  if (b.squares[one] === '') {
    pawnTo(one, '');
    const two = sq(f0, r0 + 2 * dr);
    if (r0 === (side === 'w' ? 1 : 6) && b.squares[two] === '') out.push({ from, to: two, doubleStep: true });
  }
  for (const df of [-1, 1]) {
    if (!onBoard(f0 + df, r0 + dr)) continue;
    const to = sq(f0 + df, r0 + dr);
    const q = b.squares[to];
    if (q !== '' && sideOf(q) !== side) pawnTo(to, q);
    if (q === '' && g.enPassantOpen && b.targets.some((t) => t.square === to && t.side !== side)) out.push({ from, to, enPassant: true });
  }
  return out;
}

/** Castling moves of the side to move (king to g/c, rook to f/d, the path empty; docs/rules.md §1). */
export function castlingMoves(b: Board, g: GenRules): OMove[] {
  const side = b.turn;
  const rank = backRank(side);
  const kFrom = kingSquare(b, side);
  const out: OMove[] = [];
  if (kFrom < 0 || rankOf(kFrom) !== rank) return out;
  for (const right of b.rights) {
    if (right.side !== side) continue;
    const rFrom = sq(right.rookFile, rank);
    if (b.squares[rFrom] !== pieceOf(side, 'r')) continue;
    const kingside = right.rookFile > fileOf(kFrom);
    const kTo = sq(kingside ? 6 : 2, rank);
    const rTo = sq(kingside ? 5 : 3, rank);
    const lo = Math.min(kFrom, kTo, rFrom, rTo);
    const hi = Math.max(kFrom, kTo, rFrom, rTo);
    let clear = true;
    for (let s = lo; s <= hi; s++) if (s !== kFrom && s !== rFrom && b.squares[s] !== '') clear = false;
    if (!clear) continue;
    if (g.castlingOrthodox) {
      // Not out of, through or into attack: every square the king stands on or crosses, the landing square included.
      const step = kTo >= kFrom ? 1 : -1;
      let safe = !attacked(b, kFrom, other(side));
      for (let s = kFrom; safe && s !== kTo; ) {
        s += step;
        if (attacked(b, s, other(side))) safe = false;
      }
      if (!safe) continue;
    }
    out.push({ from: kFrom, to: rFrom, castle: true });
  }
  return out;
}

/**
 * The state after one micro-move; the side to move does not change (it is a micro-move).
 * `targetSurvives`: a target is not killed by a piece landing on it (§1, `enPassant.targetUnderPiece`).
 */
export function play(b: Board, m: OMove, castlingCounts: number, targetSurvives = false): Board {
  const s = [...b.squares];
  const side = b.turn;
  const moving = s[m.from];
  const captured = m.castle ? '' : m.enPassant ? s[m.to + (side === 'w' ? -8 : 8)] : s[m.to];
  const capturedSquare = m.enPassant ? m.to + (side === 'w' ? -8 : 8) : m.to;
  let rights = b.rights;
  let targets = b.targets;
  let halfmove = b.halfmove + 1;
  if (m.castle) {
    const rank = backRank(side);
    const kingside = fileOf(m.to) > fileOf(m.from);
    s[m.from] = '';
    s[m.to] = '';
    s[sq(kingside ? 6 : 2, rank)] = pieceOf(side, 'k');
    s[sq(kingside ? 5 : 3, rank)] = pieceOf(side, 'r');
    rights = rights.filter((r) => r.side !== side);
    halfmove = b.halfmove + castlingCounts;
    // The squares the king and rook land on: a target there dies (a piece landed on it).
    if (!targetSurvives) targets = targets.filter((t) => t.square !== sq(kingside ? 6 : 2, rank) && t.square !== sq(kingside ? 5 : 3, rank));
    return { ...b, squares: s, rights, targets, halfmove };
  }
  s[m.from] = '';
  if (m.enPassant) s[capturedSquare] = '';
  s[m.to] = m.promo ? pieceOf(side, m.promo) : moving;
  if (typeOf(moving) === 'p' || captured !== '') halfmove = 0;
  // Castling rights (docs/rules.md §1).
  if (rights.length > 0) {
    if (typeOf(moving) === 'k') rights = rights.filter((r) => r.side !== side);
    rights = rights.filter((r) => !(r.side === side && sq(r.rookFile, backRank(side)) === m.from));
    rights = rights.filter((r) => !(r.side !== side && sq(r.rookFile, backRank(r.side)) === capturedSquare));
    if (captured !== '' && typeOf(captured) === 'k') rights = rights.filter((r) => r.side !== sideOf(captured));
  }
  // En passant targets die when a piece lands on them (unless they survive it), their pawn is captured or moves again.
  const pawnOf = (t: Target): number => (t.side === 'w' ? t.square + 8 : t.square - 8);
  if (targets.length > 0) targets = targets.filter((t) => (targetSurvives || t.square !== m.to) && pawnOf(t) !== capturedSquare && pawnOf(t) !== m.from);
  if (m.doubleStep) targets = [...targets, { square: (m.from + m.to) / 2, side }];
  return { ...b, squares: s, rights, targets, halfmove };
}

/** UCI text of a move; castling as the king's two-square move or king-takes-rook. */
export function uci(m: OMove, notation: 'king-two-squares' | 'king-takes-rook'): string {
  if (m.castle && notation === 'king-two-squares') {
    const kTo = sq(fileOf(m.to) > fileOf(m.from) ? 6 : 2, rankOf(m.from));
    return name(m.from) + name(kTo);
  }
  return name(m.from) + name(m.to) + (m.promo ?? '');
}

/** Does the move take a king? */
export function takesKing(b: Board, m: OMove): boolean {
  if (m.castle) return false;
  const q = b.squares[m.to];
  return q !== '' && typeOf(q) === 'k';
}
