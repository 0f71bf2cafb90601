/**
 * `dice-dialects/rules`: the rules core without Node APIs (runs in a browser). Load a
 * dialect from a parsed dialect file (e.g. `import ref from 'dice-dialects/dialects/reference.json'`),
 * then ask for legal first micro-moves, legal turns, or a verdict on a turn.
 */
export { type DialectRules, type TurnJudgement, judgeTurn, legalFirstMoves, legalTurns, positionAfter, readPosition } from '../dialects/turns.js';
export { splitTurn } from '../core/uci.js';
export { type ObjectLoadOptions, loadDialectObject } from '../dialects/load-object.js';
export type { Dialect, DialectProblem, ResolvedSource } from '../dialects/resolve.js';
export { parseOverride } from '../dialects/resolve.js';
export { LEAF_PATHS } from '../dialects/schema.js';
export type { DialectInfo } from '../dialects/names.js';
export { RULE_IDS, type RuleId, isRuleId, type Rules } from '../rules/index.js';
export type { CoreError, Result } from '../core/errors.js';
