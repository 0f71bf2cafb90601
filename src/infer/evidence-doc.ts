import { shellQuote } from '../report/escape.js';
import { disagree, type PairStrength, weigh } from './evidence.js';
import { decide } from './method.js';
import { byDice, notCountedWhy, type OpportunityKind } from './opportunities/turn-tests.js';
import { type OptionPlan, overrideOf, valueText } from './options.js';
import type { GroupTally, OpportunityExample, ValueTally } from './tally.js';

/** The turn that shows an unused freedom: where it was, what the rival also allowed, and the `check` commands. */
export interface EvidenceExampleDoc {
  id: string;
  location: string | null;
  turn: number;
  kind: OpportunityExample['kind'];
  dfen: string;
  dice: string;
  /** The turn the player recorded (legal under both values). */
  recorded: string[];
  /** What the looser value would also have allowed, in words. */
  allowed: string;
  /** A whole turn the looser value accepts and the stricter refuses, when one was found. */
  witness: string[] | null;
  /** `check` of the witness under the looser value (prints `legal`) and under the stricter one (the finding); null for clock and ending opportunities. */
  check: string | null;
  strictCheck: string | null;
}

export interface EvidenceDoc {
  /** The disfavoured (looser) value and the stricter consistent rival whose opportunities weigh against it. */
  value: unknown;
  rival: unknown;
  opportunities: number;
  /** Games with at least one opportunity (the conservative count). */
  games: number;
  log10LR: number;
  /** The conservative figure: at most one opportunity per game (`dice-model`: each game's strongest roll). */
  log10LRPerGame: number;
  /** What the strength rests on: the assumed take rate of players, or the dice's own chances (dice.draw, dice.movableTest). */
  basis: EvidenceBasis;
  example: EvidenceExampleDoc | null;
}

export type EvidenceBasis = 'take-rate' | 'dice-model';
export const basisOf = (kind: OpportunityKind): EvidenceBasis => (byDice(kind) ? 'dice-model' : 'take-rate');

/** What an option's evidence rests on, in words, for the reports' line "With evidence by absence (…)". */
export const basisWords = (basis: EvidenceBasis, takeRate: number): string =>
  basis === 'dice-model' ? "from the dice model's own chances, not a take rate" : `take rate ${takeRate}, an assumption about players`;

export interface GroupVerdict {
  group: string;
  games: number;
  inferred: unknown;
  consistent: unknown[];
  favoured: unknown[];
}

export interface GroupsDoc {
  by: 'source' | 'month';
  groups: GroupVerdict[];
  /** Groups whose favoured values share none with another group's. */
  disagreeing: string[];
  /** Months (in order) at which the favoured values change to ones the month before did not favour. */
  changes: Array<{ month: string; from: unknown[]; to: unknown[] }>;
}

export interface EvidenceContext {
  baseArg: string;
  baseOverrides: string[];
  takeRate: number;
  threshold: number;
}

const round = (x: number): number => Math.round(x * 100) / 100;

function checkOf(ctx: EvidenceContext, path: string, value: unknown, ex: OpportunityExample): string | null {
  if (ex.witness === null) return null;
  const sets = [...ctx.baseOverrides, overrideOf(path, value)].map((s) => `--set ${shellQuote(s)}`).join(' ');
  return `dice-dialects check --dialect ${shellQuote(ctx.baseArg)} ${sets} --dfen ${shellQuote(ex.dfen, true)} --turn ${shellQuote(ex.witness.join(',') || 'pass')}`;
}

function exampleDoc(ctx: EvidenceContext, plan: OptionPlan, s: PairStrength, ex: OpportunityExample | null): EvidenceExampleDoc | null {
  if (!ex) return null;
  return {
    id: ex.id,
    location: ex.location,
    turn: ex.turn,
    kind: ex.kind,
    dfen: ex.dfen,
    dice: ex.dice,
    recorded: ex.recorded,
    allowed: ex.allowed,
    witness: ex.witness,
    check: checkOf(ctx, plan.path, plan.values[s.value], ex),
    strictCheck: checkOf(ctx, plan.path, plan.values[s.rival], ex),
  };
}

const matrix = (tallies: ReadonlyArray<{ opportunities: number[] }>): number[][] => tallies.map((t) => t.opportunities);
const gameMatrix = (tallies: ReadonlyArray<{ opportunityGames: number[] }>): number[][] => tallies.map((t) => t.opportunityGames);
/** For options whose freedom is the dice's, the strength from the dice model (the tallies keep millionths of log10). */
const chanceOf = (kind: OpportunityKind, tallies: ReadonlyArray<{ chance: number[]; chancePerGame: number[] }>) =>
  byDice(kind) ? { sum: tallies.map((t) => t.chance.map((x) => x / 1e6)), perGame: tallies.map((t) => t.chancePerGame.map((x) => x / 1e6)) } : undefined;
const inputOf = (kind: OpportunityKind, tallies: ReadonlyArray<{ opportunities: number[]; opportunityGames: number[]; chance: number[]; chancePerGame: number[] }>, consistent: readonly number[]) => ({
  consistent,
  opportunities: matrix(tallies),
  opportunityGames: gameMatrix(tallies),
  counted: kind !== 'none',
  chance: chanceOf(kind, tallies),
});

/** The option's weighing: favoured values, the evidence against each disfavoured one, the strength of every pair. */
export function weighOption(ctx: EvidenceContext, plan: OptionPlan, kind: OpportunityKind, tallies: readonly ValueTally[], consistent: readonly number[]) {
  const w = weigh(inputOf(kind, tallies, consistent), ctx.takeRate, ctx.threshold);
  const doc = (s: PairStrength): EvidenceDoc => ({
    value: plan.values[s.value],
    rival: plan.values[s.rival],
    opportunities: s.opportunities,
    games: s.games,
    log10LR: round(s.log10LR),
    log10LRPerGame: round(s.log10LRPerGame),
    basis: basisOf(kind),
    example: exampleDoc(ctx, plan, s, tallies[s.rival].opportunityExamples[s.value]),
  });
  return {
    favoured: w.favoured.map((i) => plan.values[i]),
    favouredIndex: w.favoured,
    evidence: w.disfavoured.map(doc),
    pairs: w.pairs.map((s) => ({ ...doc(s), example: null })),
  };
}

/** The verdicts per group (`source <file>` or `month <YYYY-MM>`), and where they disagree. */
export function groupVerdicts(ctx: EvidenceContext, plan: OptionPlan, optionIndex: number, kind: OpportunityKind, groups: Record<string, GroupTally>, by: 'source' | 'month'): GroupsDoc {
  const baseIndex = plan.values.findIndex((x) => valueText(x) === valueText(plan.baseValue));
  const keys = Object.keys(groups)
    .filter((k) => k.startsWith(`${by} `))
    .sort((a, b) => (a.endsWith(' unknown') ? 1 : b.endsWith(' unknown') ? -1 : a < b ? -1 : 1));
  const verdicts = keys.map((key) => {
    const g = groups[key];
    const values = g.options[optionIndex];
    const d = decide(values, baseIndex);
    const w = weigh(inputOf(kind, values, d.consistent), ctx.takeRate, ctx.threshold);
    return { key, favoured: d.inferred === null ? w.favoured : [d.inferred], doc: { group: key.slice(by.length + 1), games: g.games, inferred: d.inferred === null ? null : plan.values[d.inferred], consistent: d.consistent.map((i) => plan.values[i]), favoured: (d.inferred === null ? w.favoured : [d.inferred]).map((i) => plan.values[i]) } };
  });
  const disagreeing = verdicts.filter((a) => verdicts.some((b) => disagree(a.favoured, b.favoured))).map((a) => a.doc.group);
  const changes: GroupsDoc['changes'] = [];
  if (by === 'month') {
    let last: number[] | null = null;
    for (const v of verdicts) {
      if (v.doc.group === 'unknown' || v.favoured.length === 0) continue;
      if (last && disagree(last, v.favoured)) changes.push({ month: v.doc.group, from: last.map((i) => plan.values[i]), to: v.doc.favoured });
      last = v.favoured;
    }
  }
  return { by, groups: verdicts.map((v) => v.doc), disagreeing, changes };
}

const fmt = (n: number): string => n.toLocaleString('en-US');
const code = (x: unknown): string => `\`${valueText(x)}\``;
const pct = (p: number): string => `${Number((p * 100).toPrecision(3))} %`;

/** What the unused freedom was, for the sentence. */
function freedom(path: string, kind: OpportunityKind, e: EvidenceDoc): string {
  const n = fmt(e.opportunities);
  if (path === 'maximum' && e.value === 'none') return `in ${n} turns it allowed spending fewer dice and no player did`;
  if (kind === 'clock') return `in ${n} turns it would have set the clock otherwise than ${code(e.rival)} and no clock did`;
  if (kind === 'outcome') return `at ${n} turn ends it allowed an ending ${code(e.rival)} forbids (or the game to go on) and no game ended so`;
  if (kind === 'roll' && e.rival === 'provably-fair') return `at ${n} rolls it allowed another roll than the revealed seeds give and every roll was the seeds' one`;
  if (kind === 'roll' && path === 'dice.movableTest') return `at ${n} rolls its test of "can move" let the die show a piece type that cannot move by ${code(e.rival)}'s test and no roll showed one`;
  if (kind === 'roll') return `at ${n} rolls it allowed a piece type that cannot move and no roll showed one`;
  if (kind === 'decline') return `at ${n} declined double${e.opportunities === 1 ? '' : 's'} whose record states a cost it allowed ${e.value === 'post-offer-stake' ? 'the post-offer stake' : 'the pre-offer stake'} and no record stated it`;
  if (kind === 'cube') return `at ${n} turn starts it let the side to move offer a double ${code(e.rival)} refuses and no player offered one`;
  if (kind === 'turn+outcome') return `at ${n} turns it allowed a turn or an ending ${code(e.rival)} forbids and no game showed one`;
  return `in ${n} turns it allowed a turn ${code(e.rival)} forbids and no player played one`;
}

/** The pasteable sentence of evidence by absence for one option. */
export function favouredSentence(o: {
  path: string;
  inferred: unknown;
  consistent: unknown[];
  favoured: unknown[];
  evidence: EvidenceDoc[];
  pairs: EvidenceDoc[];
  opportunitiesCounted: OpportunityKind;
  decisive: number;
  disagreeing: { by: string; groups: GroupVerdict[] } | null;
}, takeRate: number): string {
  const head = `\`${o.path}\`: `;
  const split = o.disagreeing ? ` The ${o.disagreeing.by === 'month' ? 'months' : 'corpus files'} disagree: ${o.disagreeing.groups.map((g) => `${g.group} favours ${g.favoured.map(code).join(' or ')}`).join('; ')}.` : '';
  if (o.consistent.length === 0) return `${head}no value fits any game.${split}`;
  if (o.inferred !== null) return `${head}${code(o.inferred)}, decided by ${fmt(o.decisive)} decisive game${o.decisive === 1 ? '' : 's'} (no assumption needed).${split}`;
  if (o.opportunitiesCounted === 'none') return `${head}${o.consistent.map(code).join(' or ')}; opportunities are not counted for this option (${notCountedWhy(o.path)}), so absence weighs nothing here.${split}`;
  const among = o.pairs.filter((p) => o.favoured.some((f) => valueText(f) === valueText(p.value)) && o.favoured.some((f) => valueText(f) === valueText(p.rival)));
  const chances = among.reduce((n, p) => n + p.opportunities, 0);
  const fav = o.favoured.length > 1 ? `${o.favoured.map(code).join(' or ')} (no game tells them apart: ${fmt(chances)} chance${chances === 1 ? '' : 's'})` : `${code(o.favoured[0])} is favoured`;
  const strength = (e: EvidenceDoc): string =>
    e.basis === 'dice-model'
      ? `log10 LR = ${e.log10LR.toFixed(1)} from the chance ${code(e.value)}'s dice give each such roll to fall among those ${code(e.rival)} allows, a fact of the dice model, not a take rate; ${e.log10LRPerGame.toFixed(1)} counting only each game's strongest roll, ${fmt(e.games)} games`
      : `log10 LR ≥ ${e.log10LR.toFixed(1)} at a ${pct(takeRate)} take rate; ${e.log10LRPerGame.toFixed(1)} counting at most one per game, ${fmt(e.games)} games`;
  const against = o.evidence.map((e) => `${code(e.value)} is disfavoured against ${code(e.rival)}: ${freedom(o.path, o.opportunitiesCounted, e)} (${strength(e)})`);
  const none = o.evidence.length === 0 && o.favoured.length > 1 ? '; nothing is disfavoured' : '';
  return `${head}${fav}${against.length ? `; ${against.join('; ')}` : none}.${split}`;
}
