import type { Prng } from '../../dice/index.js';
import type { FormatName } from '../../records/model/game-record.js';
import { isRuleId, type Rules } from '../../rules/index.js';
import type { InjectSpec } from './planter.js';
import { eachDie } from './planter-tools.js';
import { PLANTERS } from './planters.js';

/** `--inject` requests: reading one, checking it fits the dialect and format, and drawing one per unit. */

/** `RULE[/VARIANT]:RATE` → a spec, or an error sentence. */
export function parseInject(text: string): InjectSpec | string {
  const m = /^([a-z0-9.-]+)(?:\/([a-z0-9-]+))?:([0-9.eE+-]+)$/.exec(text.trim());
  if (!m) return `--inject "${text}": expected RULE:RATE or RULE/VARIANT:RATE, e.g. maximum.fewer-dice:0.05`;
  const [, rule, variant, rateText] = m;
  const rate = Number(rateText);
  if (!isRuleId(rule)) return `--inject "${text}": "${rule}" is not a rule id`;
  const def = PLANTERS[rule];
  if (!def) return `--inject "${text}": no planter for ${rule} (plantable: ${Object.keys(PLANTERS).join(', ')})`;
  if (variant !== undefined && !def.variants.includes(variant)) return `--inject "${text}": ${rule} has variants ${def.variants.join(', ')}`;
  if (!Number.isFinite(rate) || rate <= 0 || rate > 1) return `--inject "${text}": the rate must be in (0, 1]`;
  return { name: variant ? `${rule}/${variant}` : rule, rule, variant: variant ?? null, rate };
}

/** Why a spec cannot be planted at all under this dialect and format, or null. */
export function injectProblem(spec: InjectSpec, rules: Rules, format: FormatName): string | null {
  const def = PLANTERS[spec.rule];
  const why = def.impossible(rules, format);
  if (why) return why;
  if (spec.variant === 'later-micro-move' && !(eachDie(rules) && rules.enPassant.window === 'first-micro-move')) {
    return 'en passant on a later micro-move is legal here (enPassant.window is reply-turn); use --set enPassant.window=first-micro-move or the "expired" variant';
  }
  return null;
}

/** Chooses which spec (if any) a unit gets: one uniform draw against the cumulative rates. */
export function chooseInjection(specs: readonly InjectSpec[], prng: Prng): InjectSpec | null {
  const x = prng.next();
  let acc = 0;
  for (const s of specs) {
    acc += s.rate;
    if (x < acc) return s;
  }
  return null;
}
