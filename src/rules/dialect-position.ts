import { ANY_DIE, type CoreError, type Die, type DicePosition, err, parseDfen, type Result } from '../core/index.js';
import type { Rules } from './rules.js';

/**
 * Could these dice be what a roll gives a turn still to play (a DFEN's dice, mid-turn allowed
 * where dice are spent one by one)? A count die's are all `*`, a piece and a count die's all of
 * one type; no other dialect has a `*`.
 */
export function poolFits(rules: Rules, dice: readonly Die[]): boolean {
  const reads = rules.dice.reads;
  const wild = dice.filter((d) => d === ANY_DIE).length;
  if (reads === 'count') return dice.length >= 1 && dice.length <= maxPool(rules) && wild === dice.length;
  if (reads === 'piece-and-count') return dice.length >= 1 && dice.length <= maxPool(rules) && wild === 0 && dice.every((d) => d === dice[0]);
  if (wild > 0) return false;
  if (rules.turn.structure === 'each-die' && rules.dice.count > 0) return dice.length >= 1 && dice.length <= rules.dice.count;
  if (dice.length === rules.dice.count) return true;
  // A turn not rolled, or an "any" face beside the other dice: every type once (see diceOfRoll).
  return dice.length > rules.dice.count && dice.length <= maxPool(rules) && [1, 2, 3, 4, 5, 6].every((r) => dice.includes(r as Die));
}

/** The most dice a turn's pool holds: the dice rolled, or what they read as (a count die's micro-moves, an "any" face's six types beside the other dice). */
export function maxPool(rules: Rules): number {
  const d = rules.dice;
  if (d.reads === 'count' || d.reads === 'piece-and-count') return Math.max(...d.counts);
  const freeTurns = rules.turn.firstMoveFree || d.whoRolls !== 'every-turn' || (d.facesByDie ?? []).some((faces) => faces.includes('any'));
  return freeTurns ? d.count + 6 : d.count;
}

/**
 * Reads a DFEN as a dialect sees it: no more dice than it rolls, and castling counted
 * on the half-move counter as the dialect counts it. The one place a position meets
 * its dialect's options, for every caller that plays on it.
 */
export function parseDialectDfen(rules: Rules, text: string): Result<DicePosition, CoreError> {
  const secondKings = rules.promotion.onKingDieBecomes === 'king';
  const parsed = parseDfen(text, { maxDice: maxPool(rules), epUnderPiece: rules.enPassant.targetUnderPiece === 'survives', kings: secondKings ? 2 : 1 });
  // A count die's dice are all `*`, a piece and a count die's all of one type: other dice are no roll of this dialect.
  if (parsed.ok && rules.dice.reads !== 'pieces' && parsed.value.dice !== null && parsed.value.dice.length > 0 && !poolFits(rules, parsed.value.dice)) {
    return err('fen.dice', `the dice in "${text.trim().split(/\s+/)[6]}" are not what this dialect's roll gives (${rules.dice.reads === 'count' ? 'a count die is written as one * per move' : 'a piece die and a count die are written as that many dice of one type'})`, 'dice');
  }
  if (parsed.ok) {
    parsed.value.pos.castleHalfmoves = rules.draws.castlingCounts;
    parsed.value.pos.trackLanding = rules.turn.onePiece;
    parsed.value.pos.secondKings = secondKings;
  }
  return parsed;
}
