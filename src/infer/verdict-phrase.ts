import type { Verdict } from './method.js';
import type { OpportunityKind } from './opportunities/turn-tests.js';
import { valueText } from './options.js';

/**
 * An option's verdict in words, for every printer of `infer` (the command's lines, its
 * reports, the benchmark): said once, from the document. "undecided" is a verdict of its
 * own, not a value, so it is never followed by the verdict again.
 */

/** Why no game can tell an option's values apart, by what its opportunities are counted on. */
const NOT_JUDGEABLE: Record<OpportunityKind, string> = {
  turn: 'no game reaches a turn where its values differ',
  clock: 'the corpus has no clock data where its values differ',
  outcome: 'no game ends where its values differ (no history list or recorded end to judge)',
  'turn+outcome': 'no game reaches a turn or an end where its values differ',
  cube: 'no game reaches a turn start where its values differ on who may double',
  roll: 'no roll is held to revealed seeds or could have shown a piece type that cannot move',
  decline: "no game ending in a declined double states what it cost (a history list's moneyDelta, an ingest-wire final stake); a state map's bank gives the pre-offer stake by construction",
  none: 'no game tells its values apart',
};

/** What of an option's document (OptionDoc) the words need; the document itself is built with them. */
interface Judged {
  inferred: unknown;
  why: string;
  opportunitiesCounted: OpportunityKind;
  values: ReadonlyArray<{ conforming: number; decisive: number; opportunities: { total: number | null } }>;
}

/** Why the corpus cannot judge the option (every value fits every game alike and no game gave any value a chance to differ), or null when it can. */
export function notJudgeable(o: Judged): string | null {
  if (o.inferred !== null || o.why !== 'tie') return null;
  const alike = o.values.every((v) => v.conforming === o.values[0].conforming && v.decisive === 0 && (v.opportunities.total ?? 0) === 0);
  return alike ? NOT_JUDGEABLE[o.opportunitiesCounted] : null;
}

/** "path (supported)", "none (contradicted)", "undecided", or "not judgeable: why". */
export function verdictPhrase(o: Judged & { verdict: Verdict }): string {
  if (o.inferred !== null) return `${valueText(o.inferred)} (${o.verdict})`;
  const why = notJudgeable(o);
  return why === null ? 'undecided' : `not judgeable: ${why}`;
}
