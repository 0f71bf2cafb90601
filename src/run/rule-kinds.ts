import type { RuleKind, RuleKinds } from '../report/classes.js';
import type { Summary } from '../report/summary-schema.js';
import { isRecordingFault, isRuleId } from '../rules/rule-ids.js';

/** The kind of each rule id of a summary, from the rules' registry: what the renderers are handed, so the report knows no rules. */
export function ruleKinds(summary: Pick<Summary, 'byRule'>): RuleKinds {
  const kinds: Record<string, RuleKind> = {};
  for (const rule of Object.keys(summary.byRule)) kinds[rule] = isRecordingFault(rule) ? 'recording-fault' : isRuleId(rule) ? 'divergence' : 'unreadable';
  return kinds;
}
