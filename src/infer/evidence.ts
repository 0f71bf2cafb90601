/**
 * Evidence by absence. Under the hypothesis that the site plays a looser value `w`, a
 * player who uses w's extra freedom with probability at least p at each opportunity,
 * independently, leaves it unused n times with probability at most (1 − p)^n; under a
 * stricter value `v` that forbids it, never using it is certain. So the games favour v
 * over w by a likelihood ratio of at least (1 − p)^−n: log10 LR = n · −log10(1 − p).
 */

export const DEFAULT_TAKE_RATE = 0.01;
export const DEFAULT_EVIDENCE = 2;

export const TAKE_RATE_ASSUMPTION =
  'The take rate p is an assumption about players, not a fact from the games: that at each opportunity a player would use the looser rule\'s extra freedom with probability at least p.';
export const INDEPENDENCE =
  'Independence assumes each opportunity is a separate chance to use the freedom; it fails where one player always plays the same way (a habit, a bot, a client that never offers the move), which the per-game figure (at most one opportunity per game) bounds.';
export const EVIDENCE_FORMULA = 'log10 LR = n · −log10(1 − p), n = opportunities of the stricter value against the looser one, counted once per turn';
/** Options whose freedom is the dice's (dice.draw, dice.movableTest): no take rate, the dice model's own chances. */
export const DICE_MODEL =
  "Where the freedom is the dice's, not a player's (dice.draw, dice.movableTest), no take rate is assumed: log10 LR = Σ −log10 P_looser(the roll falls among those the stricter value allows), over the rolls at which the looser value's dice could show what the stricter forbids, from that value's own dice (fair dice: a type with the chance of its faces; BrainKing's and vchess's die: uniform over the types that can move; provably-fair dice: the seeds' roll). It rests on the dice model, not on players; the per-game figure counts only each game's strongest roll.";
export const DICE_FORMULA = 'log10 LR = Σ over the opportunities of −log10 P_looser(roll allowed by the stricter value), from the looser value\'s dice';

/** The strength of n unused opportunities at take rate p. */
export const log10LR = (n: number, p: number): number => n * -Math.log10(1 - p);

/** The counts evidence is weighed from, for one option (value order). */
export interface EvidenceInput {
  /** Indices of the consistent values (the method's tie at the top). */
  consistent: readonly number[];
  /** [value][rival]: turns at which the rival allowed what the value forbids, in games conforming under the value. */
  opportunities: readonly (readonly number[])[];
  /** [value][rival]: games with at least one such turn. */
  opportunityGames: readonly (readonly number[])[];
  /** Are opportunities counted for this option at all? */
  counted: boolean;
  /**
   * Options whose freedom is the dice's: [value][rival] the strength itself (log10), from the
   * rival's dice at each opportunity, and per game only its strongest roll; the take rate is not used.
   */
  chance?: { sum: readonly (readonly number[])[]; perGame: readonly (readonly number[])[] };
}

export interface PairStrength {
  /** The looser value (the one the absence weighs against) and the stricter rival. */
  value: number;
  rival: number;
  opportunities: number;
  games: number;
  log10LR: number;
  /** The conservative bound: at most one opportunity per game. */
  log10LRPerGame: number;
}

export interface Weighing {
  /** Consistent values not disfavoured. */
  favoured: number[];
  /** One per disfavoured value: the stricter consistent rival with the strongest evidence against it. */
  disfavoured: PairStrength[];
  /** Every ordered pair of consistent values with opportunities, strongest first. */
  pairs: PairStrength[];
}

/**
 * A consistent value w is disfavoured when some other consistent value v has evidence
 * against it of at least `threshold`, net of the evidence against v (options whose legal
 * sets are nested have none the other way, so the net is the evidence itself).
 */
export function weigh(input: EvidenceInput, p: number, threshold: number): Weighing {
  const { consistent } = input;
  if (!input.counted) return { favoured: [...consistent], disfavoured: [], pairs: [] };
  const chance = input.chance;
  // The evidence v's opportunities give against w: from the take rate, or from w's own dice.
  const lr = (v: number, w: number): number => (chance ? chance.sum[v][w] : log10LR(input.opportunities[v][w], p));
  const strength = (v: number, w: number): PairStrength => ({
    value: w,
    rival: v,
    opportunities: input.opportunities[v][w],
    games: input.opportunityGames[v][w],
    log10LR: lr(v, w),
    log10LRPerGame: chance ? chance.perGame[v][w] : log10LR(input.opportunityGames[v][w], p),
  });
  const pairs: PairStrength[] = [];
  for (const v of consistent) for (const w of consistent) if (v !== w && input.opportunities[v][w] > 0) pairs.push(strength(v, w));
  pairs.sort((a, b) => b.log10LR - a.log10LR || a.value - b.value || a.rival - b.rival);
  const disfavoured: PairStrength[] = [];
  for (const w of consistent) {
    const against = pairs.filter((s) => s.value === w && s.log10LR - lr(w, s.rival) >= threshold);
    if (against.length) disfavoured.push(against[0]);
  }
  const out = consistent.filter((w) => !disfavoured.some((d) => d.value === w));
  // Evidence that disfavours every consistent value (a cycle) decides nothing: all stay favoured.
  if (out.length === 0) return { favoured: [...consistent], disfavoured: [], pairs };
  return { favoured: out, disfavoured, pairs };
}

/** Two groups disagree when neither favours a value the other favours. */
export const disagree = (a: readonly number[], b: readonly number[]): boolean => a.length > 0 && b.length > 0 && !a.some((x) => b.includes(x));
