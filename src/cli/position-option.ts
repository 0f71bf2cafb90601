import type { Position, Role } from '../core/index.js';
import { parseDialectDfen, type Rules } from '../rules/index.js';
import { UsageError } from './usage-error.js';

/** Reads `--dfen` for a dialect: dice are required when the dialect rolls any. */
export function readDfenOption(text: string, rules: Rules): { pos: Position; dice: Role[] } {
  const parsed = parseDialectDfen(rules, text);
  if (!parsed.ok) throw new UsageError(`bad DFEN (${parsed.error.code}): ${parsed.error.message}`, parsed.error.code);
  const { pos, dice } = parsed.value;
  if (rules.dice.count > 0 && (dice === null || dice.length === 0)) {
    throw new UsageError('the DFEN has no dice: add a 7th field with the dice to play, e.g. "... 0 1 PNB"', 'fen.dice');
  }
  return { pos, dice: dice ?? [] };
}
