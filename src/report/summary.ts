import type { Finding, GameResultLine } from '../replay/result.js';
import { type DiceCounts, DiceStatsAccumulator, type DiceTurn } from './dice-stats.js';
import { compareStrings, sortedRecord } from './sorted.js';
import type { Example, MatrixCell, RuleCounts, RuleEntry, RunInfo, SourceNote, StatusCounts, Summary } from './summary-schema.js';

export { RunInfo, Summary } from './summary-schema.js';

const emptyCounts = (): StatusCounts => ({ lines: 0, conforming: 0, diverging: 0, unreadable: 0, findings: 0 });
const emptyCell = (): MatrixCell => ({ conforming: 0, diverging: 0, unreadable: 0 });

/**
 * Which finding is the better reproduction of its class. Deterministic whatever the
 * order lines arrive in (workers may finish out of order): a game's first finding
 * beats a later one, one with a DFEN beats one without (it can be pasted into
 * `check`), then the earliest record in the input wins.
 */
function betterExample(a: Example, b: Example): boolean {
  if (a.first !== b.first) return a.first;
  const ad = a.finding.dfen !== null;
  if (ad !== (b.finding.dfen !== null)) return ad;
  if (a.index !== b.index) return a.index < b.index;
  const as = a.source ?? '';
  const bs = b.source ?? '';
  if (as !== bs) return as < bs;
  return a.id < b.id;
}

/**
 * Accumulates the summary while the replayer streams results: counters, a matrix of
 * sources × dialects, and one example per (dialect, rule). Never holds the games, so
 * memory stays flat however long the corpus is.
 */
export class SummaryBuilder {
  private readonly dialects: string[];
  private readonly totals = emptyCounts();
  private readonly byDialect = new Map<string, StatusCounts>();
  private readonly byRule = new Map<string, { all: RuleCounts; byDialect: Map<string, RuleCounts> }>();
  /** Sources in first-seen order (the replayer streams in input order). */
  private readonly sources: (string | null)[] = [];
  private readonly sourceIndex = new Map<string | null, number>();
  private readonly cells = new Map<string, MatrixCell>();
  private readonly examples = new Map<string, Example>();
  private readonly dice = new DiceStatsAccumulator();
  private readonly notes: SourceNote[] = [];

  constructor(dialects: string[]) {
    this.dialects = [...new Set(dialects)];
    for (const d of this.dialects) this.byDialect.set(d, emptyCounts());
  }

  addResult(line: GameResultLine): void {
    this.count(line.source ?? null, line.dialect, line.status, 1, line.findings.length);
    line.findings.forEach((finding, i) => {
      const first = i === 0 && line.status !== 'conforming';
      this.countRule(finding.rule, line.dialect, first);
      this.offerExample(line, finding, first);
    });
  }

  /** `count` conforming lines of one source and dialect at once (they carry nothing else to count). */
  addConforming(source: string | null, dialect: string, count: number): void {
    this.count(source, dialect, 'conforming', count, 0);
  }

  /** Gives a source its row of the matrix now, so rows keep input order when lines are counted out of it. */
  noteSource(source: string | null): number {
    let index = this.sourceIndex.get(source);
    if (index === undefined) {
      index = this.sources.length;
      this.sourceIndex.set(source, index);
      this.sources.push(source);
    }
    return index;
  }

  private count(source: string | null, dialect: string, status: GameResultLine['status'], lines: number, findings: number): void {
    let dialectCounts = this.byDialect.get(dialect);
    if (!dialectCounts) {
      // A dialect the run did not announce still gets counted, never dropped.
      this.dialects.push(dialect);
      dialectCounts = emptyCounts();
      this.byDialect.set(dialect, dialectCounts);
    }
    for (const c of [this.totals, dialectCounts]) {
      c.lines += lines;
      c[status] += lines;
      c.findings += findings;
    }
    const cellKey = `${this.noteSource(source)}\u0000${dialect}`;
    const cell = this.cells.get(cellKey) ?? emptyCell();
    cell[status] += lines;
    this.cells.set(cellKey, cell);
  }

  /** Once per recorded turn of the corpus (not once per dialect). */
  addDiceTurn(t: DiceTurn): void {
    this.dice.add(t);
  }

  /** Dice counters gathered elsewhere (a worker thread's share of the corpus). */
  /** A note about a source (passed over, empty, a link not followed): listed, never counted as a record. */
  addNote(note: SourceNote): void {
    this.notes.push({ ...note });
  }

  addDiceCounts(c: DiceCounts): void {
    this.dice.merge(c);
  }

  build(runInfo: RunInfo): Summary {
    const byRule: Record<string, RuleEntry> = {};
    for (const [rule, entry] of this.byRule) {
      byRule[rule] = { ...entry.all, byDialect: sortedRecord(entry.byDialect) };
    }
    const dialectOrder = new Map(this.dialects.map((d, i) => [d, i]));
    const examples = [...this.examples.values()].sort(
      (a, b) => dialectOrder.get(a.dialect)! - dialectOrder.get(b.dialect)! || compareStrings(a.rule, b.rule),
    );
    const matrix =
      this.dialects.length > 1
        ? {
            sources: [...this.sources],
            dialects: [...this.dialects],
            cells: this.sources.map((_, s) => this.dialects.map((d) => ({ ...(this.cells.get(`${s}\u0000${d}`) ?? emptyCell()) }))),
          }
        : null;
    return {
      format: 'dice-dialects/summary@1',
      run_info: runInfo,
      dialects: [...this.dialects],
      totals: { ...this.totals },
      byDialect: sortedRecord(new Map([...this.byDialect].map(([d, c]) => [d, { ...c }]))),
      byRule: sortedRecord(new Map(Object.entries(byRule))),
      matrix,
      examples: examples.map((e) => structuredClone(e)),
      dice: this.dice.build(),
      notes: this.notes.map((n) => ({ ...n })),
    };
  }

  private countRule(rule: string, dialect: string, first: boolean): void {
    let entry = this.byRule.get(rule);
    if (!entry) {
      entry = { all: { games: 0, findings: 0 }, byDialect: new Map() };
      this.byRule.set(rule, entry);
    }
    let per = entry.byDialect.get(dialect);
    if (!per) {
      per = { games: 0, findings: 0 };
      entry.byDialect.set(dialect, per);
    }
    for (const c of [entry.all, per]) {
      c.findings++;
      if (first) c.games++;
    }
  }

  private offerExample(line: GameResultLine, finding: Finding, first: boolean): void {
    const key = `${line.dialect}\u0000${finding.rule}`;
    const candidate: Example = { dialect: line.dialect, rule: finding.rule, id: line.id, source: line.source ?? null, index: line.index, first, finding };
    const current = this.examples.get(key);
    if (!current || betterExample(candidate, current)) this.examples.set(key, candidate);
  }
}
