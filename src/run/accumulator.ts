import { z } from 'zod';
import { lazily } from '../lazily.js';
import type { GameResultLine } from '../replay/result.js';
import { compareStrings, sortedRecord } from '../report/sorted.js';
import { Count, Example, FaultEntry, MatrixCell, RuleEntry, type RunInfo, SourceNote, StatusCounts, type Summary } from '../report/summary-schema.js';
import { type DiceCounts, DiceStatsAccumulator, type DiceTurn } from './dice-stats.js';
import { countedNote } from './counted-note.js';

const emptyCounts = (): StatusCounts => ({ lines: 0, conforming: 0, diverging: 0, unreadable: 0, faulty: 0, findings: 0 });
const emptyCell = (): MatrixCell => ({ conforming: 0, diverging: 0, unreadable: 0, faulty: 0 });

/** Records with a normalised or metadata fault, by `<code>\u0000<corpus>` (the corpus '' when none): a batch's share. */
export type FaultCounts = Record<string, number>;

/**
 * Which finding is the better reproduction of its class. Deterministic whatever the
 * order lines arrive in (workers may finish out of order, shards are merged in any
 * order): a game's first finding beats a later one, one with a DFEN beats one without
 * (it can be pasted into `check`), then the earliest record in the input wins.
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

/** The schema of the dice counters (a shard's folder holds them). */
const DiceCountsSchema = lazily(() =>
  z
    .object({
      turns: Count,
      threeDiceTurns: Count,
      passes: Count,
      openingTurns: Count,
      openingPasses: Count,
      faces: z.array(Count).length(6),
      invalid: Count,
      doubles: z.array(z.tuple([Count, Count, Count])),
    })
    .strict(),
);
// The schema and the plain type must agree, both ways.
const _sameDice: [z.infer<typeof DiceCountsSchema>, DiceCounts] = [{} as DiceCounts, {} as z.infer<typeof DiceCountsSchema>];
void _sameDice;

/** A corpus row of the matrix: `first` is the input index of its first record (rows are sorted by it). */
const CorpusRow = lazily(() => z.object({ source: z.string().nullable(), first: z.number().int().min(0).nullable(), cells: z.record(z.string(), MatrixCell) }).strict());
type CorpusRow = z.infer<typeof CorpusRow>;

/** A note about a source at its place in the run: [unit, order within the unit] (a run that is not sharded: [0, order]). */
const PlacedNote = lazily(() => z.object({ at: z.tuple([z.number().int().min(0), z.number().int().min(0)]), note: SourceNote }).strict());
type PlacedNote = z.infer<typeof PlacedNote>;

/**
 * Everything a summary is built from, as plain data: counters, corpus rows with the
 * position of their first record, one example per (dialect, rule), dice counters. Two
 * states merge by adding counters, taking the earliest position and the better example,
 * so shards merged in any order give the state of the whole run.
 */
export const AccumulatorState = lazily(() =>
  z
    .object({
      dialects: z.array(z.string()),
      totals: StatusCounts,
      byDialect: z.record(z.string(), StatusCounts),
      byRule: z.record(z.string(), RuleEntry),
      corpora: z.array(CorpusRow),
      examples: z.array(Example),
      dice: DiceCountsSchema,
      notes: z.array(PlacedNote),
      recordingFaults: z.record(z.string(), FaultEntry).default({}),
    })
    .strict(),
);
export type AccumulatorState = z.infer<typeof AccumulatorState>;

/**
 * Accumulates a run while results stream by: counters, a matrix of sources × dialects,
 * one example per (dialect, rule) and the corpus dice statistics. Never holds the
 * games, so memory stays flat however long the corpus is.
 */
export class RunAccumulator {
  private readonly dialects: string[];
  private readonly totals = emptyCounts();
  private readonly byDialect = new Map<string, StatusCounts>();
  private readonly byRule = new Map<string, RuleEntry>();
  private readonly corpora = new Map<string | null, CorpusRow>();
  private readonly examples = new Map<string, Example>();
  private readonly dice = new DiceStatsAccumulator();
  private readonly notes: PlacedNote[] = [];
  private readonly faults = new Map<string, FaultEntry>();

  constructor(dialects: string[]) {
    this.dialects = [...new Set(dialects)];
    for (const d of this.dialects) this.byDialect.set(d, emptyCounts());
  }

  /** A run's state back as an accumulator (a shard's, read from its folder). */
  static fromState(state: AccumulatorState): RunAccumulator {
    const acc = new RunAccumulator(state.dialects);
    acc.merge(state);
    return acc;
  }

  addResult(line: GameResultLine): void {
    // Findings past the cap of a game count too, though only the kept ones name their rule.
    this.count(line.source ?? null, line.index, line.dialect, line.status, 1, line.findings.length + (line.moreFindings ?? 0));
    line.findings.forEach((finding, i) => {
      const first = i === 0 && line.status !== 'conforming';
      this.countRule(finding.rule, line.dialect, { games: first ? 1 : 0, findings: 1 });
      this.offerExample({ dialect: line.dialect, rule: finding.rule, id: line.id, source: line.source ?? null, index: line.index, first, finding });
    });
  }

  /** `count` conforming lines of one source and dialect at once (they carry nothing else to count). */
  addConforming(source: string | null, dialect: string, count: number): void {
    this.count(source, null, dialect, 'conforming', count, 0);
  }

  /** Gives a source its row of the matrix, placed by the input index of a record from it. */
  noteSource(source: string | null, index: number | null): void {
    this.row(source, index);
  }

  /** Once per recorded turn of the corpus (not once per dialect). */
  addDiceTurn(t: DiceTurn): void {
    this.dice.add(t);
  }

  /** Dice counters gathered elsewhere (a worker thread's share of the corpus). */
  addDiceCounts(c: DiceCounts): void {
    this.dice.merge(c);
  }

  /** Records with normalised or metadata recording faults (a batch's FaultCounts). */
  addFaultCounts(c: FaultCounts): void {
    for (const key in c) {
      const cut = key.indexOf('\u0000');
      this.countFault(key.slice(0, cut), key.slice(cut + 1), c[key]);
    }
  }

  private countFault(code: string, source: string, n: number): void {
    let e = this.faults.get(code);
    if (!e) {
      e = { handling: countedNote(code) ?? 'normalised', records: 0, bySource: {} };
      this.faults.set(code, e);
    }
    e.records += n;
    e.bySource[source] = (e.bySource[source] ?? 0) + n;
  }

  /** A note about a source (passed over, empty, a link not followed): listed in input order, never counted as a record. */
  addNote(note: SourceNote, at: [number, number] = [0, this.notes.length]): void {
    this.notes.push({ at, note: { ...note } });
  }

  /** Adds another accumulator's state (another shard of the same run). */
  merge(s: AccumulatorState): void {
    for (const d of s.dialects) this.dialectCounts(d);
    addCounts(this.totals, s.totals);
    for (const [d, c] of Object.entries(s.byDialect)) addCounts(this.dialectCounts(d), c);
    for (const [rule, entry] of Object.entries(s.byRule)) {
      for (const [d, c] of Object.entries(entry.byDialect)) this.countRule(rule, d, c);
    }
    for (const row of s.corpora) {
      const mine = this.row(row.source, row.first);
      for (const [d, c] of Object.entries(row.cells)) {
        const cell = (mine.cells[d] ??= emptyCell());
        cell.conforming += c.conforming;
        cell.diverging += c.diverging;
        cell.unreadable += c.unreadable;
        cell.faulty += c.faulty;
      }
    }
    for (const [code, e] of Object.entries(s.recordingFaults)) for (const [src, n] of Object.entries(e.bySource)) this.countFault(code, src, n);
    for (const e of s.examples) this.offerExample(structuredClone(e));
    this.dice.merge(s.dice);
    for (const n of s.notes) this.notes.push(structuredClone(n));
  }

  /** The state as plain data; `at` maps this accumulator's record indices to the run's (a shard's numbering to the whole run's). */
  state(at: (index: number) => number = (i) => i): AccumulatorState {
    return {
      dialects: [...this.dialects],
      totals: { ...this.totals },
      byDialect: Object.fromEntries([...this.byDialect].map(([d, c]) => [d, { ...c }])),
      byRule: Object.fromEntries([...this.byRule].map(([r, e]) => [r, structuredClone(e)])),
      corpora: this.orderedRows().map((r) => ({ source: r.source, first: r.first === null ? null : at(r.first), cells: structuredClone(r.cells) })),
      examples: [...this.examples.values()].map((e) => ({ ...structuredClone(e), index: at(e.index) })),
      dice: this.dice.counts(),
      notes: this.orderedNotes(),
      recordingFaults: this.faultRecord(),
    };
  }

  private faultRecord(): Record<string, FaultEntry> {
    return sortedRecord(new Map([...this.faults].map(([code, e]) => [code, { ...e, bySource: sortedRecord(new Map(Object.entries(e.bySource))) }])));
  }

  build(runInfo: RunInfo): Summary {
    const dialectOrder = new Map(this.dialects.map((d, i) => [d, i]));
    const examples = [...this.examples.values()].sort(
      (a, b) => dialectOrder.get(a.dialect)! - dialectOrder.get(b.dialect)! || compareStrings(a.rule, b.rule),
    );
    const rows = this.orderedRows();
    const matrix =
      this.dialects.length > 1
        ? {
            sources: rows.map((r) => r.source),
            dialects: [...this.dialects],
            cells: rows.map((r) => this.dialects.map((d) => ({ ...(r.cells[d] ?? emptyCell()) }))),
          }
        : null;
    return {
      format: 'dice-dialects/summary@1',
      run_info: runInfo,
      dialects: [...this.dialects],
      totals: { ...this.totals },
      byDialect: sortedRecord(new Map([...this.byDialect].map(([d, c]) => [d, { ...c }]))),
      byRule: sortedRecord(new Map([...this.byRule].map(([r, e]) => [r, { games: e.games, findings: e.findings, byDialect: sortedRecord(new Map(Object.entries(e.byDialect))) }]))),
      matrix,
      examples: examples.map((e) => structuredClone(e)),
      dice: this.dice.build(),
      notes: this.orderedNotes().map((n) => n.note),
      recordingFaults: this.faultRecord(),
    };
  }

  private orderedNotes(): PlacedNote[] {
    return this.notes
      .map((n, order) => ({ n, order }))
      .sort((a, b) => a.n.at[0] - b.n.at[0] || a.n.at[1] - b.n.at[1] || a.order - b.order)
      .map((x) => structuredClone(x.n));
  }

  /** Rows in input order: by the index of their first record (rows never placed keep the order they were made in, last). */
  private orderedRows(): CorpusRow[] {
    const rows = [...this.corpora.values()];
    return rows
      .map((r, order) => ({ r, order }))
      .sort((a, b) => (a.r.first ?? Infinity) - (b.r.first ?? Infinity) || a.order - b.order)
      .map((x) => x.r);
  }

  private row(source: string | null, index: number | null): CorpusRow {
    let row = this.corpora.get(source);
    if (!row) {
      row = { source, first: index, cells: {} };
      this.corpora.set(source, row);
    } else if (index !== null && (row.first === null || index < row.first)) row.first = index;
    return row;
  }

  private dialectCounts(dialect: string): StatusCounts {
    let c = this.byDialect.get(dialect);
    if (!c) {
      // A dialect the run did not announce still gets counted, never dropped.
      this.dialects.push(dialect);
      c = emptyCounts();
      this.byDialect.set(dialect, c);
    }
    return c;
  }

  private count(source: string | null, index: number | null, dialect: string, status: GameResultLine['status'], lines: number, findings: number): void {
    for (const c of [this.totals, this.dialectCounts(dialect)]) {
      c.lines += lines;
      c[status] += lines;
      c.findings += findings;
    }
    const cell = (this.row(source, index).cells[dialect] ??= emptyCell());
    cell[status] += lines;
  }

  private countRule(rule: string, dialect: string, add: { games: number; findings: number }): void {
    let entry = this.byRule.get(rule);
    if (!entry) {
      entry = { games: 0, findings: 0, byDialect: {} };
      this.byRule.set(rule, entry);
    }
    const per = (entry.byDialect[dialect] ??= { games: 0, findings: 0 });
    for (const c of [entry, per]) {
      c.findings += add.findings;
      c.games += add.games;
    }
  }

  /** Gives each example kept so far the command that reproduces it, or null (`reproduce` says which). */
  setReproductions(reproduce: (e: Example) => string | null): void {
    for (const e of this.examples.values()) if (e.reproduce === undefined) e.reproduce = reproduce(e);
  }

  private offerExample(candidate: Example): void {
    const key = `${candidate.dialect}\u0000${candidate.rule}`;
    const current = this.examples.get(key);
    if (!current || betterExample(candidate, current)) this.examples.set(key, candidate);
  }
}

function addCounts(into: StatusCounts, c: StatusCounts): void {
  into.lines += c.lines;
  into.conforming += c.conforming;
  into.diverging += c.diverging;
  into.unreadable += c.unreadable;
  into.faulty += c.faulty;
  into.findings += c.findings;
}

