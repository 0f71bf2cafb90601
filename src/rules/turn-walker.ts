import type { Die, Move, Position } from '../core/index.js';
import { DicePool } from './dice-pool.js';
import type { TurnEngine } from './turn-engine.js';

/**
 * Walks one turn micro-move by micro-move on a live position, offering the legal next
 * micro-moves under the dialect, one candidate at a time, so a bot can stop at the
 * first acceptable one: the generator never enumerates whole turns (tens of thousands
 * of them in open positions). Every generated turn is one the engine's `judge` accepts.
 */
export class TurnWalker {
  /** Micro-moves played so far this turn. */
  readonly moves: Move[] = [];
  /** Die roles spent by each played micro-move. */
  readonly spentPerMove: number[][] = [];
  kingCaptured = false;
  private pool = new DicePool();
  private pos!: Position;
  private spentSoFar = 0;
  private target = 0;
  private readonly eachDie: boolean;
  private readonly buf: Move[] = [];

  constructor(readonly engine: TurnEngine) {
    const r = engine.rules;
    this.eachDie = r.turn.structure === 'each-die' && r.dice.count > 0;
  }

  /** Starts a turn on `pos` (the side to move rolled `dice`). */
  begin(pos: Position, dice: readonly Die[]): void {
    this.pos = pos;
    this.pool = DicePool.of(dice);
    this.moves.length = 0;
    this.spentPerMove.length = 0;
    this.kingCaptured = false;
    this.spentSoFar = 0;
    this.target = this.engine.targetFor(pos, this.pool, 0);
  }

  /** The live position (moves of this turn already made on it). */
  get position(): Position {
    return this.pos;
  }

  get micro(): number {
    return this.moves.length;
  }

  /** Dice not yet spent. */
  remaining(): Die[] {
    return this.pool.list();
  }

  get dicePool(): DicePool {
    return this.pool;
  }

  /** Dice the turn must spend (each-die dialects with a maximum rule), from its start. */
  get targetDice(): number {
    return this.target;
  }

  get spendsDieByDie(): boolean {
    return this.eachDie;
  }

  /** Pseudo-candidates: micro-moves the dice and the board allow now, before the maximum rule. A fresh array. */
  candidates(): Move[] {
    if (this.kingCaptured) return [];
    if (this.eachDie ? this.pool.total === 0 : this.moves.length > 0) return [];
    const n = this.engine.micro.generate(this.pos, this.pool, this.moves.length, this.buf);
    return this.buf.slice(0, n);
  }

  /** Is candidate `m` a legal next micro-move (the maximum rule, king-capture exemption)? */
  isLegal(m: Move): boolean {
    return this.engine.stepLegal(this.pos, this.pool, this.moves.length, m, this.spentSoFar, this.target);
  }

  /** Every legal next micro-move ([] = the turn is complete). */
  legalSteps(): Move[] {
    return this.candidates().filter((m) => this.isLegal(m));
  }

  /** Can some legal continuation still capture the king this turn? */
  canCaptureKing(): boolean {
    if (this.kingCaptured) return false;
    return this.engine.canCaptureKing(this.pos, this.pool, this.moves.length);
  }

  /** Would the king still be capturable later this turn after playing `m`? (m must not capture it.) */
  captureStillPossibleAfter(m: Move): boolean {
    const engine = this.engine;
    const pos = this.pos;
    const spent: number[] = [];
    engine.micro.cost(pos, m, spent);
    for (const r of spent) this.pool.take(r);
    pos.make(m);
    const yes = engine.canCaptureKing(pos, this.pool, this.moves.length + 1);
    pos.unmake(m);
    for (const r of spent) this.pool.give(r);
    return yes;
  }

  /** What dice spent by one micro-move count toward the maximum: the dice, or one move. */
  private counted(spent: readonly number[]): number {
    return this.engine.rules.maximumCounts === 'moves' && spent.length > 0 ? 1 : spent.length;
  }

  /** Takes back the last micro-move of this turn (searches over the turn's tree). */
  undo(): void {
    const m = this.moves.pop();
    const spent = this.spentPerMove.pop();
    if (m === undefined || spent === undefined) return;
    this.pos.unmake(m);
    for (const r of spent) this.pool.give(r);
    this.spentSoFar -= this.counted(spent);
    this.kingCaptured = false;
  }

  /** Plays a legal micro-move on the position and spends its dice. */
  play(m: Move): void {
    const engine = this.engine;
    if (engine.micro.capturesKing(this.pos, m)) this.kingCaptured = true;
    const spent: number[] = [];
    // One-move dialects do not pay move by move (doubles, die-decided promotions): no pool accounting.
    if (this.eachDie) engine.micro.cost(this.pos, m, spent);
    for (const r of spent) this.pool.take(r);
    this.spentSoFar += this.counted(spent);
    this.pos.make(m);
    this.moves.push(m);
    this.spentPerMove.push(spent);
  }
}
