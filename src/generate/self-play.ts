import { type Color, chess960Fen, type Move, makeDfen, type Position, type Role, STANDARD_FEN, uciToMove } from '../core/index.js';
import { FACES, makeClientSeed, makeReveal, makeRoller, makeServerSeed, Prng, type Roller } from '../dice/index.js';
import type { FormatName, GameEvent, GameRecord, TimeControl, Turn } from '../records/game-record.js';
import { canWin, DicePool, GameState, parseDialectDfen, type Rules, TERMINATION_OF, TurnEngine } from '../rules/index.js';
import { BOTS, type BotStyle, materialBalance } from './bots.js';
import { allowedDice } from './dice-flags.js';
import { isoSeconds, makePlayer, pickStake, pickTimeControl, siteOf, startTimeMs, uuidV1 } from './meta.js';
import { TurnWalker } from '../rules/turn-walker.js';

/** How often games end other than as the dialect ends them, and other site events. */
export interface Rates {
  /** Share of games cut short by a resignation. */
  resign: number;
  /** Share of games cut short by a flag fall (on top of the rare natural ones). */
  timeout: number;
  /** Share of games cut short by an agreed draw (dialects with draws by agreement). */
  drawAgreement: number;
  /** Declined draw offers: expected number per 60 turns (a chance of drawOffer / 60 after each turn). */
  drawOffer: number;
  /** Chance, per turn where the cube is available, that the player to move doubles (x2 games; more when ahead). */
  double: number;
  /**
   * Share of cut games whose last turn stops mid-turn (docs/formats.md#ingest-wire allows it for timeouts,
   * resignations and draws; the replayer then only asks it to be the start of a legal turn).
   */
  partialLastTurn: number;
  /** Share of x2 (doubling cube) games where the dialect has a cube. */
  x2: number;
  /** Share of Chess960 starts where the dialect offers them (the rest start classically). */
  chess960: number;
}

export const DEFAULT_RATES: Rates = {
  resign: 0.12,
  timeout: 0.06,
  drawAgreement: 0.02,
  drawOffer: 0.15,
  double: 0.02,
  partialLastTurn: 0.3,
  x2: 0.4,
  chess960: 0.5,
};

/** Generator-only safety cap for dialects with no turn limit: the game is then agreed drawn (or resigned). */
export const GENERATOR_TURN_CAP = 3000;

/** Everything a worker keeps per dialect: the engine, a walker, face ↔ role maps. */
export interface DialectContext {
  name: string;
  rules: Rules;
  engine: TurnEngine;
  walker: TurnWalker;
  /** faceToRole[face] (1–6). */
  faceToRole: Role[];
  roleToFace: number[];
}

export function makeContext(name: string, rules: Rules): DialectContext {
  const engine = new TurnEngine(rules);
  const faceToRole: Role[] = [0 as Role, ...(rules.dice.faces ?? FACES)] as Role[];
  const roleToFace = [0, 0, 0, 0, 0, 0, 0];
  for (let f = 1; f <= 6; f++) roleToFace[faceToRole[f]] = f;
  return { name, rules, engine, walker: new TurnWalker(engine), faceToRole, roleToFace };
}

export interface GameSpec {
  /** 0-based index in the corpus: the game's generator is `new Prng(seed).fork('game:' + index)`. */
  index: number;
  /** Another game for the same index (re-picked when a planting is impossible): 0 = the first. */
  variant?: number;
  seed: string;
  format: FormatName;
  /** Bot styles to draw each side's style from. */
  bots: readonly BotStyle[];
  rates: Rates;
}

/** What happened in a turn beyond the record (for planting divergences later). */
export interface TurnTrace {
  /** DFEN before the turn (no dice field). */
  fenBefore: string;
  /** Die roles in roll order. */
  roles: Role[];
}

export interface PlayedGame {
  record: GameRecord;
  styles: { white: BotStyle; black: BotStyle };
  trace: TurnTrace[];
  /** True when the last turn is a prefix of what was played (timeout, resignation or draw mid-turn). */
  partialLastTurn: boolean;
}

type Fate = 'natural' | 'resign' | 'timeout' | 'draw_agreement';


const sideOf = (c: Color): 'w' | 'b' => (c === 0 ? 'w' : 'b');
const winnerOf = (c: Color): 'white' | 'black' => (c === 0 ? 'white' : 'black');

/** Plays one game by self-play under the dialect. Deterministic in (seed, index, rates, bots, format). */
export function playGame(ctx: DialectContext, spec: GameSpec): PlayedGame {
  const { rules, engine, walker } = ctx;
  const root = new Prng(spec.seed).fork(spec.variant ? `game:${spec.index}:${spec.variant}` : `game:${spec.index}`);
  const metaPrng = root.fork('meta');
  const botPrng = root.fork('bots');
  const clockPrng = root.fork('clock');
  const eventPrng = root.fork('events');
  const fatePrng = root.fork('fate');
  const rates = spec.rates;

  // ---- metadata ------------------------------------------------------------------
  const styles = { white: metaPrng.pick(spec.bots), black: metaPrng.pick(spec.bots) };
  const startMs = startTimeMs(spec.index, metaPrng);
  const id = uuidV1(startMs, metaPrng);
  const players = { white: makePlayer(styles.white, metaPrng), black: makePlayer(styles.black, metaPrng) };
  const timeControl = pickTimeControl(rules, metaPrng);
  let startFen = STANDARD_FEN;
  let chess960: number | null = null;
  if (rules.start.position === 'chess960' && metaPrng.chance(rates.chess960)) {
    chess960 = metaPrng.nextInt(960);
    const fen = chess960Fen(chess960);
    if (fen.ok) startFen = fen.value;
  }
  const pot = rules.stakes.kind === 'pot';
  const mode: GameRecord['mode'] = pot ? (rules.cube.enabled && rules.stakes.modes.includes('x2') && metaPrng.chance(rates.x2) ? 'x2' : 'classic') : null;
  const stake = pot ? pickStake(metaPrng) : 0;
  const rated = metaPrng.chance(0.7);

  let roller: Roller | null = null;
  let fairness: GameRecord['fairness'] = null;
  if (rules.dice.count > 0 && (rules.dice.draw as string) !== 'none') {
    if (rules.dice.draw === 'provably-fair') {
      const server = makeServerSeed(metaPrng);
      // A player who never submits a client seed is represented by their external id.
      const w = metaPrng.chance(0.15) && players.white.id ? players.white.id : makeClientSeed(metaPrng, 16 + metaPrng.nextInt(33));
      const b = metaPrng.chance(0.15) && players.black.id ? players.black.id : makeClientSeed(metaPrng, 16 + metaPrng.nextInt(33));
      const reveal = makeReveal(server, w, b);
      fairness = { commit: reveal.commit, serverSeed: reveal.serverSeed, clientSeeds: reveal.clientSeeds };
      roller = makeRoller({ method: 'provably-fair', count: rules.dice.count, reveal });
    } else {
      roller = makeRoller({ method: rules.dice.draw, count: rules.dice.count, prng: root.fork('dice') });
    }
  }

  // ---- fate: decided up front, applied after the natural game ------------------------
  const fateRoll = fatePrng.next();
  let fate: Fate = 'natural';
  let acc = 0;
  if (rules.end.resignation && fateRoll < (acc += rates.resign)) fate = 'resign';
  else if (timeControl.kind !== 'unlimited' && fateRoll < (acc += rates.timeout)) fate = 'timeout';
  else if (rules.draws.agreement && fateRoll < (acc += rates.drawAgreement)) fate = 'draw_agreement';
  const cutFraction = fatePrng.next();
  const partialWanted = fatePrng.chance(rates.partialLastTurn);
  const partialFraction = fatePrng.next();
  const fateSide: Color = fatePrng.chance(0.5) ? 0 : 1;

  // ---- the natural game ----------------------------------------------------------------
  const started = GameState.start(engine, startFen);
  if (!started.ok) throw new Error(`generate: bad start position ${startFen}: ${started.error.message}`);
  const state = started.value;
  const pos = state.pos;
  const turns: Turn[] = [];
  const trace: TurnTrace[] = [];
  const events: GameEvent[] = [];
  const clocked = timeControl.initialMs !== null;
  const clock = { w: timeControl.initialMs ?? 0, b: timeControl.initialMs ?? 0 };
  const incMs = timeControl.incrementMs ?? 0;
  const thinkBase = clocked ? Math.min(12_000, Math.max(800, (timeControl.initialMs ?? 0) / 80)) : 4000;
  let result: GameRecord['result'] = null;
  let termination: GameRecord['termination'] = 'unknown';
  let cubeValue = 1;
  let cubeOwner: Color | null = null;
  let partialLastTurn = false;
  const clockSnap = (): { w: number | null; b: number | null } | null => (clocked ? { w: clock.w, b: clock.b } : null);
  const dfenOpts = { castling: rules.castling.chess960 ? ('shredder' as const) : ('xfen' as const) };

  for (;;) {
    // The bots claim a draw as soon as the dialect lets them (draws.ruleDraws "claim").
    const end = state.outcome ?? state.drawClaim;
    if (end) {
      result = end.result;
      termination = TERMINATION_OF[end.reason];
      break;
    }
    if (turns.length >= GENERATOR_TURN_CAP) {
      if (rules.draws.agreement) {
        events.push(ev('DRAW_OFFER', turns.length + 1, null, pos.turn, clockSnap()), ev('DRAW_ACCEPT', turns.length + 1, null, (pos.turn ^ 1) as Color, clockSnap()));
        result = 'draw';
        termination = 'draw_agreement';
      } else {
        events.push(ev('RESIGN', turns.length + 1, null, pos.turn, clockSnap()));
        result = winnerOf((pos.turn ^ 1) as Color);
        termination = 'resign';
      }
      break;
    }
    const side = pos.turn;
    const turnIndex = turns.length + 1;

    // The doubling cube: offered before the roll, in place of it (by the last taker only, unless anyone may double).
    if (mode === 'x2' && (rules.cube.ownership === 'either' || cubeOwner === null || cubeOwner === side) && (rules.cube.cap === null || cubeValue * 2 <= rules.cube.cap)) {
      const lead = (side === 0 ? 1 : -1) * materialBalance(pos);
      if (eventPrng.chance(lead >= 3 ? 0.3 : rates.double)) {
        const bank = 2 * stake * cubeValue;
        events.push({ ...ev('DOUBLE_OFFER', turnIndex, null, side, clockSnap()), bank });
        const declineChance = lead >= 6 ? 0.6 : lead >= 3 ? 0.25 : 0.08;
        if (eventPrng.chance(declineChance)) {
          events.push({ ...ev('DOUBLE_DECLINE', turnIndex, null, (side ^ 1) as Color, clockSnap()), bank });
          result = winnerOf(side);
          termination = 'double_declined';
          break;
        }
        cubeValue *= 2;
        cubeOwner = (side ^ 1) as Color;
        events.push({ ...ev('DOUBLE_ACCEPT', turnIndex, null, (side ^ 1) as Color, clockSnap()), bank: 2 * stake * cubeValue });
      }
    }

    const fenBefore = makeDfen(pos, null, dfenOpts);
    const faces = roller ? roller.roll(turns.length, () => state.movableFaces().map((r) => ctx.roleToFace[r] as Role)) : [];
    const roles = faces.map((f) => ctx.faceToRole[f]);
    walker.begin(pos, roles);
    const allowed = allowedDice(walker, roles);
    walker.begin(pos, roles);
    const bot = BOTS[side === 0 ? styles.white : styles.black];
    let payer = -1;
    for (let m = bot.step(walker, botPrng); m !== null; m = bot.step(walker, botPrng)) {
      if (!walker.spendsDieByDie && walker.micro === 0) payer = payingDie(ctx, walker, roles, m);
      walker.play(m);
    }
    const played = walker.moves.length;
    const isPass = played === 0;
    let thinking = isPass && rules.clock.passesFree ? 0 : Math.round(thinkBase * (0.25 + 0.3 * Math.max(1, played)) * -Math.log(1 - clockPrng.next()) + 150);

    // A flag falls during the turn: it stops after a prefix of what the bot would have played,
    // or (no partial turns) before anything of it is recorded.
    const key = sideOf(side);
    if (clocked && thinking > 0 && thinking >= clock[key]) {
      const partial = played > 0 && clockPrng.chance(rates.partialLastTurn);
      const keep = partial ? clockPrng.nextInt(played) : 0;
      while (walker.moves.length > keep) walker.undo();
      if (partial) {
        thinking = clock[key];
        clock[key] = 0;
        const diceFlags = flagsFor(allowed, roles, walker.spentPerMove, walker.spendsDieByDie, walker.moves.length > 0 ? payer : -1);
        turns.push(turn(side, faces, walker.moves.map((m) => engine.uci(m)), makeDfen(pos, null, dfenOpts), clockSnap(), thinking, diceFlags));
        trace.push({ fenBefore, roles });
        events.push(ev('TIMEOUT', turnIndex, keep, side, clockSnap()));
        partialLastTurn = true;
      } else {
        clock[key] = 0;
        events.push(ev('TIMEOUT', turnIndex, null, side, clockSnap()));
      }
      result = flagFallResult(rules, pos, side);
      termination = 'timeout';
      pos.commit();
      break;
    }

    const moves = walker.moves.map((m) => engine.uci(m));
    const diceFlags = flagsFor(allowed, roles, walker.spentPerMove, walker.spendsDieByDie, payer);
    // A declined draw offer: between micro-moves where the dialect allows, else with the completed turn.
    const offer = rules.draws.agreement && eventPrng.chance(rates.drawOffer / 60);
    const midTurn = offer && rules.draws.midTurnOffers && played >= 2 && eventPrng.chance(0.5);
    const midAt = midTurn ? 1 + eventPrng.nextInt(played - 1) : 0;
    const midActor: Color = eventPrng.chance(0.5) ? side : ((side ^ 1) as Color);
    state.finishTurn(walker.kingCaptured);
    if (clocked) {
      clock[key] -= thinking;
      const earns = rules.clock.increment === 'per-micro-move' ? incMs * played : isPass && !rules.clock.passEarnsIncrement ? 0 : incMs;
      clock[key] += earns;
    }
    turns.push(turn(side, faces, moves, makeDfen(pos, null, dfenOpts), clockSnap(), thinking, diceFlags));
    trace.push({ fenBefore, roles });
    if (midTurn) {
      events.push(ev('DRAW_OFFER', turnIndex, midAt, midActor, clockSnap()), ev('DRAW_DECLINE', turnIndex, midAt, (midActor ^ 1) as Color, clockSnap()));
    } else if (offer && !(state.outcome ?? state.drawClaim)) {
      // An offer travels with the completed turn and is answered before the opponent's roll.
      events.push(ev('DRAW_OFFER', turnIndex + 1, null, side, clockSnap()), ev('DRAW_DECLINE', turnIndex + 1, null, (side ^ 1) as Color, clockSnap()));
    }
  }

  // ---- apply the fate: cut the game at a turn before its natural end ----------------------
  const n = turns.length;
  if (fate !== 'natural' && n >= 2 && termination !== 'timeout') {
    let k = 1 + Math.floor(cutFraction * (n - 1)); // 1 … n-1 turns kept
    const canPartial = fate !== 'draw_agreement' || rules.draws.midTurnOffers;
    // A flag never falls in an (instant) pass: a partial timeout moves back to a turn with moves.
    if (fate === 'timeout' && canPartial && partialWanted) while (k > 1 && turns[k - 1].moves.length === 0) k--;
    const partial = canPartial && partialWanted && turns[k - 1].moves.length > 0;
    turns.length = k;
    trace.length = k;
    const last = turns[k - 1];
    const mover: Color = last.side === 'w' ? 0 : 1;
    const next = (mover ^ 1) as Color;
    const keep = partial ? Math.floor(partialFraction * last.moves.length) : last.moves.length;
    if (partial) {
      cutTurn(ctx, trace[k - 1], last, keep, clockBefore(turns, k - 1, timeControl), fate === 'timeout');
      partialLastTurn = true;
    }
    filterEvents(events, k, partial ? keep : null);
    const snap = last.clockMs;
    if (fate === 'timeout') {
      // Partial: the mover's flag fell mid-turn. Otherwise the next player's fell before any move.
      const flagged = partial ? mover : next;
      const at = partial ? k : k + 1;
      const clocks = snap ? { ...snap, [sideOf(flagged)]: 0 } : null;
      events.push(ev('TIMEOUT', at, partial ? keep : null, flagged, clocks));
      result = winnerOf((flagged ^ 1) as Color);
      termination = 'timeout';
    } else if (fate === 'resign') {
      const resigner = partial ? mover : fateSide;
      events.push(ev('RESIGN', partial ? k : k + 1, partial ? keep : null, resigner, snap));
      result = winnerOf((resigner ^ 1) as Color);
      termination = 'resign';
    } else {
      const offerer = partial ? fateSide : mover;
      const at = partial ? k : k + 1;
      const micro = partial ? keep : null;
      events.push(ev('DRAW_OFFER', at, micro, offerer, snap), ev('DRAW_ACCEPT', at, micro, (offerer ^ 1) as Color, snap));
      result = 'draw';
      termination = 'draw_agreement';
    }
    cubeValue = 1;
    for (const e of events) if (e.type === 'DOUBLE_ACCEPT') cubeValue *= 2;
  }

  const totalThinking = turns.reduce((s, t) => s + (t.thinkingMs ?? 0), 0);
  const record: GameRecord = {
    id,
    site: siteOf(ctx.name),
    format: spec.format,
    location: null,
    mode,
    startFen,
    chess960,
    startedAt: isoSeconds(startMs),
    finishedAt: isoSeconds(startMs + totalThinking + 2000 * turns.length),
    rated,
    players,
    timeControl,
    stakes: pot ? { initial: stake, final: stake * cubeValue, currency: rules.stakes.currency } : null,
    turns,
    events,
    result,
    termination,
    fairness,
    notes: [],
  } as GameRecord;
  return { record, styles, trace, partialLastTurn };
}

function ev(type: GameEvent['type'], turn: number, microMove: number | null, actor: Color, clockMs: GameEvent['clockMs']): GameEvent {
  return { type, turn, microMove, actor: sideOf(actor), bank: null, clockMs };
}

function turn(side: Color, dice: number[], moves: string[], fenAfter: string, clockMs: Turn['clockMs'], thinkingMs: number, diceFlags: Turn['diceFlags']): Turn {
  return { side: sideOf(side), dice, diceOrder: 'roll', moves, fenAfter, clockMs, thinkingMs, diceFlags, location: null };
}

/** Per-die flags once the turn is known (`allowed` was judged at the roll). */
function flagsFor(allowed: boolean[], roles: Role[], spentPerMove: number[][], eachDie: boolean, payer: number): Turn['diceFlags'] {
  if (roles.length === 0) return null;
  let used: boolean[];
  if (eachDie) {
    const left = new Int8Array(7);
    for (const list of spentPerMove) for (const r of list) left[r]++;
    used = roles.map((r) => (left[r] > 0 ? (left[r]--, true) : false));
  } else {
    used = roles.map((_, i) => i === payer);
  }
  return roles.map((_, i) => ({ allowed: allowed[i], used: used[i] }));
}

/** The die that paid for a one-move dialect's move: the first whose piece type can make it. */
function payingDie(ctx: DialectContext, walker: TurnWalker, roles: Role[], m: Move): number {
  const buf: Move[] = [];
  for (let i = 0; i < roles.length; i++) {
    const n = ctx.engine.micro.generate(walker.position, DicePool.of([roles[i]]), 0, buf);
    for (let k = 0; k < n; k++) if (buf[k] === m) return i;
  }
  return roles.length > 0 ? 0 : -1;
}

/** Loss on time, or a draw when the dialect spares a player whose opponent cannot mate. */
function flagFallResult(rules: Rules, pos: Position | null, flagged: Color): GameRecord['result'] {
  if (rules.end.flagFall === 'loss-unless-insufficient' && pos !== null && !canWin(pos, (flagged ^ 1) as Color, rules)) return 'draw';
  return winnerOf((flagged ^ 1) as Color);
}

/** The clocks before turn index i (0-based). */
function clockBefore(turns: Turn[], i: number, tc: TimeControl): { w: number; b: number } | null {
  if (tc.initialMs === null) return null;
  for (let j = i - 1; j >= 0; j--) {
    const c = turns[j].clockMs;
    if (c && c.w !== null && c.b !== null) return { w: c.w, b: c.b };
  }
  return { w: tc.initialMs, b: tc.initialMs };
}

/** Cuts a recorded turn to its first `keep` micro-moves: position, flags and clocks follow. */
function cutTurn(ctx: DialectContext, trace: TurnTrace, t: Turn, keep: number, before: { w: number; b: number } | null, flagFell: boolean): void {
  const parsed = parseDialectDfen(ctx.rules, trace.fenBefore);
  if (!parsed.ok) throw new Error(`generate: cannot re-read ${trace.fenBefore}`);
  const pos = parsed.value.pos;
  const full = t.moves.length;
  const spentPerMove: number[][] = [];
  for (let i = 0; i < keep; i++) {
    const m = uciToMove(pos, t.moves[i]);
    if (!m.ok) throw new Error(`generate: cannot re-play ${t.moves[i]}`);
    const spent: number[] = [];
    ctx.engine.micro.cost(pos, m.value, spent);
    spentPerMove.push(spent);
    pos.make(m.value);
  }
  t.moves = t.moves.slice(0, keep);
  t.fenAfter = makeDfen(pos, null, { castling: ctx.rules.castling.chess960 ? 'shredder' : 'xfen' });
  if (t.diceFlags) {
    const eachDie = ctx.rules.turn.structure === 'each-die' && ctx.rules.dice.count > 0;
    const payer = t.diceFlags.findIndex((f) => f.used);
    const flags = flagsFor(
      t.diceFlags.map((f) => f.allowed),
      trace.roles,
      spentPerMove,
      eachDie,
      keep > 0 ? payer : -1,
    );
    t.diceFlags = flags;
  }
  const key = t.side;
  const thinking = t.thinkingMs ?? 0;
  if (before) {
    const spentTime = flagFell ? before[key] : Math.round((thinking * (keep + 1)) / (full + 1));
    t.thinkingMs = spentTime;
    t.clockMs = { ...before, [key]: before[key] - spentTime };
  }
}

/** Drops events after the cut: keeps those before turn k, and those in turn k up to micro-move `keep` (null: all of turn k). */
function filterEvents(events: GameEvent[], k: number, keep: number | null): void {
  let w = 0;
  for (const e of events) {
    const inside = e.turn < k || (e.turn === k && (keep === null || e.microMove === null || e.microMove < keep));
    if (inside) events[w++] = e;
  }
  events.length = w;
}
