export type { Rules, MaximumReading, CastlingDice, PromotionPiece } from './rules.js';
export { RULE_IDS, type RuleId, isRuleId, RECORDING_FAULTS, type RecordingFaultId, type FaultHandling, isRecordingFault, isNormalisedFault } from './rule-ids.js';
export { DicePool } from './dice-pool.js';
export { MicroMoves } from './micro-moves.js';
export { type RecordedTurnOptions, TurnEngine, type TurnFinding, type TurnVerdict } from './turn-engine.js';
export { GameState, type Outcome, type PlayRecordedOptions, type OutcomeReason, TERMINATION_OF, canMate, canWin, drawnByMaterial, insufficientMaterial } from './game.js';
export { TurnWalker } from './turn-walker.js';
export { maxPool, parseDialectDfen, poolFits } from './dialect-position.js';
export { stepMovableRoles } from './roll.js';
