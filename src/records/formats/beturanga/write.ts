import { CASTLE, KING, makeDfen, moveFrom, moveKind, parseDfen, type Position, ROOK, uciMove } from '../../../core/index.js';
import type { GameRecord, Side } from '../../model/game-record.js';
import { entryDiceLetters } from './entries.js';
import { CAUSES } from './read.js';

/** When a record says nothing of its times: this start, and this much per history entry. */
const DEFAULT_START_MS = Date.UTC(2022, 7, 10, 11, 30, 0);
const DEFAULT_ENTRY_MS = 1000;

const CAUSE_OF = new Map<string, string>();
for (const [cause, termination] of Object.entries(CAUSES)) if (termination && !CAUSE_OF.has(termination)) CAUSE_OF.set(termination, cause);

/**
 * A record as a beturanga server document: `history` an entry per state (the `-` entry
 * before a roll, the roll, one per micro-move but the turn's last, which the next side's
 * `-` entry shows), `moves` a micro-move each. A last turn that stops mid-turn (its position
 * still names its side) has no closing entry. Each turn's entries share its thinking time
 * evenly. Fields the tool does not model (sessions, rake, chat) are not written.
 */
export function makeBeturanga(r: GameRecord): Record<string, unknown> {
  const parsed = parseDfen(r.startFen);
  if (!parsed.ok) throw new Error(`start FEN "${r.startFen}" is not a FEN: ${parsed.error.message}`);
  const pos = parsed.value.pos;
  const started = r.startedAt !== null && Number.isFinite(Date.parse(r.startedAt)) ? Date.parse(r.startedAt) : DEFAULT_START_MS;
  let t = started;
  const history: string[] = [];
  const moves: Array<{ color: Side; move: string; date: string }> = [];
  const entry = (dice: readonly number[] | null, side: Side, at: number): void => {
    history.push(`${makeDfen(pos, null, { short: true })} ${entryDiceLetters(dice, side)} ${at}`);
  };
  let closed = true;
  r.turns.forEach((turn, n) => {
    const side = turn.side;
    const last = n === r.turns.length - 1;
    // A last turn whose position still names its side stopped mid-turn: no closing entry.
    closed = !(last && turn.fenAfter !== null && turn.fenAfter.split(/\s+/)[1] === side && r.termination !== 'king_captured');
    const k = turn.moves.length;
    const entries = k + 1; // the roll and one per micro-move (the last one the close shows, when closed)
    // The last turn read from a document keeps no thinking time (its clocks are the final ones): it ends when the game did.
    const finished = last && r.finishedAt !== null ? Date.parse(r.finishedAt) - t : NaN;
    const think = turn.thinkingMs ?? (Number.isFinite(finished) && finished >= 0 ? finished : DEFAULT_ENTRY_MS * entries);
    const step = Math.floor(think / entries);
    // The turn's own entries share its time; its last entry (the close, or the last one written
    // when it stops mid-turn) is at its end, so a reader finds the thinking time again.
    const at = (e: number): number => (e === entries - 1 ? t + think : t + step * (e + 1));
    entry(null, side, t);
    const left = [...turn.dice];
    entry(left, side, at(0));
    turn.moves.forEach((uci, i) => {
      const m = uciMove(pos, uci);
      if (m < 0) throw new Error(`turn ${n + 1}: "${uci}" cannot be played on ${makeDfen(pos)}`);
      spend(pos, m, left);
      pos.make(m);
      moves.push({ color: side, move: uci, date: new Date(at(i + 1)).toISOString() });
      if (!closed || i < k - 1) entry(left, side, at(i + 1));
    });
    if (closed) {
      pos.endTurn();
      t += think;
    }
  });
  if (closed) entry(null, pos.turn === 0 ? 'w' : 'b', t);
  const final = history[history.length - 1];
  const clocks = finalClocks(r);
  const settingsFen = startSettingsFen(r.startFen);
  const doc: Record<string, unknown> = {
    _id: r.id,
    status: 'finished',
    fen: final,
    players: (['w', 'b'] as const).map((color) => {
      const p = color === 'w' ? r.players.white : r.players.black;
      return {
        color,
        ...(p.id === null ? {} : { user: p.id }),
        ...(p.name === null ? {} : { name: p.name }),
        timeleft: clocks[color],
        ...(p.rating === null ? {} : { rating: p.rating }),
        bot: p.kind === 'bot',
      };
    }),
    settings: {
      ...(r.timeControl === null ? {} : { timeControl: timeControlOut(r.timeControl) }),
      fen: settingsFen,
      ...(r.stakes?.initial === null || r.stakes === null ? {} : { bet: r.stakes.initial }),
      doubling: r.notes.includes('beturanga:doubling-on'),
      rounds: 1,
    },
    doubling: { multiplier: r.stakes?.initial ? (r.stakes.final ?? r.stakes.initial) / r.stakes.initial : 1 },
    history,
    moves,
    ...(r.startedAt === null ? {} : { created: r.startedAt }),
  };
  const cause = CAUSE_OF.get(r.termination);
  if (cause !== undefined || r.result !== null) doc.result = { winner: r.result === 'white' ? 'w' : r.result === 'black' ? 'b' : null, cause: cause ?? null };
  return doc;
}

/** Takes the die a micro-move spends out of `left`: its piece's, or king and rook for castling. */
function spend(pos: Position, m: number, left: number[]): void {
  const take = (face: number): void => {
    const at = left.indexOf(face);
    if (at >= 0) left.splice(at, 1);
  };
  if (moveKind(m) === CASTLE) {
    take(KING);
    take(ROOK);
    return;
  }
  const piece = pos.board[moveFrom(m)];
  const face = piece < 0 ? -piece : piece;
  if (left.includes(face)) take(face);
  else left.shift();
}

/** `timeleft` per side: a flag fall's clocks, else the last recorded clocks. */
function finalClocks(r: GameRecord): { w: number | null; b: number | null } {
  const timeout = [...r.events].reverse().find((e) => e.type === 'TIMEOUT' && e.clockMs !== null);
  const clocks = { w: null as number | null, b: null as number | null };
  for (const t of r.turns) {
    if (t.clockMs?.w !== null && t.clockMs?.w !== undefined) clocks.w = t.clockMs.w;
    if (t.clockMs?.b !== null && t.clockMs?.b !== undefined) clocks.b = t.clockMs.b;
  }
  if (timeout?.clockMs) {
    if (timeout.clockMs.w !== null) clocks.w = timeout.clockMs.w;
    if (timeout.clockMs.b !== null) clocks.b = timeout.clockMs.b;
  }
  return clocks;
}

/** The start as `settings.fen` writes it: side `-`, no counters. */
function startSettingsFen(fen: string): string {
  const f = fen.trim().split(/\s+/);
  return `${f[0]} - ${f[2] ?? '-'} ${f[3] ?? '-'} -`;
}

function timeControlOut(tc: NonNullable<GameRecord['timeControl']>): Record<string, number> {
  if (tc.kind === 'unlimited' || tc.initialMs === null) return { time: 0, increment: 0 };
  return { time: tc.initialMs / 60_000, increment: (tc.incrementMs ?? 0) / 1000 };
}
