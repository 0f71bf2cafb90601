import type { Prng } from '../../dice/index.js';
import type { FormatName, GameRecord } from '../../records/model/game-record.js';
import type { RuleId, Rules } from '../../rules/index.js';
import type { ExpectedFinding } from '../answer-key.js';
import type { DialectContext, TurnTrace } from '../self-play.js';

/** What a planter is: the unit it edits, what it yields, and what a request for one says. */

/** What the planters work on: a record and, per turn, the position before it. */
export interface GameUnit {
  record: GameRecord;
  trace: TurnTrace[];
}

/** An edited record and the first finding its replay must report. */
export interface Plant {
  record: GameRecord;
  expected: ExpectedFinding;
}

/** The dialect, target format and random source a planting runs with. */
export interface PlantContext {
  ctx: DialectContext;
  format: FormatName;
  prng: Prng;
}

/** One plantable rule: its variants, when it cannot apply, and the edited games it offers. */
export interface PlanterDef {
  rule: RuleId;
  variants: readonly string[];
  /** Why this rule cannot be planted at all under this dialect and format (null: it can). */
  impossible(rules: Rules, format: FormatName): string | null;
  candidates(unit: GameUnit, pc: PlantContext, variant: string): Generator<Plant>;
}

/** A requested planting: `--inject RULE[/VARIANT]:RATE`. */
export interface InjectSpec {
  /** As written, e.g. `maximum.fewer-dice/move-order`. */
  name: string;
  rule: RuleId;
  /** null: any variant of the rule, chosen per game. */
  variant: string | null;
  rate: number;
}
