import { shellQuote } from '../report/escape.js';
import { decide, METHOD, type Verdict } from './method.js';
import { type OptionPlan, overrideOf, valueText } from './options.js';
import { DICE_FORMULA, DICE_MODEL, EVIDENCE_FORMULA, INDEPENDENCE, TAKE_RATE_ASSUMPTION } from './evidence.js';
import { basisOf, type EvidenceBasis, type EvidenceDoc, favouredSentence, type GroupsDoc, groupVerdicts, weighOption } from './evidence-doc.js';
import type { OpportunityKind } from './opportunities/turn-tests.js';
import type { Example, InferTally } from './tally.js';
import { notJudgeable } from './verdict-phrase.js';

/** A reproduction of one game's evidence: the turn, and the `check` commands that show it. */
export interface ExampleDoc {
  id: string;
  turn: number | null;
  dfen: string | null;
  dice: string | null;
  recorded: string[];
  /** `check` under the base dialect with O=v (this value): for a decisive game it prints `legal`, for a diverging one the finding. */
  check: string | null;
  kind: Example['kind'];
  location: string | null;
  /** The value whose finding this is, its rule and sentence. */
  findingValue: unknown;
  rule: string;
  message: string;
  /** For a decisive game: `check` with the rival's value, which shows the finding. */
  rivalCheck: string | null;
}

export interface ValueDoc {
  value: unknown;
  /** The `--set` text that judges this value. */
  set: string;
  conforming: number;
  diverging: number;
  decisive: number;
  /** Turns at which each rival allowed what this value forbids (null: not counted for this option), and games with one at least. */
  opportunities: { total: number | null; byRival: Record<string, number>; gamesByRival: Record<string, number> };
  rules: Record<string, number>;
  example: ExampleDoc | null;
  decisiveGames: ExampleDoc[];
  byCorpus: Array<{ corpus: string; conforming: number; decisive: number }>;
}

export interface OptionDoc {
  path: string;
  baseValue: unknown;
  inferred: unknown;
  consistent: unknown[];
  verdict: Verdict;
  /** More than one value has decisive games, or corpus files (months, with --by month) favour values that share none: the games do not all follow one rule. */
  mixed: boolean;
  /** The files (months) whose verdicts disagree, when that is why the option is mixed. */
  mixedWhere: string[];
  /** Consistent values not disfavoured by evidence by absence (the inferred value alone when decided). */
  favoured: unknown[];
  /** Per disfavoured value: the stricter consistent rival, its opportunities, the strength, the example turn. */
  evidence: EvidenceDoc[];
  /** The strength of every pair of consistent values with opportunities (examples in `evidence`). */
  pairs: EvidenceDoc[];
  /** The verdicts per corpus file or month (--by), else null. */
  groups: GroupsDoc | null;
  why: 'decisive' | 'no-games' | 'tie' | 'no-decisive-game';
  /** How opportunities are counted for this option (turn starts, clocks, automatic ends), or "none". */
  opportunitiesCounted: OpportunityKind;
  /** What its evidence by absence rests on: the take rate (a player's choice) or the dice model (the dice's chance: dice.draw, dice.movableTest). */
  evidenceBasis: EvidenceBasis;
  values: ValueDoc[];
  excluded: Array<{ value: unknown; reason: string }>;
  sentence: string;
  /** The verdict with evidence by absence, to paste. */
  favouredSentence: string;
}

export interface InferDocument {
  base: string;
  /** The best-fitting named dialect (most conforming games), stated first. */
  bestDialect: { name: string; conforming: number; tiedWith: string[] } | null;
  method: string;
  /** The take rate p evidence by absence assumes (--take-rate), and the evidence that disfavours (--evidence, log10). */
  takeRate: number;
  evidenceThreshold: number;
  evidenceModel: { formula: string; assumption: string; independence: string; diceFormula: string; diceModel: string };
  games: number;
  unreadable: number;
  unreadableCodes: Record<string, number>;
  dialects: Array<{ name: string; conforming: number }>;
  options: OptionDoc[];
  confirmation: { conforming: number | null; baseConforming: number; judged: boolean; set: string[]; note: string };
  corpus: { sources: Array<{ source: string; sha256: string | null }>; sha256: string };
  set: string[];
  timing: { judgeMs: number; opportunityMs: number; cheapTurns: number; exactTurns: number; wallMs: number };
}

export interface DocumentContext {
  /** The base dialect as the user named it (name or path), for the commands. */
  baseArg: string;
  baseName: string;
  baseOverrides: string[];
  options: OptionPlan[];
  kinds: OptionDoc['opportunitiesCounted'][];
  namedNames: string[];
  corpus: InferDocument['corpus'];
  wallMs: number;
  takeRate: number;
  threshold: number;
  by: 'source' | 'month' | null;
}

/** `dice-dialects check` under the base dialect with the user's --set and O=v. */
function checkCommand(ctx: DocumentContext, path: string, value: unknown, ex: Example): string | null {
  if (!ex.checkable || ex.dfen === null) return null;
  const sets = [...ctx.baseOverrides, overrideOf(path, value)].map((s) => `--set ${shellQuote(s)}`).join(' ');
  const turn = ex.recorded.join(',') || 'pass';
  return `dice-dialects check --dialect ${shellQuote(ctx.baseArg)} ${sets} --dfen ${shellQuote(ex.dfen, true)} --turn ${shellQuote(turn)}`;
}

function exampleDoc(ctx: DocumentContext, plan: OptionPlan, valueIndex: number, ex: Example): ExampleDoc {
  const own = plan.values[valueIndex];
  const rival = plan.values[ex.findingValue];
  return {
    id: ex.id,
    turn: ex.turn,
    dfen: ex.dfen,
    dice: ex.dice,
    recorded: ex.recorded,
    check: checkCommand(ctx, plan.path, own, ex),
    kind: ex.kind,
    location: ex.location,
    findingValue: rival,
    rule: ex.rule,
    message: ex.message,
    rivalCheck: ex.kind === 'decisive' ? checkCommand(ctx, plan.path, rival, ex) : null,
  };
}

const fmt = (n: number): string => n.toLocaleString('en-US');

function sentenceOf(o: Omit<OptionDoc, 'sentence' | 'favouredSentence'>, games: number): string {
  const v = (x: unknown): string => `\`${valueText(x)}\``;
  const counts = (x: ValueDoc): string => `${fmt(x.conforming)} of ${fmt(games)} games conform, ${fmt(x.decisive)} decisive`;
  const byValue = new Map(o.values.map((x) => [valueText(x.value), x]));
  const fitOnly = o.values.filter((x) => x.decisive > 0).map((x) => `${fmt(x.decisive)} fit only ${v(x.value)}`);
  const mix = o.mixed
    ? ` The games do not all follow one rule: ${fitOnly.length > 1 ? fitOnly.join(', ') : `these disagree: ${o.mixedWhere.join(', ')}`} (see the counts per corpus).`
    : '';
  if (o.inferred !== null) {
    const x = byValue.get(valueText(o.inferred))!;
    const head =
      o.verdict === 'supported'
        ? `\`${o.path}\` = ${v(o.inferred)} is supported: ${counts(x)}.`
        : `\`${o.path}\` = ${v(o.inferred)} contradicts the base dialect's ${v(o.baseValue)}: ${counts(x)}, against ${fmt(byValue.get(valueText(o.baseValue))?.conforming ?? 0)} under ${v(o.baseValue)}.`;
    return head + mix;
  }
  if (o.why === 'no-games') return `\`${o.path}\` is undecided: no game conforms under any candidate value.${mix}`;
  const tied = o.consistent.map(v).join(', ');
  const cannot = notJudgeable(o);
  if (cannot !== null) return `\`${o.path}\` is not judgeable: ${cannot}; ${tied} fit equally many games (${fmt(o.values[0].conforming)}).${mix}`;
  if (o.why === 'tie') return `\`${o.path}\` is undecided: ${tied} fit equally many games (${fmt(byValue.get(valueText(o.consistent[0]))?.conforming ?? 0)}); no game tells them apart.${mix}`;
  return `\`${o.path}\` is undecided: ${tied} fits the most games but no game conforms under it alone.${mix}`;
}

/** The infer.json document from the merged counters. */
export function buildDocument(ctx: DocumentContext, tally: InferTally, confirmation: InferDocument['confirmation']): InferDocument {
  // Most conforming first; on a tie the base dialect first (it is the one the user asked about), then by name.
  const rank = (name: string): number => (name === ctx.baseName ? 0 : 1);
  const dialects = ctx.namedNames
    .map((name, i) => ({ name, conforming: tally.named[i] }))
    .sort((a, b) => b.conforming - a.conforming || rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : 1));
  const best = dialects.length && dialects[0].conforming > 0 ? { ...dialects[0], tiedWith: dialects.slice(1).filter((d) => d.conforming === dialects[0].conforming).map((d) => d.name) } : null;
  const options = ctx.options.map((plan, i): OptionDoc => {
    const tallies = tally.options[i];
    const baseIndex = plan.values.findIndex((x) => valueText(x) === valueText(plan.baseValue));
    const d = decide(tallies, baseIndex);
    const kind = ctx.kinds[i];
    const values = tallies.map((t, j): ValueDoc => {
      const byRival: Record<string, number> = {};
      t.opportunities.forEach((n, k) => k !== j && (byRival[valueText(plan.values[k])] = n));
      const decisiveGames = t.decisiveExamples.map((ex) => exampleDoc(ctx, plan, j, ex));
      const example = decisiveGames[0] ?? (t.divergingExample ? exampleDoc(ctx, plan, j, t.divergingExample) : null);
      return {
        value: plan.values[j],
        set: overrideOf(plan.path, plan.values[j]),
        conforming: t.conforming,
        diverging: t.diverging,
        decisive: t.decisive,
        opportunities: kind === 'none' ? { total: null, byRival: {}, gamesByRival: {} } : { total: Object.values(byRival).reduce((a, b) => a + b, 0), byRival, gamesByRival: Object.fromEntries(t.opportunityGames.flatMap((n, k) => (k === j ? [] : [[valueText(plan.values[k]), n]]))) },
        rules: Object.fromEntries(Object.entries(t.rules).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))),
        example,
        decisiveGames,
        byCorpus: Object.entries(t.byCorpus)
          .map(([corpus, [c, dd]]) => ({ corpus, conforming: c, decisive: dd }))
          .sort((a, b) => (a.corpus < b.corpus ? -1 : 1)),
      };
    });
    const ectx = { baseArg: ctx.baseArg, baseOverrides: ctx.baseOverrides, takeRate: ctx.takeRate, threshold: ctx.threshold };
    const weighed = weighOption(ectx, plan, kind, tallies, d.consistent);
    const bySource = groupVerdicts(ectx, plan, i, kind, tally.groups, 'source');
    const byMonth = ctx.by === 'month' ? groupVerdicts(ectx, plan, i, kind, tally.groups, 'month') : null;
    const split = bySource.disagreeing.length ? bySource : byMonth?.disagreeing.length ? byMonth : null;
    const inferred = d.inferred === null ? null : plan.values[d.inferred];
    const partial = {
      path: plan.path,
      baseValue: plan.baseValue,
      inferred,
      consistent: d.consistent.map((k) => plan.values[k]),
      verdict: d.verdict,
      mixed: d.mixed || split !== null,
      mixedWhere: split?.disagreeing ?? [],
      favoured: d.inferred === null ? weighed.favoured : [inferred],
      evidence: d.inferred === null ? weighed.evidence : [],
      pairs: weighed.pairs,
      groups: ctx.by === null ? null : ctx.by === 'month' ? byMonth : bySource,
      why: d.why,
      opportunitiesCounted: kind,
      evidenceBasis: basisOf(kind),
      values,
      excluded: plan.excluded,
    };
    const disagreeing = split ? { by: split.by, groups: split.groups.filter((g) => split.disagreeing.includes(g.group)) } : null;
    const decisive = d.inferred === null ? 0 : tallies[d.inferred].decisive;
    return { ...partial, sentence: sentenceOf(partial, tally.games), favouredSentence: favouredSentence({ ...partial, decisive, opportunitiesCounted: kind, disagreeing }, ctx.takeRate) };
  });
  return {
    base: ctx.baseName,
    bestDialect: best,
    method: METHOD,
    takeRate: ctx.takeRate,
    evidenceThreshold: ctx.threshold,
    evidenceModel: { formula: EVIDENCE_FORMULA, assumption: TAKE_RATE_ASSUMPTION, independence: INDEPENDENCE, diceFormula: DICE_FORMULA, diceModel: DICE_MODEL },
    games: tally.games,
    unreadable: tally.unreadable,
    unreadableCodes: tally.unreadableCodes,
    dialects,
    options,
    confirmation,
    corpus: ctx.corpus,
    set: ctx.baseOverrides,
    timing: {
      judgeMs: Math.round(tally.judgeMs),
      opportunityMs: Math.round(tally.opportunityMs),
      cheapTurns: tally.cheapTurns,
      exactTurns: tally.exactTurns,
      wallMs: Math.round(ctx.wallMs),
    },
  };
}

/** The `--set` texts of every inferred value that differs from the base (the confirmation dialect). */
export function inferredSets(options: readonly OptionDoc[]): string[] {
  return options.filter((o) => o.verdict === 'contradicted').map((o) => overrideOf(o.path, o.inferred));
}
