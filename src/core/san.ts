import { inCheck } from './attacks.js';
import { err, ok, type Result } from './errors.js';
import { hasLegalMove, legalMoves } from './legal.js';
import { CASTLE, EN_PASSANT, type Move, moveFrom, moveKind, movePromotion, moveTo } from './move.js';
import type { Position } from './position.js';
import { type Color, PAWN, type Role, parseSquare, squareName } from './types.js';
import { capturesKingOnLastRank, makeUci } from './uci.js';

const SAN_LETTERS = ' PNBRQK';

/**
 * Standard algebraic notation of a micro-move: piece letter, the least disambiguation
 * among `legal` (default: the orthodox legal moves of the side to move), `x` for
 * captures (en passant included), `=Q` promotions, `O-O` / `O-O-O` (also for Chess960,
 * by the side of the rook), and the orthodox marks: `+` when the opponent's king stands
 * attacked after the move, `#` when it does and the opponent has no orthodox legal move.
 * A move that captures the king gets no mark.
 */
export function makeSan(pos: Position, move: Move, legal?: readonly Move[]): string {
  return makeSanBody(pos, move, legal ?? legalMoves(pos)) + checkMark(pos, move);
}

/** SAN without the check or mate mark. */
export function makeSanBody(pos: Position, move: Move, legal: readonly Move[]): string {
  const from = moveFrom(move);
  const to = moveTo(move);
  const kind = moveKind(move);
  if (kind === CASTLE) return (to & 7) > (from & 7) ? 'O-O' : 'O-O-O';
  const piece = pos.board[from];
  if (piece === 0) return makeUci(move);
  const role = (piece > 0 ? piece : -piece) as Role;
  const capture = kind === EN_PASSANT || pos.board[to] !== 0;
  if (role === PAWN) {
    const promo = movePromotion(move);
    return (capture ? `${squareName(from)[0]}x` : '') + squareName(to) + (promo ? `=${SAN_LETTERS[promo]}` : '');
  }
  let sameFile = false;
  let sameRank = false;
  let others = false;
  for (const m of legal) {
    const f = moveFrom(m);
    if (f === from || moveTo(m) !== to || moveKind(m) === CASTLE || pos.board[f] !== piece) continue;
    others = true;
    if ((f & 7) === (from & 7)) sameFile = true;
    if (f >> 3 === from >> 3) sameRank = true;
  }
  let disambiguation = '';
  if (others) {
    const sq = squareName(from);
    if (!sameFile) disambiguation = sq[0];
    else if (!sameRank) disambiguation = sq[1];
    else disambiguation = sq;
  }
  return SAN_LETTERS[role] + disambiguation + (capture ? 'x' : '') + squareName(to);
}

/** `+`, `#` or '' for the position after `move` (orthodox check, whatever the dialect). */
function checkMark(pos: Position, move: Move): string {
  const mover = pos.board[moveFrom(move)];
  if (mover === 0) return '';
  const color: Color = mover > 0 ? 0 : 1;
  const them = (color ^ 1) as Color;
  pos.make(move);
  let mark = '';
  if (inCheck(pos, them)) {
    const turn = pos.turn;
    const ep = pos.ep;
    const fullmove = pos.fullmove;
    pos.turn = color;
    pos.endTurn();
    mark = hasLegalMove(pos) ? '+' : '#';
    pos.turn = turn;
    pos.ep = ep;
    pos.fullmove = fullmove;
  }
  pos.unmake(move);
  return mark;
}

const SAN_RE = /^([NBRQK])?([a-h])?([1-8])?[x:-]?([a-h][1-8])(?:=?([NBRQKnbrqk]))?$/;
const CASTLE_RE = /^([O0o])-\1(-\1)?$/;

/**
 * Finds the move a SAN text names among `candidates` (the moves the caller allows:
 * orthodox legal moves, or the dice's micro-moves). Tolerant of `x`/`:`, `-` between
 * squares, `+`, `#`, `!`, `?`, `e.p.`, `0-0`, and of a missing promotion letter when only
 * one promotion matches. Errors: `san.syntax`, `san.no-match`, `san.ambiguous`.
 */
export function parseSan(pos: Position, text: string, candidates: readonly Move[]): Result<Move> {
  let t = text.trim().replace(/[+#!?]+$/, '');
  t = t.replace(/\s*e\.?p\.?$/i, '').replace(/[+#!?]+$/, '');
  const castle = CASTLE_RE.exec(t);
  if (castle) {
    const long = castle[2] !== undefined;
    const matches = candidates.filter((m) => moveKind(m) === CASTLE && (moveTo(m) & 7) > (moveFrom(m) & 7) === !long);
    return pick(matches, text);
  }
  const parts = SAN_RE.exec(t);
  if (!parts) return err('san.syntax', `"${text}" is not SAN (like e4, Nbd7, exd5, e8=Q, O-O)`, text);
  const [, pieceLetter, fileText, rankText, toText, promoText] = parts;
  const role = (pieceLetter ? SAN_LETTERS.indexOf(pieceLetter) : PAWN) as Role;
  if (promoText && role !== PAWN) return err('san.syntax', `"${text}" promotes a piece that is not a pawn`, text);
  const to = parseSquare(toText);
  const fromFile = fileText ? fileText.charCodeAt(0) - 97 : -1;
  const fromRank = rankText ? rankText.charCodeAt(0) - 49 : -1;
  const promo = promoText ? SAN_LETTERS.indexOf(promoText.toUpperCase()) : 0;

  const matches: Move[] = [];
  for (const m of candidates) {
    if (moveKind(m) === CASTLE || moveTo(m) !== to) continue;
    const from = moveFrom(m);
    const piece = pos.board[from];
    if ((piece > 0 ? piece : -piece) !== role) continue;
    if (fromFile >= 0 && (from & 7) !== fromFile) continue;
    if (fromRank >= 0 && from >> 3 !== fromRank) continue;
    // A pawn written without a file moves straight ahead (a capture names its file).
    if (role === PAWN && fromFile < 0 && (from & 7) !== (to & 7)) continue;
    // A pawn taking the king on its last rank does not promote: `fxe8=Q` is that move too.
    if (promo && movePromotion(m) !== promo && !(movePromotion(m) === 0 && capturesKingOnLastRank(pos, piece > 0 ? 0 : 1, to))) continue;
    matches.push(m);
  }
  return pick(matches, text);
}

function pick(matches: Move[], text: string): Result<Move> {
  if (matches.length === 1) return ok(matches[0]);
  if (matches.length === 0) return err('san.no-match', `"${text}" matches no allowed move`, text);
  return err('san.ambiguous', `"${text}" matches ${matches.length} moves: ${matches.map((m) => makeUci(m, 'king-takes-rook')).join(', ')}`, text);
}
