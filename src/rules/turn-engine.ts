import { type Die, type Move, type Position, makeDfen, makeUci, uciMove } from '../core/index.js';
import { classifyIllegal } from './classify.js';
import { type DiceCost, diceIn } from './dice-cost.js';
import { SpendableDice } from './spendable-dice.js';
import { DicePool } from './dice-pool.js';
import type { MicroMoves } from './micro-moves.js';
import type { RuleId } from './rule-ids.js';
import type { Rules } from './rules.js';
import { TurnSearch } from './turn-search.js';

/** Why a recorded turn is not one the dialect allows. */
export interface TurnFinding {
  rule: RuleId;
  /** 0-based index of the offending micro-move (recorded.length = a move is missing); null = the turn as a whole. */
  microMove: number | null;
  /** DFEN before the offending micro-move, with the dice still to play. */
  dfen: string;
  /** Legal continuations from that point (UCI); [] inside = pass. Capped. */
  allowed: string[][];
  message: string;
}

export type TurnVerdict =
  | { ok: true; kingCaptured: boolean; diceSpent: number; moves: Move[]; /** False for a partial turn that stopped while it could go on. */ complete: boolean }
  | { ok: false; finding: TurnFinding; /** Moves that were applied before the divergence. */ moves: Move[] };

const NO_DICE_SPENDABLE = new Int8Array(7);
const ALTERNATIVES_CAP = 24;

/** How a recorded turn is read, for `judge` and `play` alike. */
export interface RecordedTurnOptions {
  /** The game ended during this turn: it only has to be the start of some legal turn. */
  partial?: boolean;
  /**
   * A first micro-move already known to be legal in orthodox chess here, a piece move that
   * leaves the king safe (the game state's end-of-turn test found it), so the king-safety
   * test (and where the dialect reads moves as chess does, the geometry) is not run again for it.
   */
  safeFirst?: Move;
  /** The recorded text `safeFirst` was read from (on this position): a first micro-move of this very text is that move, not read again. */
  safeFirstText?: string;
  /** The turn may pass by choice (an `any` face, a free turn after giving check), on top of `pass.voluntary`. */
  mayPass?: boolean;
}

const NO_OPTIONS: RecordedTurnOptions = {};

/**
 * The dialect-parameterised turn engine. It judges recorded turns (`judge`, which leaves
 * the position as it found it, and `play`, which leaves a legal turn played), lists legal
 * first micro-moves and legal full turns. One engine per dialect; it mutates the position
 * it is given and restores it, except `play`.
 */
export class TurnEngine {
  /** The maximum search (best, target, stepLegal, canCaptureKing) this engine judges and lists turns with. */
  readonly search: TurnSearch;
  readonly micro: MicroMoves;
  private readonly eachDie: boolean;
  /**
   * Can the judge prove a recorded turn's target with one walk that also yields the
   * spendable dice (SpendableDice.prove)? Path readings where every die spent is one the
   * pool holds, of a piece type the side has or can promote to: then a turn spends no
   * more than the living dice, and the searches' bounds are exact. Dice that pay for other
   * types (en passant or promotion on any die, castling on a rook die) take the slow way.
   */
  private readonly provable: boolean;
  private readonly flags: SpendableDice;

  /** Does every die pay for its own micro-move (as opposed to one move per turn)? */
  get spendsDieByDie(): boolean {
    return this.eachDie;
  }

  constructor(readonly rules: Rules) {
    this.search = new TurnSearch(rules);
    this.micro = this.search.micro;
    this.eachDie = this.search.spendsDieByDie;
    this.provable =
      this.eachDie &&
      (rules.maximum === 'path' || rules.maximum === 'path-all') &&
      rules.promotion.die === 'pawn' &&
      rules.enPassant.die === 'pawn' &&
      rules.castling.dice !== 'king-or-rook' &&
      rules.dice.reads === 'pieces' &&
      !rules.turn.onePiece;
    this.flags = new SpendableDice(this.search, this.search.memo);
  }

  private get countsMoves(): boolean {
    return this.rules.maximumCounts === 'moves';
  }

  /** The unit of the maximum, for findings. */
  private get unit(): string {
    return this.countsMoves ? 'moves' : 'dice';
  }

  uci(m: Move): string {
    return makeUci(m, this.rules.castling.notation);
  }

  private readonly judgePool = new DicePool();
  /**
   * The micro-moves of the turn being judged and the dice each spent (run() is never
   * re-entered); a verdict gets a copy of the moves of its exact length.
   */
  private readonly judgeMoves: Move[] = [];
  private readonly judgeCosts: DiceCost[] = [];


  // ---- the search's, for callers holding an engine ----------------------------------

  /** See TurnSearch.best. */
  best(pos: Position, pool: DicePool, micro: number, countCaptures: boolean): number {
    return this.search.best(pos, pool, micro, countCaptures);
  }

  /** See TurnSearch.canCaptureKing. */
  canCaptureKing(pos: Position, pool: DicePool, micro: number): boolean {
    return this.search.canCaptureKing(pos, pool, micro);
  }

  /** See TurnSearch.stepLegal. */
  stepLegal(pos: Position, pool: DicePool, micro: number, m: Move, spentSoFar: number, target: number): boolean {
    return this.search.stepLegal(pos, pool, micro, m, spentSoFar, target);
  }

  /** See TurnSearch.targetFor. */
  targetFor(pos: Position, pool: DicePool, micro: number): number {
    return this.search.targetFor(pos, pool, micro);
  }

  // ---- public queries -------------------------------------------------------------

  /** Legal first micro-moves with these dice (a forced pass gives []). */
  legalFirstMicroMoves(pos: Position, dice: readonly Die[]): Move[] {
    const pool = DicePool.of(dice);
    return this.legalStepsAt(pos, pool, 0, 0, this.search.targetFor(pos, pool, 0));
  }

  private legalStepsAt(pos: Position, pool: DicePool, micro: number, spentSoFar: number, target: number): Move[] {
    const { buf, n } = this.search.gen(pos, pool, micro);
    const moves = buf.slice(0, n);
    if (!this.eachDie) return moves;
    return moves.filter((m) => this.search.stepLegal(pos, pool, micro, m, spentSoFar, target));
  }

  /** Every legal full turn (ordered micro-move lists); a forced pass is the single empty turn. */
  legalTurns(pos: Position, dice: readonly Die[], limit = Infinity): Move[][] {
    const pool = DicePool.of(dice);
    const target = this.search.targetFor(pos, pool, 0);
    const out: Move[][] = [];
    this.collectTurns(pos, pool, 0, 0, target, [], out, limit);
    return out;
  }

  private collectTurns(
    pos: Position,
    pool: DicePool,
    micro: number,
    spentSoFar: number,
    target: number,
    prefix: Move[],
    out: Move[][],
    limit: number,
  ): void {
    if (out.length >= limit) return;
    const steps = pool.total === 0 && this.eachDie ? [] : this.legalStepsAt(pos, pool, micro, spentSoFar, target);
    if (steps.length === 0 || (!this.eachDie && micro > 0)) {
      out.push(prefix.slice());
      return;
    }
    if (!this.eachDie) {
      for (const m of steps) {
        if (out.length >= limit) return;
        out.push([...prefix, m]);
      }
      return;
    }
    for (const m of steps) {
      if (out.length >= limit) return;
      if (this.micro.capturesKing(pos, m)) {
        out.push([...prefix, m]);
        continue;
      }
      const cost = this.search.spend(pos, m, pool);
      pos.make(m);
      prefix.push(m);
      this.collectTurns(pos, pool, micro + 1, spentSoFar + this.search.counted(cost), target, prefix, out, limit);
      prefix.pop();
      pos.unmake(m);
      pool.refund(cost);
    }
  }

  /**
   * For each role, the most dice of that role some legal turn spends: what a site's
   * per-die `allowed` flags should say (see spendable-dice.ts). Into `out` when given
   * (the replayer's one array), else a fresh array.
   */
  spendableDice(pos: Position, dice: readonly Die[], knownTarget?: number, out?: Int8Array): Int8Array {
    return this.flags.of(pos, dice, knownTarget, out);
  }

  /**
   * `spendableDice` when the known target alone decides it (a legal turn that spent every
   * die), so the turn's start position is not needed; null otherwise.
   */
  spendableFromTarget(dice: readonly Die[], knownTarget: number | undefined, out?: Int8Array): Int8Array | null {
    return this.flags.fromTarget(dice, knownTarget, out);
  }

  // ---- judging a recorded turn ------------------------------------------------------

  /** Judges a recorded turn (UCI micro-moves) on `pos`, which it leaves as it found it. */
  judge(pos: Position, dice: readonly Die[], recorded: ReadonlyArray<string>, opts: RecordedTurnOptions = NO_OPTIONS): TurnVerdict {
    return this.run(pos, dice, recorded, false, opts.partial === true, opts.safeFirst ?? -1, opts.mayPass === true, opts.safeFirstText);
  }

  /**
   * Judges a recorded turn and leaves it played on `pos`: a legal turn whole, an illegal
   * one up to its divergence. The turn is not ended (the caller ends it: GameState).
   */
  play(pos: Position, dice: readonly Die[], recorded: ReadonlyArray<string>, opts: RecordedTurnOptions = NO_OPTIONS): TurnVerdict {
    return this.run(pos, dice, recorded, true, opts.partial === true, opts.safeFirst ?? -1, opts.mayPass === true, opts.safeFirstText);
  }

  /** `judge` and `play`: `apply` keeps what was played. */
  private run(pos: Position, dice: readonly Die[], recorded: ReadonlyArray<string>, apply: boolean, partial: boolean, safeFirst: Move | -1, mayPass: boolean, safeText?: string): TurnVerdict {
    // run() is never re-entered, so one pool and one cost list serve every turn.
    const pool = this.judgePool.reset(dice);
    const moves = this.judgeMoves;
    const costs = this.judgeCosts;
    // A partial turn (the game ended mid-turn) must only be the start of some legal turn.
    const stepCheck = partial && this.eachDie && this.rules.maximum !== 'none';
    const partialTarget = stepCheck ? this.search.targetFor(pos, pool, 0) : 0;
    let played = 0;
    // What the maximum counts (dice, or moves) and the dice themselves.
    let spentSoFar = 0;
    let diceSpent = 0;
    let kingCaptured = false;

    for (let i = 0; i < recorded.length; i++) {
      if (kingCaptured) {
        return this.refuse(pos, pool, played, apply, this.finding(pos, pool, i, 'end.move-after-king-capture', `the king was captured by micro-move ${i}; "${recorded[i]}" comes after the game ended`, [[]]));
      }
      if (!this.eachDie && i > 0) {
        return this.refuse(pos, pool, played, apply, this.finding(pos, pool, i, 'turn.too-many-moves', `this dialect plays one move per turn; "${recorded[i]}" is a second move`, null, spentSoFar));
      }
      let m = i === 0 && safeFirst >= 0 && recorded[0] === safeText ? safeFirst : uciMove(pos, recorded[i]);
      if (m < 0 || !this.micro.allows(pos, pool, i, m, i === 0 && m === safeFirst)) {
        const { buf, n } = this.search.gen(pos, pool, i);
        const resolved = classifyIllegal(this.search, pos, pool, i, recorded[i], buf, n);
        if (!resolved.ok) return this.refuse(pos, pool, played, apply, this.finding(pos, pool, i, resolved.rule, resolved.message, null, spentSoFar));
        m = resolved.move;
      }
      if (stepCheck && !this.search.stepLegal(pos, pool, i, m, spentSoFar, partialTarget)) {
        return this.refuse(pos, pool, played, apply, this.finding(pos, pool, i, 'maximum.fewer-dice', `no legal turn goes on from "${recorded[i]}": it cannot reach the ${partialTarget} ${this.unit} the position allows`, null, spentSoFar));
      }
      if (this.micro.capturesKing(pos, m)) kingCaptured = true;
      if (!partial && this.eachDie && this.rules.maximum === 'micro-move' && (!kingCaptured || !this.rules.kingCaptureExempt)) {
        const before = this.search.best(pos, pool, i, true);
        const cost = this.search.spend(pos, m, pool);
        pos.make(m);
        // Nothing is played after a king capture: it ends the line.
        const after = kingCaptured ? 0 : this.search.best(pos, pool, i + 1, true);
        pos.unmake(m);
        pool.refund(cost);
        if (this.search.counted(cost) + after !== before) {
          const message = `after "${recorded[i]}" at most ${spentSoFar + this.search.counted(cost) + after} ${this.unit} can be spent, but ${spentSoFar + before} can`;
          return this.refuse(pos, pool, played, apply, this.finding(pos, pool, i, 'maximum.fewer-dice', message, null, spentSoFar));
        }
      }
      const cost = this.search.spend(pos, m, pool);
      moves[played] = m;
      costs[played] = cost;
      played++;
      spentSoFar += this.search.counted(cost);
      diceSpent += diceIn(cost);
      pos.make(m);
    }

    if (partial) {
      const complete = kingCaptured || (this.eachDie ? pool.total === 0 || this.search.gen(pos, pool, played).n === 0 : played > 0 || this.search.gen(pos, pool, 0).n === 0);
      if (!apply) this.undo(pos, played, pool);
      return { ok: true, kingCaptured, diceSpent, moves: moves.slice(0, played), complete };
    }
    if (recorded.length === 0 && (this.rules.pass.voluntary || mayPass)) return { ok: true, kingCaptured: false, diceSpent: 0, moves: [], complete: true };
    if (!kingCaptured && recorded.length === 0) {
      const { n } = this.search.gen(pos, pool, 0);
      if (n > 0) return this.refuse(pos, pool, played, apply, this.finding(pos, pool, 0, 'pass.not-allowed', `the turn was passed, but ${n} micro-move${n === 1 ? '' : 's'} can be played`, null, 0));
    }

    const exemptEnd = kingCaptured && this.rules.kingCaptureExempt;
    // Counted in dice, a turn that spent them all reached the maximum; counted in moves, it may not have.
    if (!exemptEnd && this.eachDie && (pool.total > 0 || this.countsMoves) && this.rules.maximum !== 'none') {
      const finding = this.checkMaximum(pos, pool, played, spentSoFar, recorded);
      if (finding) return this.refuse(pos, pool, played, apply, finding);
    }
    if (!apply) this.undo(pos, played, pool);
    return { ok: true, kingCaptured, diceSpent, moves: moves.slice(0, played), complete: true };
  }

  /** A divergence after `played` legal micro-moves: they stay played with `apply`, else they are taken back. */
  private refuse(pos: Position, pool: DicePool, played: number, apply: boolean, finding: TurnFinding): TurnVerdict {
    if (!apply) this.undo(pos, played, pool);
    return { ok: false, finding, moves: this.judgeMoves.slice(0, played) };
  }

  /** Slow path: the recorded turn left dice unspent. Was that the most it could spend? */
  private checkMaximum(pos: Position, pool: DicePool, len: number, spentSoFar: number, recorded: ReadonlyArray<string>): TurnFinding | null {
    const played = this.judgeMoves;
    const costs = this.judgeCosts;
    if (len === 0) {
      // A pass the judge let through: nothing moves at the start, so no turn spends a die.
      this.search.memo.store(pos, pool, 0, NO_DICE_SPENDABLE);
      return null;
    }
    // Still a playable micro-move: the turn stopped early (a captured king ends it, though).
    const n = pool.total === 0 ? 0 : this.search.gen(pos, pool, len).n;
    const ended = pos.kingSquare[0] < 0 || pos.kingSquare[1] < 0;
    if (n > 0 && !ended) {
      return this.finding(pos, pool, len, 'maximum.fewer-dice', `the turn stops with ${pool.total} di${pool.total === 1 ? 'e' : 'ce'} unspent while a micro-move can still be played`, null, spentSoFar);
    }
    if (this.rules.maximum === 'micro-move') return null;
    // Rewind to the start, find the turn's target, then the first move that foreclosed it.
    this.undo(pos, len, pool);
    // The usual case: the turn spent as much as the position allows. One walk proves it
    // and finds the flags check's answer on the way.
    const spendable = this.provable ? this.flags.prove(pos, pool, spentSoFar) : null;
    if (spendable) this.search.memo.store(pos, pool, spentSoFar, spendable);
    const target = spendable ? spentSoFar : this.search.target(pos, pool, 0);
    if (spentSoFar >= target) {
      this.redo(pos, pool, 0, len);
      return null;
    }
    let culprit = -1;
    let spentBefore = 0;
    let spent = 0;
    const exempt = this.rules.kingCaptureExempt;
    for (let i = 0; i < len; i++) {
      // A king capture ends the line: nothing after it counts (only reached without the exemption).
      const takesKing = this.micro.capturesKing(pos, played[i]);
      pool.pay(costs[i]);
      pos.make(played[i]);
      if (culprit >= 0) continue;
      const rest = takesKing ? 0 : this.search.best(pos, pool, i + 1, !exempt);
      const viable = spent + this.search.counted(costs[i]) + rest === target || (exempt && this.search.canCaptureKing(pos, pool, i + 1));
      if (!viable) {
        culprit = i;
        spentBefore = spent;
      }
      spent += this.search.counted(costs[i]);
    }
    if (culprit < 0) return null;
    // Step back to the culprit to describe it.
    for (let i = len - 1; i >= culprit; i--) {
      pos.unmake(played[i]);
      pool.refund(costs[i]);
    }
    const f = this.finding(
      pos,
      pool,
      culprit,
      'maximum.fewer-dice',
      `the turn spends ${spentSoFar} ${this.countsMoves ? (spentSoFar === 1 ? 'move' : 'moves') : spentSoFar === 1 ? 'die' : 'dice'} but ${target} can be spent; "${recorded[culprit]}" makes that impossible`,
      null,
      spentBefore,
      target,
    );
    this.redo(pos, pool, culprit, len);
    return f;
  }

  /** Takes back the judged turn's first `played` micro-moves and their dice. */
  private undo(pos: Position, played: number, pool: DicePool): void {
    for (let i = played - 1; i >= 0; i--) {
      pos.unmake(this.judgeMoves[i]);
      pool.refund(this.judgeCosts[i]);
    }
  }

  /** Plays the judged turn's micro-moves `from` … `to` - 1 again. */
  private redo(pos: Position, pool: DicePool, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      pool.pay(this.judgeCosts[i]);
      pos.make(this.judgeMoves[i]);
    }
  }

  /** Builds a finding at the current state; `allowed` defaults to the legal continuations from here. */
  private finding(
    pos: Position,
    pool: DicePool,
    micro: number,
    rule: RuleId,
    message: string,
    allowed: string[][] | null,
    spentSoFar = 0,
    knownTarget?: number,
  ): TurnFinding {
    const dfen = makeDfen(pos, pool.list(), { castling: this.rules.castling.chess960 ? 'shredder' : 'xfen' });
    if (allowed === null) {
      allowed = this.continuations(pos, pool, micro, spentSoFar, knownTarget).map((t) => t.map((m) => this.uci(m)));
    }
    return { rule, microMove: micro, dfen, allowed, message };
  }

  /** Legal continuations from mid-turn (capped), relative to the turn's target. */
  private continuations(pos: Position, pool: DicePool, micro: number, spentSoFar: number, knownTarget?: number): Move[][] {
    let target = knownTarget;
    if (target === undefined) {
      target = this.eachDie && this.rules.maximum !== 'none' ? spentSoFar + this.search.targetFor(pos, pool, micro) : 0;
    }
    const out: Move[][] = [];
    this.collectTurns(pos, pool, micro, spentSoFar, target, [], out, ALTERNATIVES_CAP);
    return out;
  }
}
