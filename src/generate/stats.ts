import type { GameRecord } from '../records/model/game-record.js';

/** Counters over a generated corpus (merged across batches; plain numbers, so they cross worker threads). */
export interface CorpusStats {
  games: number;
  /** Records written (opening-book: one per turn written). */
  records: number;
  /** Records the format has no text for (a game with no turn, in CSV or a book): in neither the file nor the key. */
  unwritten: number;
  turns: number;
  /** Turns with no micro-move (forced passes, or a flag falling before the first move). */
  passes: number;
  microMoves: number;
  /** The first roll of each game (White from the start position). */
  openingRolls: number;
  openingPasses: number;
  /** The first roll of each side (turns 1 and 2). */
  firstRolls: number;
  firstRollPasses: number;
  terminations: Record<string, number>;
  results: Record<string, number>;
  /** Planted divergences per rule id, and plantings given up (no game offered a candidate). */
  planted: Record<string, number>;
  plantFailed: Record<string, number>;
}

export const emptyStats = (): CorpusStats => ({
  games: 0,
  records: 0,
  unwritten: 0,
  turns: 0,
  passes: 0,
  microMoves: 0,
  openingRolls: 0,
  openingPasses: 0,
  firstRolls: 0,
  firstRollPasses: 0,
  terminations: {},
  results: {},
  planted: {},
  plantFailed: {},
});

const bump = (m: Record<string, number>, k: string, by = 1): void => {
  m[k] = (m[k] ?? 0) + by;
};

/** Counts one game as played (before any planting cut it short). */
export function countGame(s: CorpusStats, r: GameRecord): void {
  s.games++;
  s.turns += r.turns.length;
  r.turns.forEach((t, i) => {
    const pass = t.moves.length === 0;
    if (pass) s.passes++;
    s.microMoves += t.moves.length;
    if (i === 0) {
      s.openingRolls++;
      if (pass) s.openingPasses++;
    }
    if (i < 2) {
      s.firstRolls++;
      if (pass) s.firstRollPasses++;
    }
  });
  bump(s.terminations, r.termination);
  bump(s.results, r.result ?? 'none');
}

export function mergeStats(into: CorpusStats, from: CorpusStats): void {
  for (const k of ['games', 'records', 'unwritten', 'turns', 'passes', 'microMoves', 'openingRolls', 'openingPasses', 'firstRolls', 'firstRollPasses'] as const) into[k] += from[k];
  for (const k of ['terminations', 'results', 'planted', 'plantFailed'] as const) for (const [key, v] of Object.entries(from[k])) bump(into[k], key, v);
}

const pct = (n: number, d: number): string => (d === 0 ? '—' : `${((100 * n) / d).toFixed(2)} %`);
const share = (m: Record<string, number>, total: number): string =>
  Object.entries(m)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${k} ${pct(v, total)}`)
    .join(', ');

/** A few human lines. */
export function formatStats(s: CorpusStats): string {
  return [
    `games ${s.games}, records ${s.records}${s.unwritten ? ` (${s.unwritten} not written: the format has no text for a game with no turn)` : ''}, turns ${s.turns} (${(s.turns / Math.max(1, s.games)).toFixed(1)} per game), micro-moves ${s.microMoves}`,
    `forced passes: ${pct(s.passes, s.turns)} of turns, ${pct(s.openingPasses, s.openingRolls)} of opening rolls, ${pct(s.firstRollPasses, s.firstRolls)} of each side's first roll`,
    `results: ${share(s.results, s.games)}`,
    `terminations: ${share(s.terminations, s.games)}`,
    ...(Object.keys(s.planted).length ? [`planted: ${Object.entries(s.planted).map(([k, v]) => `${k} ${v}`).join(', ')}`] : []),
    ...(Object.keys(s.plantFailed).length ? [`not planted (no game offered a candidate): ${Object.entries(s.plantFailed).map(([k, v]) => `${k} ${v}`).join(', ')}`] : []),
  ].join('\n');
}
