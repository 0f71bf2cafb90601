import type { Position } from '../core/index.js';
import type { DicePool } from './dice-pool.js';

/**
 * What the engine last worked out about one turn's start (a position and a roll): the
 * dice a turn must spend and, when a search found them on the way, the spendable dice
 * per role. The judge proves both for a recorded turn and the flags check asks for them
 * right after on the same start, so one entry is enough. A hit is an exact match of
 * everything the search reads (pieces, side, castling, en passant, dice): no hashing,
 * no collisions.
 */
export class TurnMemo {
  private readonly board = new Int8Array(64);
  private readonly dice = new Int8Array(8);
  private valid = false;
  private turn = 0;
  private castling = 0;
  private ep = 0;
  private kingHome = 0;
  target = 0;
  /** Spendable dice per role for `target`; meaningful only when `hasSpendable`. */
  readonly spendable = new Int8Array(7);
  hasSpendable = false;

  /** Is this the start the entry describes? */
  matches(pos: Position, pool: DicePool): boolean {
    if (!this.valid || pos.turn !== this.turn || pos.castling !== this.castling || pos.ep !== this.ep) return false;
    if (pos.kingHomeFile[0] + 8 * pos.kingHomeFile[1] !== this.kingHome) return false;
    const count = pool.count;
    const dice = this.dice;
    for (let r = 1; r <= 7; r++) if (count[r] !== dice[r]) return false;
    const a = pos.board;
    const b = this.board;
    for (let sq = 0; sq < 64; sq++) if (a[sq] !== b[sq]) return false;
    return true;
  }

  /** Remembers the target of this start (and its spendable dice, when given), replacing the entry. */
  store(pos: Position, pool: DicePool, target: number, spendable: Int8Array | null): void {
    this.board.set(pos.board);
    this.dice.set(pool.count);
    this.turn = pos.turn;
    this.castling = pos.castling;
    this.ep = pos.ep;
    this.kingHome = pos.kingHomeFile[0] + 8 * pos.kingHomeFile[1];
    this.valid = true;
    this.target = target;
    this.hasSpendable = spendable !== null;
    if (spendable) this.spendable.set(spendable);
  }
}
