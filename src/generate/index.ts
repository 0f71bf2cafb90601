/**
 * Corpus generation: self-play under a dialect, planted divergences with an answer key,
 * and scoring a replay run against the key.
 */
export { BOT_STYLES, type BotStyle, type Bot, BOTS, randomBot, greedyBot, materialBalance } from './bots.js';
export { TurnWalker } from '../rules/turn-walker.js';
export { allowedDice, type DieFlag } from './dice-flags.js';
export { DEFAULT_RATES, GENERATOR_TURN_CAP, type Rates, type DialectContext, makeContext, type GameSpec, type PlayedGame, type TurnTrace, playGame } from './self-play.js';
export { PLANTERS, type InjectSpec, type Plant, type GameUnit, parseInject, injectProblem, chooseInjection, plant } from './inject/index.js';
export { type GenerateTask, type BatchOutput, type GeneratedUnit, generateBatch, unitsOf, BOOK_TURNS, MAX_REPICKS } from './generator.js';
export { type GenerateOptions, type GenerateProgress, type GenerateResult, generateCorpus } from './run.js';
export { AnswerKey, ExpectedFinding, parseAnswerKey, serializeAnswerKey } from './answer-key.js';
export { Scorer, scoreResults, formatScore, type ScoreReport, type RuleScore, type Mismatch, type ScoreOptions } from './score.js';
export { type CorpusStats, emptyStats, countGame, mergeStats, formatStats } from './stats.js';
export { readBack, firstFindingAfterRoundTrip } from './round-trip.js';
