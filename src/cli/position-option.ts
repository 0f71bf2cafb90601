import { readPosition } from '../dialects/turns.js';
import type { CoreError, Die, Position, Result, Role } from '../core/index.js';
import type { Rules } from '../rules/index.js';
import { UsageError } from './usage-error.js';

/** An error of the positions-and-turns API as a one-line usage error: bad move text, a DFEN without dice, or a bad DFEN. */
export function usageFrom(error: CoreError): UsageError {
  if (error.code.startsWith('uci.')) return new UsageError(`bad move text (${error.code}): ${error.message}`, error.code);
  if (error.code === 'fen.dice') return new UsageError(error.message, error.code);
  return new UsageError(`bad DFEN (${error.code}): ${error.message}`, error.code);
}

/** The value of an API result, or the usage error it stands for. */
export function orUsage<T>(r: Result<T, CoreError>): T {
  if (!r.ok) throw usageFrom(r.error);
  return r.value;
}

/** Reads `--dfen` for a dialect: dice are required when the dialect rolls any. */
export function readDfenOption(text: string, rules: Rules): { pos: Position; dice: Die[] } {
  return orUsage(readPosition({ rules }, text));
}
