import { type CoreError, err, ok, type Result } from './errors.js';
import { Position } from './position.js';
import { ANY_DIE, type Color, type Die, KING, PAWN, ROLE_LETTERS, type Role, ROOK, parseSquare, squareName } from './types.js';

/** A position plus the dice still to play (the DFEN 7th field); `dice` is null when not rolled. */
export interface DicePosition {
  pos: Position;
  dice: Die[] | null;
}

export interface FenLimits {
  /** Most dice a dialect rolls; more in the 7th field is an error. */
  maxDice?: number;
  /** Largest half-move counter accepted. */
  maxHalfmove?: number;
  /** En passant targets survive a piece standing on them (a dialect option): keep a listed target whose square is occupied. */
  epUnderPiece?: boolean;
  /** Most kings a side may have (2 where a pawn may promote to a king, a dialect option); 1 when not given. */
  kings?: number;
}

const PIECE_CHARS = 'pnbrqk';

/**
 * Reads FEN/DFEN: 4 to 7 space-separated fields (counters default to 0 and 1, dice to
 * "not rolled"). Field 4 may hold several en passant squares in any order. Castling
 * accepts KQkq, X-FEN and Shredder-FEN letters.
 */
export function parseDfen(text: string, limits: FenLimits = {}): Result<DicePosition> {
  const fields = text.trim().split(/\s+/);
  if (fields.length < 4 || fields.length > 7 || fields[0] === '') {
    return err('fen.fields', `expected 4 to 7 space-separated fields, found ${fields[0] === '' ? 0 : fields.length}`, 'fen');
  }
  const pos = new Position();
  const boardErr = parseBoard(pos, fields[0], limits.kings ?? 1);
  if (boardErr) return { ok: false, error: boardErr };

  if (fields[1] !== 'w' && fields[1] !== 'b') return err('fen.turn', `side to move must be "w" or "b", not "${fields[1]}"`, 'turn');
  pos.turn = fields[1] === 'w' ? 0 : 1;

  const castErr = parseCastling(pos, fields[2]);
  if (castErr) return { ok: false, error: castErr };

  pos.epUnderPiece = limits.epUnderPiece === true;
  const epErr = parseEnPassant(pos, fields[3]);
  if (epErr) return { ok: false, error: epErr };

  const maxHalf = limits.maxHalfmove ?? 9999;
  if (fields.length > 4) {
    const h = fields[4];
    if (!/^\d+$/.test(h)) return err('fen.halfmove', `half-move counter must be a whole number, not "${h}"`, 'halfmove');
    pos.halfmove = Number(h);
    if (pos.halfmove > maxHalf) return err('fen.halfmove', `half-move counter ${h} is over the limit ${maxHalf}`, 'halfmove');
  }
  if (fields.length > 5) {
    const f = fields[5];
    if (!/^\d+$/.test(f) || Number(f) < 1) return err('fen.fullmove', `move number must be a whole number from 1, not "${f}"`, 'fullmove');
    pos.fullmove = Number(f);
  }
  let dice: Die[] | null = null;
  if (fields.length > 6 && fields[6] !== '-') {
    const parsed = parseDiceLetters(fields[6]);
    if (!parsed.ok) return parsed;
    dice = parsed.value;
    if (limits.maxDice !== undefined && dice.length > limits.maxDice) {
      return err('fen.dice-count', `${dice.length} dice in "${fields[6]}" but this dialect rolls at most ${limits.maxDice}`, 'dice');
    }
  }
  return ok({ pos, dice });
}

/** Dice letters (any case, any order) → dice in the given order (`*`: a die that pays for any piece, ANY_DIE). */
export function parseDiceLetters(text: string): Result<Die[]> {
  const out: Die[] = [];
  for (const ch of text) {
    const r = ch === '*' ? ANY_DIE - 1 : PIECE_CHARS.indexOf(ch.toLowerCase());
    if (r < 0) return err('fen.dice', `"${ch}" in "${text}" is not a die letter (P N B R Q K, or * for any piece)`, 'dice');
    out.push((r + 1) as Die);
  }
  return ok(out);
}

function parseBoard(pos: Position, text: string, maxKings: number): CoreError | null {
  const rows = text.split('/');
  if (rows.length !== 8) return { code: 'fen.board', message: `board must have 8 ranks, found ${rows.length}`, field: 'board' };
  const kings = [0, 0];
  const strandedPawns: Array<{ color: Color; rank: number }> = [];
  for (let i = 0; i < 8; i++) {
    const rank = 7 - i;
    let file = 0;
    for (const ch of rows[i]) {
      if (ch >= '1' && ch <= '8') {
        file += ch.charCodeAt(0) - 48;
        continue;
      }
      const r = PIECE_CHARS.indexOf(ch.toLowerCase());
      if (r < 0) return { code: 'fen.board', message: `"${ch}" on rank ${rank + 1} is not a piece letter`, field: 'board' };
      if (file > 7) break;
      const role = r + 1;
      const color: Color = ch === ch.toUpperCase() ? 0 : 1;
      if (role === PAWN && (rank === 0 || rank === 7)) strandedPawns.push({ color, rank });
      const sq = rank * 8 + file;
      pos.put(sq, color === 0 ? role : -role);
      if (role === KING) {
        kings[color]++;
        // Of two kings (a promoted pawn), the one on its own first rank is the one that may castle.
        if (pos.kingSquare[color] < 0 || rank === (color === 0 ? 0 : 7)) pos.kingSquare[color] = sq;
      }
      file++;
    }
    if (file !== 8) return { code: 'fen.board', message: `rank ${rank + 1} has ${file} squares, not 8`, field: 'board' };
  }
  for (const c of [0, 1] as const) {
    if (kings[c] > maxKings) return { code: 'fen.kings', message: `${kings[c]} ${c === 0 ? 'white' : 'black'} kings on the board`, field: 'board' };
  }
  // A pawn that captured the king on the last rank stays a pawn (the game is over); otherwise no pawn stands there.
  for (const { color, rank } of strandedPawns) {
    const capturedKing = rank === (color === 0 ? 7 : 0) && kings[color ^ 1] === 0;
    if (!capturedKing) return { code: 'fen.board', message: `a pawn stands on rank ${rank + 1}`, field: 'board' };
  }
  return null;
}

function parseCastling(pos: Position, text: string): CoreError | null {
  const bad = (message: string): CoreError => ({ code: 'fen.castling', message, field: 'castling' });
  if (text === '-') return null;
  for (const ch of text) {
    const color: Color = ch === ch.toUpperCase() ? 0 : 1;
    const rank = color === 0 ? 0 : 7;
    const king = pos.kingSquare[color];
    if (king < 0 || king >> 3 !== rank) return bad(`castling right "${ch}" but no ${color === 0 ? 'white' : 'black'} king on its first rank`);
    const kFile = king & 7;
    const lower = ch.toLowerCase();
    let file = -1;
    if (lower === 'k' || lower === 'q') {
      // X-FEN: the outermost rook on that side of the king.
      const rook = color === 0 ? ROOK : -ROOK;
      if (lower === 'k') {
        for (let f = 7; f > kFile && file < 0; f--) if (pos.board[rank * 8 + f] === rook) file = f;
      } else {
        for (let f = 0; f < kFile && file < 0; f++) if (pos.board[rank * 8 + f] === rook) file = f;
      }
      if (file < 0) return bad(`castling right "${ch}" but no rook on that side of the king`);
    } else if (lower >= 'a' && lower <= 'h') {
      file = lower.charCodeAt(0) - 97;
      if (pos.board[rank * 8 + file] !== (color === 0 ? ROOK : -ROOK)) {
        return bad(`castling right "${ch}" but no rook on ${squareName(rank * 8 + file)}`);
      }
    } else {
      return bad(`"${ch}" is not a castling letter`);
    }
    pos.castling |= 1 << (file + color * 8);
    pos.kingHomeFile[color] = kFile;
  }
  return null;
}

function parseEnPassant(pos: Position, text: string): CoreError | null {
  if (text === '-') return null;
  if (text.length % 2 !== 0) return { code: 'fen.en-passant', message: `"${text}" is not a list of squares`, field: 'en-passant' };
  for (let i = 0; i < text.length; i += 2) {
    const sq = parseSquare(text.slice(i, i + 2));
    const r = sq >> 3;
    if (sq < 0 || (r !== 2 && r !== 5)) {
      return { code: 'fen.en-passant', message: `"${text.slice(i, i + 2)}" is not an en passant square (rank 3 or 6)`, field: 'en-passant' };
    }
    // The target's pawn must stand in front of it; a stale target is dropped, as FEN writers do.
    const pawnSq = r === 2 ? sq + 8 : sq - 8;
    const pawn = r === 2 ? PAWN : -PAWN;
    if (pos.board[pawnSq] === pawn && (pos.board[sq] === 0 || pos.epUnderPiece)) pos.ep |= 1 << ((sq & 7) + (r === 2 ? 0 : 8));
  }
  return null;
}

export interface FenStyle {
  /** `xfen` writes KQkq where unambiguous; `shredder` always writes rook files. */
  castling?: 'xfen' | 'shredder';
  /** Write only the first four fields. */
  short?: boolean;
}

/** Writes FEN; with `dice` (possibly empty) it writes the DFEN 7th field. */
export function makeDfen(pos: Position, dice?: readonly number[] | null, style: FenStyle = {}): string {
  const parts = [makeBoard(pos.board), pos.turn === 0 ? 'w' : 'b', makeCastling(pos, style.castling ?? 'xfen'), makeEnPassant(pos.ep)];
  if (style.short) return parts.join(' ');
  parts.push(String(pos.halfmove), String(pos.fullmove));
  if (dice !== undefined && dice !== null) parts.push(makeDiceLetters(dice, pos.turn));
  return parts.join(' ');
}

export function makeBoard(board: Int8Array): string {
  const rows: string[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const p = board[rank * 8 + file];
      if (p === 0) {
        empty++;
        continue;
      }
      if (empty) row += empty;
      empty = 0;
      const ch = ROLE_LETTERS[p > 0 ? p : -p];
      row += p > 0 ? ch.toUpperCase() : ch;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return rows.join('/');
}

function makeCastling(pos: Position, style: 'xfen' | 'shredder'): string {
  let out = '';
  for (const color of [0, 1] as const) {
    const rights = (pos.castling >> (color * 8)) & 0xff;
    const rank = color === 0 ? 0 : 7;
    const rook = color === 0 ? ROOK : -ROOK;
    const kFile = pos.kingHomeFile[color];
    let s = '';
    for (let file = 7; file >= 0; file--) {
      if ((rights & (1 << file)) === 0) continue;
      let letter = String.fromCharCode(97 + file);
      if (style === 'xfen') {
        // K/Q when this rook is the outermost on its side of the king.
        let outermost = true;
        const [from, to] = file > kFile ? [file + 1, 7] : [0, file - 1];
        for (let f = from; f <= to; f++) if (pos.board[rank * 8 + f] === rook) outermost = false;
        if (outermost) letter = file > kFile ? 'k' : 'q';
      }
      s += color === 0 ? letter.toUpperCase() : letter;
    }
    out += s;
  }
  return out || '-';
}

/** En passant squares in square-index order (rank 3 before rank 6), or "-". */
export function makeEnPassant(ep: number): string {
  let out = '';
  for (let i = 0; i < 16; i++) if (ep & (1 << i)) out += squareName((i < 8 ? 16 : 40) + (i & 7));
  return out || '-';
}

const VALUE_ORDER = [0, 1, 2, 3, 4, 5, 6, 7];
/** Die letters by die value: the six roles, then `*` for a die that pays for a move of any piece (ANY_DIE). */
const DIE_LETTERS = ROLE_LETTERS + '*';
/** Dice letters sorted by piece value (P<N<B<R<Q<K<*), cased by the side to move; "-" for none. */
export function makeDiceLetters(dice: readonly number[], turn: Color): string {
  if (dice.length === 0) return '-';
  const sorted = [...dice].sort((a, b) => VALUE_ORDER[a] - VALUE_ORDER[b]);
  const s = sorted.map((r) => DIE_LETTERS[r]).join('');
  return turn === 0 ? s.toUpperCase() : s;
}

export const STANDARD_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
