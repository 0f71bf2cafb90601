import type { Finding, GameResultLine } from '../replay/result.js';
import type { AnswerKey, ExpectedFinding } from './answer-key.js';

/**
 * Scores a replay run against an answer key, per rule id. A planted game counts as
 * found only when the replayer's FIRST finding has the keyed rule, turn and
 * micro-move. Every finding in a game the key does not list is a false positive
 * (generated games are legal by construction), and so is a first finding that does
 * not match the key.
 */
export interface RuleScore {
  rule: string;
  /** Planted games with this rule (in the key and met in the results). */
  expected: number;
  /** Games whose first finding has this rule. */
  reported: number;
  truePositives: number;
  falseNegatives: number;
  falsePositives: number;
  /** Of the false negatives: the rule was right but the turn or micro-move was not. */
  misplaced: number;
  /** Of the false negatives: the game never appeared in the results. */
  missing: number;
  /** TP / (TP + FN); null when nothing was expected. */
  recall: number | null;
  /** TP / (TP + FP); null when nothing was reported. */
  precision: number | null;
}

export interface Mismatch {
  id: string;
  expected: ExpectedFinding | null;
  got: Pick<Finding, 'rule' | 'turn' | 'microMove' | 'message'> | null;
}

export interface ScoreReport {
  dialect: string | null;
  /** Result lines of that dialect read. */
  games: number;
  planted: number;
  /** Non-planted games with no finding. */
  trueNegatives: number;
  duplicates: number;
  /** Dialects of result lines that were skipped (a run over several dialects). */
  otherDialects: string[];
  /** Lines of the dialect skipped because their game is not in the keyed corpus (a run over several corpora). */
  otherCorpora: number;
  /** Clean games of the keyed corpus that never appeared in the results. */
  missingClean: number;
  byRule: RuleScore[];
  overall: Omit<RuleScore, 'rule'>;
  /** Every disagreement (capped by `maxMismatches`), in result order, then missing games. */
  mismatches: Mismatch[];
  mismatchCount: number;
  /** True when recall and precision are 1 for every rule (and nothing is missing). */
  perfect: boolean;
}

export interface ScoreOptions {
  /** Dialect whose result lines are scored; default: the key's, else the single dialect found. */
  dialect?: string | null;
  maxMismatches?: number;
}

interface Counter {
  expected: number;
  reported: number;
  tp: number;
  fn: number;
  fp: number;
  misplaced: number;
  missing: number;
}

const newCounter = (): Counter => ({ expected: 0, reported: 0, tp: 0, fn: 0, fp: 0, misplaced: 0, missing: 0 });

/** Incremental scorer: feed result lines (any order), then `finish()`. Memory: the key plus counters. */
export class Scorer {
  private readonly counters = new Map<string, Counter>();
  private readonly seen = new Set<string>();
  private readonly otherDialects = new Set<string>();
  /** The corpus's record ids when the key lists them; lines of other corpora are skipped. */
  private readonly members: Set<string> | null;
  private foreign = 0;
  private dialect: string | null;
  private games = 0;
  private trueNegatives = 0;
  private duplicates = 0;
  private readonly mismatches: Mismatch[] = [];
  private mismatchCount = 0;
  private readonly maxMismatches: number;

  constructor(
    private readonly key: AnswerKey,
    options: ScoreOptions = {},
  ) {
    this.dialect = options.dialect ?? (key.dialect || null);
    this.members = key.records ? new Set(key.records) : null;
    this.maxMismatches = options.maxMismatches ?? 50;
  }

  private counter(rule: string): Counter {
    let c = this.counters.get(rule);
    if (!c) this.counters.set(rule, (c = newCounter()));
    return c;
  }

  private mismatch(m: Mismatch): void {
    this.mismatchCount++;
    if (this.mismatches.length < this.maxMismatches) this.mismatches.push(m);
  }

  add(line: GameResultLine): void {
    if (this.dialect === null) this.dialect = line.dialect;
    if (line.dialect !== this.dialect) {
      this.otherDialects.add(line.dialect);
      return;
    }
    if (this.members !== null && !this.members.has(line.id)) {
      this.foreign++;
      return;
    }
    if (this.seen.has(line.id)) {
      this.duplicates++;
      return;
    }
    this.seen.add(line.id);
    this.games++;
    const expected = Object.prototype.hasOwnProperty.call(this.key.expected, line.id) ? this.key.expected[line.id] : null;
    const first = line.findings[0] ?? null;
    const got = first ? { rule: first.rule, turn: first.turn, microMove: first.microMove, message: first.message } : null;
    if (got) this.counter(got.rule).reported++;
    if (expected) this.counter(expected.rule).expected++;
    if (!expected) {
      if (!got) this.trueNegatives++;
      else {
        this.counter(got.rule).fp++;
        this.mismatch({ id: line.id, expected: null, got });
      }
      return;
    }
    if (got && got.rule === expected.rule && got.turn === expected.turn && got.microMove === expected.microMove) {
      this.counter(expected.rule).tp++;
      return;
    }
    const c = this.counter(expected.rule);
    c.fn++;
    if (got && got.rule === expected.rule) c.misplaced++;
    if (got) this.counter(got.rule).fp++;
    this.mismatch({ id: line.id, expected, got });
  }

  finish(): ScoreReport {
    let planted = 0;
    for (const [id, expected] of Object.entries(this.key.expected)) {
      planted++;
      if (this.seen.has(id)) continue;
      const c = this.counter(expected.rule);
      c.expected++;
      c.fn++;
      c.missing++;
      this.mismatch({ id, expected, got: null });
    }
    const byRule = [...this.counters.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([rule, c]) => toScore(rule, c));
    const total = newCounter();
    for (const c of this.counters.values()) {
      total.expected += c.expected;
      total.reported += c.reported;
      total.tp += c.tp;
      total.fn += c.fn;
      total.fp += c.fp;
      total.misplaced += c.misplaced;
      total.missing += c.missing;
    }
    const { rule: _rule, ...overall } = toScore('*', total);
    return {
      dialect: this.dialect,
      games: this.games,
      planted,
      trueNegatives: this.trueNegatives,
      duplicates: this.duplicates,
      otherDialects: [...this.otherDialects].sort(),
      otherCorpora: this.foreign,
      missingClean: this.members === null ? 0 : [...this.members].filter((id) => !this.seen.has(id) && !Object.prototype.hasOwnProperty.call(this.key.expected, id)).length,
      byRule,
      overall,
      mismatches: this.mismatches,
      mismatchCount: this.mismatchCount,
      perfect: total.fn === 0 && total.fp === 0 && (this.members === null || [...this.members].every((id) => this.seen.has(id))),
    };
  }
}

function toScore(rule: string, c: Counter): RuleScore {
  return {
    rule,
    expected: c.expected,
    reported: c.reported,
    truePositives: c.tp,
    falseNegatives: c.fn,
    falsePositives: c.fp,
    misplaced: c.misplaced,
    missing: c.missing,
    recall: c.tp + c.fn === 0 ? null : c.tp / (c.tp + c.fn),
    precision: c.tp + c.fp === 0 ? null : c.tp / (c.tp + c.fp),
  };
}

/** Scores a whole run in one call. */
export async function scoreResults(key: AnswerKey, lines: Iterable<GameResultLine> | AsyncIterable<GameResultLine>, options: ScoreOptions = {}): Promise<ScoreReport> {
  const scorer = new Scorer(key, options);
  for await (const line of lines) scorer.add(line);
  return scorer.finish();
}

const pct = (x: number | null): string => (x === null ? '—' : `${(x * 100).toFixed(x === 1 || x === 0 ? 0 : 2)}%`);
const place = (f: { turn: number | null; microMove: number | null } | null): string =>
  f === null ? '' : `turn ${f.turn ?? '-'} micro ${f.microMove ?? '-'}`;

/** A plain-text table: one row per rule id, then the overall row and the first mismatches. */
export function formatScore(report: ScoreReport): string {
  const rows: string[][] = [['rule', 'planted', 'reported', 'found', 'missed', 'false+', 'recall', 'precision']];
  for (const s of report.byRule) {
    rows.push([s.rule, String(s.expected), String(s.reported), String(s.truePositives), String(s.falseNegatives), String(s.falsePositives), pct(s.recall), pct(s.precision)]);
  }
  const o = report.overall;
  rows.push(['(all)', String(o.expected), String(o.reported), String(o.truePositives), String(o.falseNegatives), String(o.falsePositives), pct(o.recall), pct(o.precision)]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const fmt = (r: string[]): string => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const lines = [
    `dialect ${report.dialect ?? '?'}: ${report.games} games scored, ${report.planted} planted, ${report.trueNegatives} clean games with no finding${report.duplicates ? `, ${report.duplicates} duplicate lines ignored` : ''}${report.otherCorpora ? `, ${report.otherCorpora} lines of other corpora skipped` : ''}`,
    ...(report.missingClean ? [`${report.missingClean} clean game${report.missingClean === 1 ? '' : 's'} of the corpus missing from the results`] : []),
    '',
    fmt(rows[0]),
    ...rows.slice(1, -1).map(fmt),
    fmt(rows[rows.length - 1]),
  ];
  if (report.mismatchCount > 0) {
    lines.push('', `${report.mismatchCount} disagreement${report.mismatchCount === 1 ? '' : 's'}${report.mismatchCount > report.mismatches.length ? ` (first ${report.mismatches.length})` : ''}:`);
    for (const m of report.mismatches) {
      const exp = m.expected ? `${m.expected.rule} at ${place(m.expected)}` : 'no finding';
      const got = m.got ? `${m.got.rule} at ${place(m.got)}` : 'no finding';
      lines.push(`  ${m.id}: expected ${exp}; replayer: ${got}`);
    }
  }
  lines.push('', report.perfect ? 'recall 100%, precision 100%' : `recall ${pct(o.recall)}, precision ${pct(o.precision)}`);
  return `${lines.join('\n')}\n`;
}
