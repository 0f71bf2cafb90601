import { CASTLE, type Move, makeDfen, ROLE_LETTERS, moveFrom, moveKind, parseDfen, type Position, uciToMove } from '../../../core/index.js';
import type { Obj } from '../../fields.js';
import type { GameEvent, GameRecord, Side } from '../../model/game-record.js';

/**
 * GameRecord → dicechess.com state map, with the site's quirks: a highlight-reset
 * step after each micro-move, upper-case squares, letter dice in roll order with
 * `allowed`/`used` flags, a declined draw offer as a gap in the step numbers, an
 * accepted draw as trailing steps with the FEN unchanged (mid-turn when it came
 * mid-turn), a double offer as a step handing the FEN to the offerer, accepted by a
 * rise of `bank`, declined as trailing steps, and a timeout as a clock at 0.
 * Documents are wrapped with their `gameId` (the site's answer has none; archives add it).
 */
const PROMOTION_NAMES: Record<string, string> = { q: 'QUEEN', r: 'ROOK', b: 'BISHOP', n: 'KNIGHT' };

interface DieOut {
  value: string;
  allowed: boolean;
  used: boolean;
}

export function makeStateMap(r: GameRecord): Obj {
  const map: Obj = {};
  const parsed = parseDfen(r.startFen);
  let pos: Position | null = parsed.ok ? parsed.value.pos : null;
  let fen = pos ? makeDfen(pos) : r.startFen;
  let n = 0;
  let dices: DieOut[] = [];
  let flipped = true; // the start FEN already names the first side to roll
  let bank: number | null = r.stakes?.initial == null ? null : r.stakes.initial * 2;
  const keys = clockKeys(r);
  const initial = r.timeControl?.initialMs ?? null;
  let clocks: { w: number | null; b: number | null } = { w: initial, b: initial };
  const leftTime = (): Obj => {
    const out: Obj = {};
    if (clocks.w !== null) out[keys.w] = clocks.w;
    if (clocks.b !== null) out[keys.b] = clocks.b;
    return out;
  };
  const emit = (move: Obj | null = null): void => {
    map[String(n++)] = {
      fen,
      dices: dices.map((d) => ({ ...d })),
      gameMoveHistoryMove: move,
      leftTime: leftTime(),
      ...(bank === null ? {} : { bank }),
    };
  };
  const handOver = (): void => {
    if (flipped || !pos) return;
    pos.endTurn();
    fen = makeDfen(pos);
    flipped = true;
  };
  const byPoint = new Map<string, GameEvent[]>();
  for (const e of r.events) {
    const k = `${e.turn}:${e.microMove ?? '-'}`;
    byPoint.set(k, [...(byPoint.get(k) ?? []), e]);
  }
  const negotiate = (turn: number, microMove: number | null): void => {
    const list = byPoint.get(`${turn}:${microMove ?? '-'}`) ?? [];
    for (let i = 0; i < list.length; i++) {
      const e = list[i];
      const next = list[i + 1]?.type;
      if (e.type === 'DRAW_OFFER' || e.type === 'DRAW_ACCEPT' || e.type === 'DRAW_DECLINE') {
        const offered = e.type === 'DRAW_OFFER';
        const answer = offered && (next === 'DRAW_ACCEPT' || next === 'DRAW_DECLINE') ? next : offered ? null : e.type;
        if (offered && answer) i++;
        if (answer === 'DRAW_ACCEPT') {
          emit();
          emit();
        } else n += answer === 'DRAW_DECLINE' ? 3 : 2; // hidden steps: the offer and its answer
      } else if (e.type === 'DOUBLE_OFFER' || e.type === 'DOUBLE_ACCEPT' || e.type === 'DOUBLE_DECLINE') {
        handOver();
        emit();
        const answer = e.type === 'DOUBLE_OFFER' ? (next === 'DOUBLE_ACCEPT' || next === 'DOUBLE_DECLINE' ? next : null) : e.type;
        if (e.type === 'DOUBLE_OFFER' && answer) i++;
        if (answer === 'DOUBLE_ACCEPT') {
          const accept = e.type === 'DOUBLE_ACCEPT' ? e : list[i];
          bank = accept.bank ?? e.bank ?? (bank ?? 2) * 2;
          emit();
        } else if (answer === 'DOUBLE_DECLINE') emit();
      }
    }
  };

  const spent = usedPerTurn(r);
  emit();
  r.turns.forEach((turn, ti) => {
    const t = ti + 1;
    negotiate(t, null);
    if (pos) {
      if (!flipped) pos.endTurn();
      pos.turn = turn.side === 'w' ? 0 : 1;
      fen = makeDfen(pos);
    }
    flipped = false;
    const used = turn.dice.map(() => false);
    // Without the site's flags: the dice the turn used, plus the unused ones when the game stopped inside it.
    const inside = stoppedInside(r, ti);
    const allowed = turn.diceFlags?.map((f) => f.allowed) ?? spent[ti].map((u) => u || inside);
    dices = turn.dice.map((face, i) => ({ value: turn.side === 'w' ? ROLE_LETTERS[face].toUpperCase() : ROLE_LETTERS[face], allowed: allowed[i] ?? false, used: false }));
    if (turn.clockMs) clocks = { ...turn.clockMs };
    emit();
    negotiate(t, 0);
    turn.moves.forEach((uci, mi) => {
      const move = pos ? uciToMove(pos, uci) : null;
      if (move?.ok && pos) {
        spend(pos, move.value, turn.dice, used);
        pos.make(move.value);
        fen = makeDfen(pos);
      } else pos = null; // the board is unknown from here: keep the last FEN rather than invent one
      // After a turn's last micro-move the site allows nothing more, unless the game stopped inside the turn.
      const over = mi === turn.moves.length - 1 && !inside;
      dices = dices.map((d, i) => ({ ...d, used: used[i], allowed: d.allowed && (used[i] || !over) }));
      emit(moveOut(uci, turn.side));
      emit(); // highlight reset
      negotiate(t, mi + 1);
    });
  });
  negotiate(r.turns.length + 1, null);
  if (r.termination === 'timeout' && (r.result === 'white' || r.result === 'black')) {
    // The flag fall is one more snapshot, the loser's clock at 0.
    clocks = { ...clocks, [r.result === 'white' ? 'b' : 'w']: 0 };
    emit();
  }
  return { gameId: r.id, gameMoveHistoryStateMap: map };
}

/** Whether the game stopped inside turn `ti` (its unused dice could still be played). */
function stoppedInside(r: GameRecord, ti: number): boolean {
  if (ti !== r.turns.length - 1 || r.turns[ti].moves.length === 0) return false;
  if (r.termination === 'timeout' || r.termination === 'resign') return true;
  return r.events.some((e) => e.turn === ti + 1 && e.microMove !== null && e.type === 'DRAW_ACCEPT');
}

/** The dice each turn spends, from one walk over the game. */
function usedPerTurn(r: GameRecord): boolean[][] {
  const out = r.turns.map((t) => t.dice.map(() => false));
  const parsed = parseDfen(r.startFen);
  if (!parsed.ok) return out;
  const pos = parsed.value.pos;
  for (let i = 0; i < r.turns.length; i++) {
    pos.turn = r.turns[i].side === 'w' ? 0 : 1;
    for (const uci of r.turns[i].moves) {
      const m = uciToMove(pos, uci);
      if (!m.ok) return out;
      spend(pos, m.value, r.turns[i].dice, out[i]);
      pos.make(m.value);
    }
    pos.endTurn();
  }
  return out;
}

/** Marks the dice a micro-move spends: its piece's die (the pawn's for a promotion), king and rook dice for castling. */
function spend(pos: Position, move: Move, dice: readonly number[], used: boolean[]): void {
  const take = (face: number): void => {
    const i = dice.findIndex((d, k) => d === face && !used[k]);
    if (i >= 0) used[i] = true;
  };
  if (moveKind(move) === CASTLE) {
    take(6);
    take(4);
    return;
  }
  const piece = pos.board[moveFrom(move)];
  take(piece > 0 ? piece : -piece);
}

function moveOut(uci: string, side: Side): Obj {
  const promo = uci[4];
  return {
    from: uci.slice(0, 2).toUpperCase(),
    to: uci.slice(2, 4).toUpperCase(),
    promotion: promo ? `${side === 'w' ? 'WHITE' : 'BLACK'}_${PROMOTION_NAMES[promo] ?? 'QUEEN'}` : 'NONE',
  };
}

/** leftTime keys: the players' ids (white first), or the side names when ids are missing. */
function clockKeys(r: GameRecord): { w: string; b: string } {
  const w = r.players.white.id ?? 'white';
  const b = r.players.black.id ?? 'black';
  return w === b ? { w: 'white', b: 'black' } : { w, b };
}
