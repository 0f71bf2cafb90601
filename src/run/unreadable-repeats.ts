/**
 * Folding of repeated identical unreadable entries, so that what a run writes stays
 * proportional to the information in its input (200,000 `{}` lines are one fact, not
 * 62 MB of results). Readers still yield one entry per bad record and the summary still
 * counts each one: folding is a matter of what is written out, so it lives here, in the
 * run pipeline, and not in the readers. Entries are identical when source, dialect, code
 * and message agree; the first `inFull` of each kind are written whole, the rest become
 * one summarising entry with their count and where they were (line ranges).
 */
export const UNREADABLE_IN_FULL = 10;
/** Ranges listed in a summarising entry; more are counted, not listed. */
const RANGES_LISTED = 20;

export interface FoldedRepeats<T> {
  /** The first entry written in full: what the folded ones repeat. */
  sample: T;
  /** How many entries were folded (not written). */
  count: number;
  /** Input position (record index) of the first folded entry. */
  firstIndex: number;
  /** "lines 12–20001, 20005–20010" or "records #12–#40" when locations carry no line numbers. */
  where: string;
  /** The first folded range as a location: `source:12-20001`, or the first folded entry's location. */
  location: string | null;
}

interface Group<T> {
  sample: T;
  seen: number;
  folded: number;
  firstIndex: number;
  firstLocation: string | null;
  base: string | null;
  byLine: boolean;
  ranges: Array<[number, number]>;
  moreRanges: number;
  last: number;
}

const LINE = /^(.*):(\d+)$/;

export class UnreadableRepeats<T> {
  private readonly groups = new Map<string, Group<T>>();

  constructor(private readonly inFull = UNREADABLE_IN_FULL) {}

  /** True when this entry is to be written in full; false when it is folded into its kind's summarising entry. */
  admit(key: string, entry: T, index: number, location: string | null): boolean {
    let g = this.groups.get(key);
    if (!g) {
      g = { sample: entry, seen: 0, folded: 0, firstIndex: -1, firstLocation: null, base: null, byLine: true, ranges: [], moreRanges: 0, last: -2 };
      this.groups.set(key, g);
    }
    if (++g.seen <= this.inFull) return true;
    const m = location === null ? null : LINE.exec(location);
    if (g.folded === 0) {
      g.firstIndex = index;
      g.firstLocation = location;
      g.base = m ? m[1] : null;
      g.byLine = m !== null;
    } else if (g.byLine && (m === null || m[1] !== g.base)) {
      // Mixed places: fall back to record positions, which every entry has.
      g.byLine = false;
      g.ranges = [];
      g.moreRanges = 0;
      g.last = -2;
    }
    g.folded++;
    const at = g.byLine && m ? Number(m[2]) : index + 1;
    if (at !== g.last + 1) {
      // A new range: listed while there is room, counted after.
      if (g.ranges.length < RANGES_LISTED) g.ranges.push([at, at]);
      else g.moreRanges++;
    } else if (g.moreRanges === 0) g.ranges[g.ranges.length - 1][1] = at;
    g.last = at;
    return false;
  }

  /** Every kind that had entries folded, in the order its first entry came. */
  *folded(): Generator<FoldedRepeats<T>> {
    for (const g of this.groups.values()) {
      if (g.folded === 0) continue;
      const mark = g.byLine ? '' : '#';
      const list = g.ranges.map(([a, b]) => (a === b ? `${mark}${a}` : `${mark}${a}–${mark}${b}`)).join(', ');
      const where = `${g.byLine ? 'lines' : 'records'} ${list}${g.moreRanges ? `, and ${g.moreRanges} more ranges` : ''}`;
      const [a, b] = g.ranges[0];
      const location = g.byLine && g.base !== null ? `${g.base}:${a === b ? a : `${a}-${b}`}` : g.firstLocation;
      yield { sample: g.sample, count: g.folded, firstIndex: g.firstIndex, where, location };
    }
  }
}

/** The sentence of a summarising entry. */
export const foldedMessage = (f: FoldedRepeats<unknown>, code: string, message: string, inFull = UNREADABLE_IN_FULL): string =>
  `${f.count} more records like this, after the ${inFull} written in full (${code}: ${message}), at ${f.where}; each is counted in the summary, not written one by one`;
