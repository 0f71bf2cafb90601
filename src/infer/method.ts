/** The method, as the output states it (infer.json `method`, the reports' first section). */
export const METHOD =
  'For option O and each candidate value v, every game is judged under the base dialect with O=v and every other option at the base value. ' +
  'conforming(v) = games with no finding. A game is decisive for v when it conforms under v and under no other value of O. ' +
  'The inferred value is the value with the most conforming games, provided it has at least one decisive game and no other value ties it; ' +
  'otherwise the option is undecided (inferred: null) and the values tied at the top are listed as consistent. ' +
  'Opportunities of v: turns, in games that conform under v, at which another candidate value would have allowed a turn (or a clock reading, or an automatic end) that v forbids; ' +
  'they are evidence for a reader, never a verdict. verdict: supported when the inferred value is the base value, contradicted when it differs, undecided otherwise. ' +
  'The confirmation pass judges the corpus once more with every inferred value at once.';

export type Verdict = 'supported' | 'undecided' | 'contradicted';

export interface Decision {
  /** Index of the inferred value, or null (undecided). */
  inferred: number | null;
  /** Indices of the values tied at the top (the inferred one alone when decided). */
  consistent: number[];
  verdict: Verdict;
  /** More than one value has decisive games: the corpus does not follow one rule. */
  mixed: boolean;
  /** Why, in a phrase (for the reports). */
  why: 'decisive' | 'no-games' | 'tie' | 'no-decisive-game';
}

/** Applies the method to one option's counts. */
export function decide(values: ReadonlyArray<{ conforming: number; decisive: number }>, baseIndex: number): Decision {
  const top = Math.max(...values.map((v) => v.conforming));
  const consistent = values.flatMap((v, i) => (v.conforming === top ? [i] : []));
  const mixed = values.filter((v) => v.decisive > 0).length > 1;
  if (top === 0) return { inferred: null, consistent: [], verdict: 'undecided', mixed, why: 'no-games' };
  if (consistent.length > 1) return { inferred: null, consistent, verdict: 'undecided', mixed, why: 'tie' };
  const best = consistent[0];
  if (values[best].decisive === 0) return { inferred: null, consistent, verdict: 'undecided', mixed, why: 'no-decisive-game' };
  return { inferred: best, consistent, verdict: best === baseIndex ? 'supported' : 'contradicted', mixed, why: 'decisive' };
}
