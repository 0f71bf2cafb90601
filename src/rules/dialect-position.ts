import { type CoreError, type DicePosition, parseDfen, type Result } from '../core/index.js';
import type { Rules } from './rules.js';

/**
 * Reads a DFEN as a dialect sees it: no more dice than it rolls, and castling counted
 * on the half-move counter as the dialect counts it. The one place a position meets
 * its dialect's options, for every caller that plays on it.
 */
export function parseDialectDfen(rules: Rules, text: string): Result<DicePosition, CoreError> {
  const parsed = parseDfen(text, { maxDice: rules.dice.count, epUnderPiece: rules.enPassant.targetUnderPiece === 'survives' });
  if (parsed.ok) parsed.value.pos.castleHalfmoves = rules.draws.castlingCounts;
  return parsed;
}
