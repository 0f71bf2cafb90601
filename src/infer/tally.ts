/**
 * The counters of an inference: plain numbers and small maps, so that batches judged
 * in different threads merge by addition (and examples by keeping the lowest input
 * positions), whatever the order they come back in.
 */

/** One game as evidence: where a value and its rivals part, at the start of that turn. */
export interface Example {
  id: string;
  /** Position of the record in the input stream. */
  index: number;
  location: string | null;
  /** `decisive`: the game conforms under this value only (the finding is a rival's); `diverging`: the value's own first finding. */
  kind: 'decisive' | 'diverging';
  /** The value index whose finding this is (a rival's for decisive games, the value's own otherwise). */
  findingValue: number;
  rule: string;
  message: string;
  /** 1-based turn, or null for a game-level finding. */
  turn: number | null;
  /** DFEN at the start of that turn (dice to play in field 7) when the turn can be checked alone, else the finding's own position or null. */
  dfen: string | null;
  dice: string | null;
  /** The whole recorded turn (or the recorded value for non-move findings). */
  recorded: string[];
  /** Can `check` reproduce it from `dfen` and `recorded` (a finding about the turn's moves)? */
  checkable: boolean;
}

/** One opportunity as evidence: the turn at which a rival allowed what the value forbids, and what it allowed. */
export interface OpportunityExample {
  id: string;
  /** Position of the record in the input stream. */
  index: number;
  location: string | null;
  /** 1-based turn. */
  turn: number;
  /** DFEN at the start of the turn with its dice (`turn`, `clock`), before its roll (`cube`: `dice` is the roll that followed), or after it (`outcome`). */
  dfen: string;
  dice: string;
  recorded: string[];
  kind: 'turn' | 'clock' | 'outcome' | 'cube' | 'roll' | 'decline';
  /** What the rival also allowed, in words. */
  allowed: string;
  /** For `turn`: a whole turn the rival accepts and the value refuses (null when none was found). */
  witness: string[] | null;
}

/** Counts of one group of games (a corpus file, a month) for one value of an option. */
export interface GroupValueTally {
  conforming: number;
  decisive: number;
  opportunities: number[];
  opportunityGames: number[];
  chance: number[];
  chancePerGame: number[];
}

export interface GroupTally {
  games: number;
  /** [option][value]. */
  options: GroupValueTally[][];
}

export interface ValueTally {
  conforming: number;
  diverging: number;
  decisive: number;
  /** Opportunities against each value of the option (by value index; its own stays 0): turns. */
  opportunities: number[];
  /** Games with at least one opportunity against each value (the conservative count: at most one per game). */
  opportunityGames: number[];
  /**
   * Options whose freedom is the dice's (`roll`), against each value: the sum over the
   * opportunities of −log10 of the chance, under that value's dice, that the roll falls among
   * those this value allows, in millionths (whole numbers, so batches add exactly in any
   * order); and per game only its largest term (the game's strongest roll). Zeros elsewhere.
   */
  chance: number[];
  chancePerGame: number[];
  /** The first opportunity against each value (lowest input position). */
  opportunityExamples: Array<OpportunityExample | null>;
  /** First rule of each diverging game. */
  rules: Record<string, number>;
  /** Per corpus (source file): [conforming, decisive]. */
  byCorpus: Record<string, [number, number]>;
  /** Decisive games, the lowest input positions first (at most EXAMPLES). */
  decisiveExamples: Example[];
  /** The first diverging game. */
  divergingExample: Example | null;
}

export interface InferTally {
  /** Records judged (readable). */
  games: number;
  unreadable: number;
  unreadableCodes: Record<string, number>;
  unreadableExamples: Array<{ index: number; location: string | null; code: string; message: string }>;
  /** Conforming games under the base dialect (with the user's --set, no option changed). */
  baseConforming: number;
  /** Conforming games per named dialect (plan order). */
  named: number[];
  /** [option][value]. */
  options: ValueTally[][];
  /** Per group of games: `source <file>` and `month <YYYY-MM>` (games without a start date: `month unknown`). */
  groups: Record<string, GroupTally>;
  /** Games conforming under the confirmation dialect (the confirmation pass only). */
  confirmation: number;
  /** Milliseconds spent judging (every variant) and counting opportunities, summed over threads. */
  judgeMs: number;
  opportunityMs: number;
  /** Turn starts the opportunity tests settled cheaply, and those that took the exact comparison. */
  cheapTurns: number;
  exactTurns: number;
}

export const EXAMPLES = 5;

export function emptyTally(named: number, optionSizes: readonly number[]): InferTally {
  return {
    games: 0,
    unreadable: 0,
    unreadableCodes: {},
    unreadableExamples: [],
    baseConforming: 0,
    named: new Array<number>(named).fill(0),
    options: optionSizes.map((k) =>
      Array.from({ length: k }, () => ({
        conforming: 0,
        diverging: 0,
        decisive: 0,
        opportunities: new Array<number>(k).fill(0),
        opportunityGames: new Array<number>(k).fill(0),
        chance: new Array<number>(k).fill(0),
        chancePerGame: new Array<number>(k).fill(0),
        opportunityExamples: new Array<OpportunityExample | null>(k).fill(null),
        rules: {},
        byCorpus: {},
        decisiveExamples: [],
        divergingExample: null,
      })),
    ),
    groups: {},
    confirmation: 0,
    judgeMs: 0,
    opportunityMs: 0,
    cheapTurns: 0,
    exactTurns: 0,
  };
}

export function emptyGroup(optionSizes: readonly number[]): GroupTally {
  return { games: 0, options: optionSizes.map((k) => Array.from({ length: k }, () => ({ conforming: 0, decisive: 0, opportunities: new Array<number>(k).fill(0), opportunityGames: new Array<number>(k).fill(0), chance: new Array<number>(k).fill(0), chancePerGame: new Array<number>(k).fill(0) }))) };
}

const lower = <T extends { index: number }>(a: T | null, b: T | null): T | null => (a === null ? b : b === null || a.index <= b.index ? a : b);

const addCounts = (into: Record<string, number>, add: Record<string, number>): void => {
  for (const [k, n] of Object.entries(add)) into[k] = (into[k] ?? 0) + n;
};

/** Keeps the `limit` examples with the lowest input positions. */
export function keepFirst<T extends { index: number }>(list: T[], add: readonly T[], limit: number): T[] {
  return [...list, ...add].sort((a, b) => a.index - b.index).slice(0, limit);
}

/** Adds `b` into `a` (same plan); returns `a`. */
export function mergeTally(a: InferTally, b: InferTally): InferTally {
  a.games += b.games;
  a.unreadable += b.unreadable;
  addCounts(a.unreadableCodes, b.unreadableCodes);
  a.unreadableExamples = keepFirst(a.unreadableExamples, b.unreadableExamples, EXAMPLES);
  a.baseConforming += b.baseConforming;
  b.named.forEach((n, i) => (a.named[i] += n));
  b.options.forEach((values, i) =>
    values.forEach((v, j) => {
      const t = a.options[i][j];
      t.conforming += v.conforming;
      t.diverging += v.diverging;
      t.decisive += v.decisive;
      v.opportunities.forEach((n, k) => (t.opportunities[k] += n));
      v.opportunityGames.forEach((n, k) => (t.opportunityGames[k] += n));
      v.chance.forEach((n, k) => (t.chance[k] += n));
      v.chancePerGame.forEach((n, k) => (t.chancePerGame[k] += n));
      v.opportunityExamples.forEach((ex, k) => (t.opportunityExamples[k] = lower(t.opportunityExamples[k], ex)));
      addCounts(t.rules, v.rules);
      for (const [corpus, [c, d]] of Object.entries(v.byCorpus)) {
        const cur = (t.byCorpus[corpus] ??= [0, 0]);
        cur[0] += c;
        cur[1] += d;
      }
      t.decisiveExamples = keepFirst(t.decisiveExamples, v.decisiveExamples, EXAMPLES);
      const ex = v.divergingExample;
      if (ex && (t.divergingExample === null || ex.index < t.divergingExample.index)) t.divergingExample = ex;
    }),
  );
  for (const [key, g] of Object.entries(b.groups)) {
    const into = (a.groups[key] ??= emptyGroup(g.options.map((o) => o.length)));
    into.games += g.games;
    g.options.forEach((values, i) =>
      values.forEach((v, j) => {
        const t = into.options[i][j];
        t.conforming += v.conforming;
        t.decisive += v.decisive;
        v.opportunities.forEach((n, k) => (t.opportunities[k] += n));
        v.opportunityGames.forEach((n, k) => (t.opportunityGames[k] += n));
        v.chance.forEach((n, k) => (t.chance[k] += n));
        v.chancePerGame.forEach((n, k) => (t.chancePerGame[k] += n));
      }),
    );
  }
  a.confirmation += b.confirmation;
  a.judgeMs += b.judgeMs;
  a.opportunityMs += b.opportunityMs;
  a.cheapTurns += b.cheapTurns;
  a.exactTurns += b.exactTurns;
  return a;
}
