import { type Color, chess960Fen, type Die, type Move, makeDfen, type Position, type Role, STANDARD_FEN, uciToMove } from '../core/index.js';
import { FACES, makeClientSeed, makeReveal, makeRoller, makeServerSeed, Prng, type Roller } from '../dice/index.js';
import type { FormatName, GameEvent, GameRecord, TimeControl, Turn } from '../records/model/game-record.js';
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
  /** Die roles in roll order (what the roll gives the turn, where the dialect reads rolls itself). */
  roles: Die[];
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

/** The PRNG streams of one game, each forked from the game's root. */
interface GamePrngs {
  root: Prng;
  meta: Prng;
  bots: Prng;
  clock: Prng;
  events: Prng;
  fate: Prng;
}

/** What a game is before its first turn: players, time control, start, stakes, dice. */
interface GameMeta {
  styles: { white: BotStyle; black: BotStyle };
  startMs: number;
  id: string;
  players: GameRecord['players'];
  timeControl: TimeControl;
  startFen: string;
  chess960: number | null;
  /** The stakes are a pot (dicechess.com): the game has a mode and a stake. */
  pot: boolean;
  mode: GameRecord['mode'];
  stake: number;
  rated: boolean;
  roller: Roller | null;
  fairness: GameRecord['fairness'];
}

/** How a game ends other than naturally, drawn before it is played and applied after. */
interface GameFate {
  fate: Fate;
  cutFraction: number;
  partialWanted: boolean;
  partialFraction: number;
  fateSide: Color;
}

/** The game as it is played and then cut: the record's turns, events and end. */
interface Played {
  turns: Turn[];
  trace: TurnTrace[];
  events: GameEvent[];
  result: GameRecord['result'];
  termination: GameRecord['termination'];
  cubeValue: number;
  cubeOwner: Color | null;
  partialLastTurn: boolean;
}

/** A game under way: its state, its clocks and what its turns cost in time. */
interface Table {
  ctx: DialectContext;
  spec: GameSpec;
  meta: GameMeta;
  prngs: GamePrngs;
  state: GameState;
  clocked: boolean;
  clock: { w: number; b: number };
  incMs: number;
  thinkBase: number;
  dfenOpts: { castling: 'shredder' | 'xfen' };
}

/** Plays one game by self-play under the dialect. Deterministic in (seed, index, rates, bots, format). */
export function playGame(ctx: DialectContext, spec: GameSpec): PlayedGame {
  const root = new Prng(spec.seed).fork(spec.variant ? `game:${spec.index}:${spec.variant}` : `game:${spec.index}`);
  const prngs: GamePrngs = { root, meta: root.fork('meta'), bots: root.fork('bots'), clock: root.fork('clock'), events: root.fork('events'), fate: root.fork('fate') };
  const meta = gameMeta(ctx.rules, spec, prngs);
  const fate = drawFate(ctx.rules, spec.rates, meta.timeControl, prngs.fate);
  const played = playNatural(ctx, spec, meta, prngs);
  applyFate(ctx, played, fate, meta.timeControl);
  return { record: makeRecord(ctx, spec, meta, played), styles: meta.styles, trace: played.trace, partialLastTurn: played.partialLastTurn };
}

/** The metadata, drawn in a fixed order from the meta stream (the dice from their own). */
function gameMeta(rules: Rules, spec: GameSpec, prngs: GamePrngs): GameMeta {
  const metaPrng = prngs.meta;
  const rates = spec.rates;
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
      roller = makeRoller({ method: rules.dice.draw, count: rules.dice.count, prng: prngs.root.fork('dice') });
    }
  }
  return { styles, startMs, id, players, timeControl, startFen, chess960, pot, mode, stake, rated, roller, fairness };
}

/** The fate: decided up front, applied after the natural game. */
function drawFate(rules: Rules, rates: Rates, timeControl: TimeControl, fatePrng: Prng): GameFate {
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
  return { fate, cutFraction, partialWanted, partialFraction, fateSide };
}

/** The natural game: turns until the dialect ends it, a flag falls, the cube is declined or the turn cap is reached. */
function playNatural(ctx: DialectContext, spec: GameSpec, meta: GameMeta, prngs: GamePrngs): Played {
  const { rules } = ctx;
  const started = GameState.start(ctx.engine, meta.startFen);
  if (!started.ok) throw new Error(`generate: bad start position ${meta.startFen}: ${started.error.message}`);
  const tc = meta.timeControl;
  const clocked = tc.initialMs !== null;
  const table: Table = {
    ctx,
    spec,
    meta,
    prngs,
    state: started.value,
    clocked,
    clock: { w: tc.initialMs ?? 0, b: tc.initialMs ?? 0 },
    incMs: tc.incrementMs ?? 0,
    thinkBase: clocked ? Math.min(12_000, Math.max(800, (tc.initialMs ?? 0) / 80)) : 4000,
    dfenOpts: { castling: rules.castling.chess960 ? 'shredder' : 'xfen' },
  };
  const game: Played = { turns: [], trace: [], events: [], result: null, termination: 'unknown', cubeValue: 1, cubeOwner: null, partialLastTurn: false };
  while (!gameOver(table, game) && !cubeDeclined(table, game) && !playTurn(table, game));
  return game;
}

const clockSnap = (t: Table): { w: number | null; b: number | null } | null => (t.clocked ? { w: t.clock.w, b: t.clock.b } : null);

/** Has the game ended before this turn (the dialect's end, a draw the bots claim, the turn cap)? Sets its result. */
function gameOver(t: Table, game: Played): boolean {
  const { state } = t;
  const pos = state.pos;
  // The bots claim a draw as soon as the dialect lets them (draws.ruleDraws "claim").
  const end = state.outcome ?? state.drawClaim;
  if (end) {
    game.result = end.result;
    game.termination = TERMINATION_OF[end.reason];
    return true;
  }
  if (game.turns.length < GENERATOR_TURN_CAP) return false;
  const at = game.turns.length + 1;
  if (t.ctx.rules.draws.agreement) {
    game.events.push(ev('DRAW_OFFER', at, null, pos.turn, clockSnap(t)), ev('DRAW_ACCEPT', at, null, (pos.turn ^ 1) as Color, clockSnap(t)));
    game.result = 'draw';
    game.termination = 'draw_agreement';
  } else {
    game.events.push(ev('RESIGN', at, null, pos.turn, clockSnap(t)));
    game.result = winnerOf((pos.turn ^ 1) as Color);
    game.termination = 'resign';
  }
  return true;
}

/** The doubling cube: offered before the roll, in place of it. True when the offer is declined (the game ends). */
function cubeDeclined(t: Table, game: Played): boolean {
  const { rules } = t.ctx;
  const { stake } = t.meta;
  const pos = t.state.pos;
  const side = pos.turn;
  const turnIndex = game.turns.length + 1;
  // Offered before the roll, in place of it, by the last taker only unless anyone may double.
  if (t.meta.mode !== 'x2' || !(rules.cube.ownership === 'either' || game.cubeOwner === null || game.cubeOwner === side) || !(rules.cube.cap === null || game.cubeValue * 2 <= rules.cube.cap)) return false;
  const eventPrng = t.prngs.events;
  const lead = (side === 0 ? 1 : -1) * materialBalance(pos);
  if (!eventPrng.chance(lead >= 3 ? 0.3 : t.spec.rates.double)) return false;
  // An event's bank is the pot it leaves or proposes, as the site writes it (docs/formats.md):
  // an offer's is the pot the double would make (the ingest wire's DOUBLE_OFFER payload, a
  // state map's risen bank); a decline's is the pot standing, which the decline leaves as it was.
  const pot = 2 * stake * game.cubeValue;
  game.events.push({ ...ev('DOUBLE_OFFER', turnIndex, null, side, clockSnap(t)), bank: pot * 2 });
  const declineChance = lead >= 6 ? 0.6 : lead >= 3 ? 0.25 : 0.08;
  if (eventPrng.chance(declineChance)) {
    game.events.push({ ...ev('DOUBLE_DECLINE', turnIndex, null, (side ^ 1) as Color, clockSnap(t)), bank: pot });
    game.result = winnerOf(side);
    game.termination = 'double_declined';
    return true;
  }
  game.cubeValue *= 2;
  game.cubeOwner = (side ^ 1) as Color;
  game.events.push({ ...ev('DOUBLE_ACCEPT', turnIndex, null, (side ^ 1) as Color, clockSnap(t)), bank: 2 * stake * game.cubeValue });
  return false;
}

/** One turn: the roll, the bot's micro-moves, the clock, a declined draw offer. True when a flag fell in it (the game ends). */
function playTurn(t: Table, game: Played): boolean {
  const { ctx, state } = t;
  const { rules, engine, walker } = ctx;
  const rates = t.spec.rates;
  const pos = state.pos;
  const side = pos.turn;
  const turnIndex = game.turns.length + 1;
  const fenBefore = makeDfen(pos, null, t.dfenOpts);
  const roller = t.meta.roller;
  // A turn the dialect does not roll (a free first move, in or after check) records no dice.
  const rolls = roller !== null && state.freeTurn() === null;
  const faces = rolls ? roller.roll(game.turns.length, () => state.movableFaces().map((r) => ctx.roleToFace[r] as Role)) : [];
  // Where the dialect reads rolls itself (count dice, faces per die, free turns) the dice are not the faces, and no site records per-die flags.
  const plain = state.plainRolls;
  const roles: Die[] = plain ? faces.map((f) => ctx.faceToRole[f]) : [...state.turnDice(faces).dice];
  walker.begin(pos, roles);
  const allowed = plain ? allowedDice(walker, roles) : [];
  walker.begin(pos, roles);
  const bot = BOTS[side === 0 ? t.meta.styles.white : t.meta.styles.black];
  let payer = -1;
  for (let m = bot.step(walker, t.prngs.bots); m !== null; m = bot.step(walker, t.prngs.bots)) {
    if (!walker.spendsDieByDie && walker.micro === 0) payer = payingDie(ctx, walker, roles, m);
    walker.play(m);
  }
  const played = walker.moves.length;
  const isPass = played === 0;
  const clockPrng = t.prngs.clock;
  let thinking = isPass && rules.clock.passesFree ? 0 : Math.round(t.thinkBase * (0.25 + 0.3 * Math.max(1, played)) * -Math.log(1 - clockPrng.next()) + 150);

  // A flag falls during the turn: it stops after a prefix of what the bot would have played,
  // or (no partial turns) before anything of it is recorded.
  const key = sideOf(side);
  const clock = t.clock;
  if (t.clocked && thinking > 0 && thinking >= clock[key]) {
    const partial = played > 0 && clockPrng.chance(rates.partialLastTurn);
    const keep = partial ? clockPrng.nextInt(played) : 0;
    while (walker.moves.length > keep) walker.undo();
    if (partial) {
      thinking = clock[key];
      clock[key] = 0;
      const diceFlags = flagsFor(allowed, roles, walker.spentPerMove, walker.spendsDieByDie, walker.moves.length > 0 ? payer : -1);
      game.turns.push(turn(side, faces, walker.moves.map((m) => engine.uci(m)), makeDfen(pos, null, t.dfenOpts), clockSnap(t), thinking, diceFlags));
      game.trace.push({ fenBefore, roles });
      game.events.push(ev('TIMEOUT', turnIndex, keep, side, clockSnap(t)));
      game.partialLastTurn = true;
    } else {
      clock[key] = 0;
      game.events.push(ev('TIMEOUT', turnIndex, null, side, clockSnap(t)));
    }
    game.result = flagFallResult(rules, pos, side);
    game.termination = 'timeout';
    pos.commit();
    return true;
  }

  const moves = walker.moves.map((m) => engine.uci(m));
  const diceFlags = flagsFor(allowed, roles, walker.spentPerMove, walker.spendsDieByDie, payer);
  // A declined draw offer: between micro-moves where the dialect allows, else with the completed turn.
  const eventPrng = t.prngs.events;
  const offer = rules.draws.agreement && eventPrng.chance(rates.drawOffer / 60);
  const midTurn = offer && rules.draws.midTurnOffers && played >= 2 && eventPrng.chance(0.5);
  const midAt = midTurn ? 1 + eventPrng.nextInt(played - 1) : 0;
  const midActor: Color = eventPrng.chance(0.5) ? side : ((side ^ 1) as Color);
  state.finishTurn(walker.kingCaptured);
  if (t.clocked) {
    clock[key] -= thinking;
    const earns = rules.clock.increment === 'per-micro-move' ? t.incMs * played : isPass && !rules.clock.passEarnsIncrement ? 0 : t.incMs;
    clock[key] += earns;
  }
  game.turns.push(turn(side, faces, moves, makeDfen(pos, null, t.dfenOpts), clockSnap(t), thinking, diceFlags));
  game.trace.push({ fenBefore, roles });
  if (midTurn) {
    game.events.push(ev('DRAW_OFFER', turnIndex, midAt, midActor, clockSnap(t)), ev('DRAW_DECLINE', turnIndex, midAt, (midActor ^ 1) as Color, clockSnap(t)));
  } else if (offer && !(state.outcome ?? state.drawClaim)) {
    // An offer travels with the completed turn and is answered before the opponent's roll.
    game.events.push(ev('DRAW_OFFER', turnIndex + 1, null, side, clockSnap(t)), ev('DRAW_DECLINE', turnIndex + 1, null, (side ^ 1) as Color, clockSnap(t)));
  }
  return false;
}

/** Applies the fate: cuts the game at a turn before its natural end, and ends it as the fate says. */
function applyFate(ctx: DialectContext, game: Played, f: GameFate, timeControl: TimeControl): void {
  const { rules } = ctx;
  const { fate, partialWanted } = f;
  const { turns, trace, events } = game;
  const n = turns.length;
  if (fate === 'natural' || n < 2 || game.termination === 'timeout') return;
  let k = 1 + Math.floor(f.cutFraction * (n - 1)); // 1 … n-1 turns kept
  const canPartial = fate !== 'draw_agreement' || rules.draws.midTurnOffers;
  // A flag never falls in an (instant) pass: a partial timeout moves back to a turn with moves.
  if (fate === 'timeout' && canPartial && partialWanted) while (k > 1 && turns[k - 1].moves.length === 0) k--;
  const partial = canPartial && partialWanted && turns[k - 1].moves.length > 0;
  turns.length = k;
  trace.length = k;
  const last = turns[k - 1];
  const mover: Color = last.side === 'w' ? 0 : 1;
  const next = (mover ^ 1) as Color;
  const keep = partial ? Math.floor(f.partialFraction * last.moves.length) : last.moves.length;
  if (partial) {
    cutTurn(ctx, trace[k - 1], last, keep, clockBefore(turns, k - 1, timeControl), fate === 'timeout');
    game.partialLastTurn = true;
  }
  filterEvents(events, k, partial ? keep : null);
  const snap = last.clockMs;
  if (fate === 'timeout') {
    // Partial: the mover's flag fell mid-turn. Otherwise the next player's fell before any move.
    const flagged = partial ? mover : next;
    const at = partial ? k : k + 1;
    const clocks = snap ? { ...snap, [sideOf(flagged)]: 0 } : null;
    events.push(ev('TIMEOUT', at, partial ? keep : null, flagged, clocks));
    game.result = winnerOf((flagged ^ 1) as Color);
    game.termination = 'timeout';
  } else if (fate === 'resign') {
    const resigner = partial ? mover : f.fateSide;
    events.push(ev('RESIGN', partial ? k : k + 1, partial ? keep : null, resigner, snap));
    game.result = winnerOf((resigner ^ 1) as Color);
    game.termination = 'resign';
  } else {
    const offerer = partial ? f.fateSide : mover;
    const at = partial ? k : k + 1;
    const micro = partial ? keep : null;
    events.push(ev('DRAW_OFFER', at, micro, offerer, snap), ev('DRAW_ACCEPT', at, micro, (offerer ^ 1) as Color, snap));
    game.result = 'draw';
    game.termination = 'draw_agreement';
  }
  game.cubeValue = 1;
  for (const e of events) if (e.type === 'DOUBLE_ACCEPT') game.cubeValue *= 2;
}

/** The game's record, as the canonical record holds it. */
function makeRecord(ctx: DialectContext, spec: GameSpec, meta: GameMeta, game: Played): GameRecord {
  const { turns } = game;
  const totalThinking = turns.reduce((s, t) => s + (t.thinkingMs ?? 0), 0);
  return {
    id: meta.id,
    site: siteOf(ctx.name),
    format: spec.format,
    location: null,
    mode: meta.mode,
    startFen: meta.startFen,
    chess960: meta.chess960,
    startedAt: isoSeconds(meta.startMs),
    finishedAt: isoSeconds(meta.startMs + totalThinking + 2000 * turns.length),
    rated: meta.rated,
    players: meta.players,
    timeControl: meta.timeControl,
    stakes: meta.pot ? { initial: meta.stake, final: meta.stake * game.cubeValue, currency: ctx.rules.stakes.currency } : null,
    turns,
    events: game.events,
    result: game.result,
    termination: game.termination,
    fairness: meta.fairness,
    notes: [],
  } as GameRecord;
}

function ev(type: GameEvent['type'], turn: number, microMove: number | null, actor: Color, clockMs: GameEvent['clockMs']): GameEvent {
  return { type, turn, microMove, actor: sideOf(actor), bank: null, clockMs };
}

function turn(side: Color, dice: number[], moves: string[], fenAfter: string, clockMs: Turn['clockMs'], thinkingMs: number, diceFlags: Turn['diceFlags']): Turn {
  return { side: sideOf(side), dice, diceOrder: 'roll', moves, fenAfter, clockMs, thinkingMs, diceFlags, location: null };
}

/** Per-die flags once the turn is known (`allowed` was judged at the roll). */
function flagsFor(allowed: boolean[], roles: readonly Die[], spentPerMove: number[][], eachDie: boolean, payer: number): Turn['diceFlags'] {
  if (roles.length === 0 || allowed.length !== roles.length) return null;
  let used: boolean[];
  if (eachDie) {
    const left = new Int8Array(8);
    for (const list of spentPerMove) for (const r of list) left[r]++;
    used = roles.map((r) => (left[r] > 0 ? (left[r]--, true) : false));
  } else {
    used = roles.map((_, i) => i === payer);
  }
  return roles.map((_, i) => ({ allowed: allowed[i], used: used[i] }));
}

/** The die that paid for a one-move dialect's move: the first whose piece type can make it. */
function payingDie(ctx: DialectContext, walker: TurnWalker, roles: readonly Die[], m: Move): number {
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
