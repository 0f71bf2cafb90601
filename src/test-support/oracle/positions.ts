import {
  backRank,
  type Board,
  castlingMoves,
  FILES,
  fileOf,
  kingSquare,
  other,
  type PieceType,
  pieceMoves,
  play,
  rankOf,
  readFen,
  sideOf,
  sq,
  takesKing,
  typeOf,
} from './board.js';

/**
 * Positions for the oracle's property tests, made with the oracle's own board: random play
 * from the classic start or a Chess960 start (docs/rules.md §5), then random mutations
 * that keep the position readable (one king each, no pawn on a last rank, rights and en
 * passant targets consistent).
 */

/** A small seeded generator (mulberry32): the property tests print the seed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export type Rng = () => number;
export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];

const PAIRS = [[0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]];

/** The back rank of Chess960 start `n` (Scharnagl numbering, docs/rules.md §5). */
export function backRankOf(n: number): string {
  const rank: string[] = new Array(8).fill('');
  rank[2 * (n % 4) + 1] = 'B';
  n = Math.floor(n / 4);
  rank[2 * (n % 4)] = 'B';
  n = Math.floor(n / 4);
  const empties = (): number[] => rank.map((p, f) => (p === '' ? f : -1)).filter((f) => f >= 0);
  rank[empties()[n % 6]] = 'Q';
  n = Math.floor(n / 6);
  const five = empties();
  const [a, b] = PAIRS[n];
  rank[five[a]] = 'N';
  rank[five[b]] = 'N';
  const three = empties();
  rank[three[0]] = 'R';
  rank[three[1]] = 'K';
  rank[three[2]] = 'R';
  return rank.join('');
}

export function startBoard(chess960: number | null): Board {
  const rank = chess960 === null ? 'RNBQKBNR' : backRankOf(chess960);
  const rooks = [...rank].map((p, f) => (p === 'R' ? FILES[f] : '')).join('');
  return readFen(`${rank.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${rank} w ${rooks.toUpperCase()}${rooks} - 0 1`);
}

const GEN = { promotionPieces: ['q', 'r', 'b', 'n'] as PieceType[], enPassantOpen: true, castlingOrthodox: false };

/** One random micro-move of the side to move by geometry alone, never taking a king; null when none. */
function randomMicroMove(b: Board, rng: Rng): Board | null {
  const moves = [];
  for (let s = 0; s < 64; s++) if (b.squares[s] !== '' && sideOf(b.squares[s]) === b.turn) moves.push(...pieceMoves(b, s, GEN));
  moves.push(...castlingMoves(b, GEN));
  const safe = moves.filter((m) => !takesKing(b, m));
  return safe.length === 0 ? null : play(b, pick(rng, safe), 1);
}

/** Ends a turn: the opponent's targets (those this side could take) die, the other side moves. */
export function endTurn(b: Board): Board {
  return { ...b, targets: b.targets.filter((t) => t.side === b.turn), turn: other(b.turn), fullmove: b.fullmove + (b.turn === 'b' ? 1 : 0) };
}

/** Random play: `turns` turns of 1–3 random micro-moves; with 0 turns, one micro-move into a turn (own targets then stand beside the opponent's). */
export function randomPlay(start: Board, turns: number, rng: Rng): Board {
  let b = start;
  if (turns === 0) return randomMicroMove(b, rng) ?? b;
  for (let t = 0; t < turns; t++) {
    const k = 1 + Math.floor(rng() * 3);
    for (let i = 0; i < k; i++) b = randomMicroMove(b, rng) ?? b;
    b = endTurn(b);
  }
  return b;
}

/** Rights and targets that no longer fit the board are dropped (as a FEN writer would). */
function tidy(b: Board): Board {
  const rights = b.rights.filter((r) => {
    const k = kingSquare(b, r.side);
    const home = backRank(r.side);
    if (k < 0 || rankOf(k) !== home || b.squares[sq(r.rookFile, home)] !== (r.side === 'w' ? 'R' : 'r')) return false;
    // Rights of one side share one king file: the one the king stands on.
    return b.rights.filter((x) => x.side === r.side).every((x) => b.squares[sq(x.rookFile, home)] === (r.side === 'w' ? 'R' : 'r'));
  });
  const targets = b.targets.filter((t) => b.squares[t.square] === '' && b.squares[t.side === 'w' ? t.square + 8 : t.square - 8] === (t.side === 'w' ? 'P' : 'p'));
  return { ...b, rights, targets };
}

const PIECES = 'PNBRQpnbrq';

/**
 * A random mutation: remove a piece, add one, or move one to an empty square (pawns off the
 * last ranks). Kings are never removed or added; a king moved loses its side's castling rights,
 * as a king move does, so no start is made up that no game can reach (king on d1 with rights).
 */
export function mutate(b: Board, rng: Rng): Board {
  const s = [...b.squares];
  const occupied = s.map((p, i) => (p !== '' && typeOf(p) !== 'k' ? i : -1)).filter((i) => i >= 0);
  const empty = s.map((p, i) => (p === '' ? i : -1)).filter((i) => i >= 0);
  const kind = rng();
  const pawnOk = (p: string, at: number): boolean => typeOf(p) !== 'p' || (rankOf(at) !== 0 && rankOf(at) !== 7);
  if (kind < 0.4 && occupied.length > 0) {
    s[pick(rng, occupied)] = '';
  } else if (kind < 0.7 && empty.length > 0) {
    const at = pick(rng, empty);
    const p = pick(rng, [...PIECES]);
    if (pawnOk(p, at)) s[at] = p;
  } else {
    const movable = s.map((p, i) => (p !== '' ? i : -1)).filter((i) => i >= 0);
    const from = pick(rng, movable);
    const at = pick(rng, empty);
    if (at !== undefined && pawnOk(s[from], at)) {
      const moved = s[from];
      s[at] = moved;
      s[from] = '';
      if (typeOf(moved) === 'k') {
        const side = moved === 'K' ? 'w' : 'b';
        return tidy({ ...b, squares: s, rights: b.rights.filter((r) => r.side !== side) });
      }
    }
  }
  return tidy({ ...b, squares: s });
}

/** Removes random pieces (never a king) until at most `pieces` stand on the board. */
export function thinOut(b: Board, pieces: number, rng: Rng): Board {
  const s = [...b.squares];
  for (;;) {
    const others = s.map((p, i) => (p !== '' && typeOf(p) !== 'k' ? i : -1)).filter((i) => i >= 0);
    if (others.length + 2 <= pieces || others.length === 0) break;
    s[pick(rng, others)] = '';
  }
  return tidy({ ...b, squares: s });
}

/**
 * En passant made likely: an opponent pawn that has just stepped two squares, with a pawn of
 * the side to move beside it (both placed where the squares are free), once or twice.
 */
export function withTarget(b: Board, rng: Rng, underPiece = false): Board {
  const s = [...b.squares];
  const targets = [...b.targets];
  const them = other(b.turn);
  for (let i = 0, n = 1 + Math.floor(rng() * 2); i < n; i++) {
    const f = Math.floor(rng() * 8);
    const pawnRank = them === 'w' ? 3 : 4;
    const step = them === 'w' ? -1 : 1;
    const pawnSq = sq(f, pawnRank);
    const target = sq(f, pawnRank + step);
    const origin = sq(f, pawnRank + 2 * step);
    if (s[pawnSq] !== '' || s[target] !== '' || s[origin] !== '') continue;
    s[pawnSq] = them === 'w' ? 'P' : 'p';
    targets.push({ square: target, side: them });
    const beside = f + (rng() < 0.5 ? -1 : 1);
    if (beside >= 0 && beside < 8 && s[sq(beside, pawnRank)] === '') s[sq(beside, pawnRank)] = b.turn === 'w' ? 'P' : 'p';
  }
  const out = tidy({ ...b, squares: s, targets });
  // Where a target survives a piece on it (§1): the opponent's knight or bishop may stand there, left by its own turn.
  if (underPiece) for (const t of out.targets) if (t.side === them && rng() < 0.5) out.squares[t.square] = pick(rng, them === 'w' ? ['N', 'B'] : ['n', 'b']);
  return out;
}

/** Pawns one step from promotion make the promotion rules bite: put one or two there. */
export function nearPromotion(b: Board, rng: Rng): Board {
  const s = [...b.squares];
  for (let i = 0; i < 2; i++) {
    const side = rng() < 0.5 ? b.turn : other(b.turn);
    const rank = side === 'w' ? 6 : 1;
    const at = sq(Math.floor(rng() * 8), rank);
    if (s[at] === '') s[at] = side === 'w' ? 'P' : 'p';
  }
  return tidy({ ...b, squares: s });
}

/** The kings stand apart and both are on the board (the start of a game still going). */
export function playable(b: Board): boolean {
  const w = kingSquare(b, 'w');
  const k = kingSquare(b, 'b');
  return w >= 0 && k >= 0 && Math.max(Math.abs(fileOf(w) - fileOf(k)), Math.abs(rankOf(w) - rankOf(k))) > 1;
}
