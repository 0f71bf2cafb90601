import type { RecordingFaultId } from '../../rules/rule-ids.js';
import { PAWN } from '../../core/index.js';
import { type FenBoards, fenBoardsOf } from './fen-boards.js';
import type { GameRecordInput, Side } from './game-record.js';

/**
 * Recording faults the records can show without the rules (board bookkeeping only), each
 * named by its registry code (src/rules/rule-ids.ts) and listed in docs/recording-faults.md.
 * Faults whose intent is certain are repaired here and left as a note with the code; a fault
 * that hides information is left as a note `<code>@<turn>` for the judge to report. Runs in
 * every reader's last step (finalise.ts), after the reader's own notes are in.
 */
export function repairRecordingFaults(input: GameRecordInput, notes: Set<string>): void {
  const turns = input.turns;
  input.startFen = canonicalEnPassant(input.startFen, notes);
  const boards = fenBoardsOf(input);
  for (let t = 0; t < turns.length; t++) {
    const fen = turns[t].fenAfter;
    if (fen) turns[t].fenAfter = canonicalEnPassant(fen, notes, boards, t);
  }
  const last = turns[turns.length - 1];
  if (last?.fenAfter) {
    const taken = kingTaken(last.fenAfter);
    if (taken !== null) {
      // A state map's last step is the capture itself, mid-turn: it names the capturer, as every step of a turn does.
      last.fenAfter = afterKingCapture(last.fenAfter, taken, input.format !== 'dicechess-com', notes);
      if ((input.termination ?? 'unknown') === 'unknown') {
        // A legacy import never classified its games: the board says a king was taken.
        input.termination = 'king_captured';
        input.result = taken === 'w' ? 'black' : 'white';
        notes.add(fault('record.legacy-termination-unknown'));
      }
    }
  }
  // The game ended after the last roll (a draw agreed, a game abandoned): no one moved, and it was
  // no pass, unless the record's events end the game after that turn (a pass, then the agreement).
  if (last && last.moves.length === 0 && (input.termination === 'draw_agreement' || input.termination === 'aborted')) {
    const afterIt = (input.events ?? []).some((e) => (e.type === 'DRAW_ACCEPT' || e.type === 'RESIGN') && e.turn > turns.length);
    if (!afterIt) notes.add(fault('record.no-op-last-turn'));
  }
  readNoteFaults(input, notes);
  if (input.stakes && input.stakes.initial === 0) notes.add(fault('record.stake-zero-tournament'));
  for (const side of ['white', 'black'] as const) {
    const p = input.players[side];
    if (p.id !== null && p.id !== undefined && /^-\d+$/.test(p.id)) {
      if (p.kind !== 'bot') p.kind = 'bot';
      notes.add(fault('record.negative-id-bot'));
    }
  }
}

const fault = (code: RecordingFaultId): string => code;

/** A reported fault at a turn (1-based; turns.length + 1: after the last turn), as a note the judge reads. */
export const reportedFaultNote = (code: RecordingFaultId, turn: number): string => `${code}@${turn}`;

/** The reported faults a record's notes carry, earliest turn first. */
export function reportedFaults(notes: readonly string[]): { code: RecordingFaultId; turn: number }[] {
  const out: { code: RecordingFaultId; turn: number }[] = [];
  for (const n of notes) {
    const at = n.indexOf('@');
    if (at < 0 || !n.startsWith('record.')) continue;
    out.push({ code: n.slice(0, at) as RecordingFaultId, turn: Number(n.slice(at + 1)) });
  }
  return out.sort((a, b) => a.turn - b.turn);
}

/**
 * Faults the readers noted in their own words, by format: dice in the other spelling
 * (digits where the site writes letters, letters where it writes numbers).
 */
function readNoteFaults(input: GameRecordInput, notes: Set<string>): void {
  const letterFormats = input.format === 'dicechess-com' || input.format === 'csv' || input.format === 'beturanga';
  if (letterFormats && notes.has('dice:digits')) notes.add(fault('record.dice-digits'));
  if (!letterFormats && notes.has('dice:letters')) notes.add(fault('record.dice-letters'));
}

/** The side whose king is off the board (null: both kings stand, or both are gone). */
function kingTaken(fen: string): Side | null {
  const space = fen.indexOf(' ');
  const board = space < 0 ? fen : fen.slice(0, space);
  const white = board.includes('K');
  const black = board.includes('k');
  if (white === black) return null;
  return white ? 'b' : 'w';
}

const UPPER = /[A-Z]/;
const LOWER = /[a-z]/;

/**
 * The position after a king capture: the captured side is the one to move (the capturer's
 * turn is over; `afterTurn`: the FEN is the position after the turn, not a step within it)
 * and holds no castling right (its king is gone).
 */
function afterKingCapture(fen: string, taken: Side, afterTurn: boolean, notes: Set<string>): string {
  const f = fen.split(' ');
  if (f.length < 4) return fen;
  let changed = false;
  if (afterTurn && f[1] !== taken) {
    f[1] = taken;
    changed = true;
    notes.add(fault('record.side-not-flipped-after-king-capture'));
  }
  const own = taken === 'w' ? UPPER : LOWER;
  if (f[2] !== '-' && own.test(f[2])) {
    const kept = f[2].replace(taken === 'w' ? /[A-Z]/g : /[a-z]/g, '');
    f[2] = kept === '' ? '-' : kept;
    changed = true;
    notes.add(fault('record.castling-after-king-capture'));
  }
  // Unchanged, the text is the FEN itself (split and joined by the same space).
  return changed ? f.join(' ') : fen;
}

/**
 * The en passant field with only targets a pawn just double-stepped past: the pawn still
 * stands in front of the target. A stale target (its pawn moved on or was taken later in the
 * turn: a path-dependent field) is dropped; the tool's own writers never write one.
 */
function canonicalEnPassant(fen: string, notes: Set<string>, boards?: FenBoards, turn = 0): string {
  // The usual field is "-": found without splitting (this runs for every recorded turn).
  const b = fen.indexOf(' ', fen.indexOf(' ') + 1);
  const c = b < 0 ? -1 : fen.indexOf(' ', b + 1);
  if (c < 0 || (fen.charCodeAt(c + 1) === 45 && (c + 2 === fen.length || fen.charCodeAt(c + 2) === 32))) return fen;
  // Targets that all stand behind their pawn, on the board the reader read from this text: no splitting either.
  if (boards !== undefined && pawnsBehindTargets(fen, c + 1, boards, turn)) return fen;
  const f = fen.split(' ');
  if (f.length < 4 || f[3] === '-') return fen;
  const ep = f[3];
  if (!/^([a-h][36])+$/.test(ep)) return fen;
  let kept = '';
  for (let i = 0; i < ep.length; i += 2) {
    const white = ep[i + 1] === '3';
    const piece = pieceAt(f[0], white ? 3 : 4, ep.charCodeAt(i) - 97);
    if (piece === null) return fen;
    if (piece === (white ? 'P' : 'p')) kept += ep.slice(i, i + 2);
  }
  if (kept === ep) return fen;
  f[3] = kept === '' ? '-' : kept;
  notes.add(fault('record.en-passant-not-canonical'));
  return f.join(' ');
}

/**
 * Is the en passant field from `i` one or more targets (`[a-h][36]`, to the end or a space),
 * each with the pawn that double-stepped past it in front of it on turn `turn`'s read board?
 * False where unsure (no board read from this text): `canonicalEnPassant` then reads the text.
 */
function pawnsBehindTargets(fen: string, i: number, boards: FenBoards, turn: number): boolean {
  const n = fen.length;
  if (i >= n || fen.charCodeAt(i) === 32) return false;
  for (; i < n && fen.charCodeAt(i) !== 32; i += 2) {
    const file = fen.charCodeAt(i) - 97;
    const rank = fen.charCodeAt(i + 1);
    if (file < 0 || file > 7 || (rank !== 51 && rank !== 54)) return false;
    // A target on rank 3 has a white pawn on rank 4 (index 3), one on rank 6 a black pawn on rank 5.
    const white = rank === 51;
    if (boards.pieceAt(turn, fen, (white ? 3 : 4) * 8 + file) !== (white ? PAWN : -PAWN)) return false;
  }
  return i === n || fen.charCodeAt(i) === 32;
}

/**
 * The piece letter on one square of a FEN board ('' when empty), reading only that rank
 * (0-based, rank 1 first); null when the rank is not 8 squares wide or the board not 8 ranks.
 */
function pieceAt(board: string, rank: number, file: number): string | null {
  let start = 0;
  for (let r = 7; r > rank; r--) {
    start = board.indexOf('/', start) + 1;
    if (start === 0) return null;
  }
  let end = board.indexOf('/', start);
  if (end < 0) end = board.length;
  if ((rank === 0) !== (end === board.length)) return null;
  let at = 0;
  let found: string | null = null;
  for (let i = start; i < end; i++) {
    const ch = board[i];
    const empty = ch >= '1' && ch <= '8' ? ch.charCodeAt(0) - 48 : 0;
    if (empty > 0 ? file >= at && file < at + empty : file === at) found = empty > 0 ? '' : ch;
    at += empty > 0 ? empty : 1;
  }
  return at === 8 ? found : null;
}
