import { open, stat } from 'node:fs/promises';
import { type Expanded, expandSources } from '../records/input/expand.js';
import type { SourceNote } from '../records/items.js';

/** Shard K of N (1 ≤ K ≤ N). */
export interface ShardSpec {
  k: number;
  n: number;
}

export function parseShard(text: string): ShardSpec | null {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return null;
  const k = Number(m[1]);
  const n = Number(m[2]);
  return k >= 1 && k <= n && n <= 100_000 ? { k, n } : null;
}

/**
 * One input of the run: a file after folders and globs are expanded, a URL, stdin, a
 * source that cannot be opened, or a note the expansion made (a link not followed).
 */
export interface Unit {
  name: string;
  kind: 'file' | 'url' | 'stdin' | 'error' | 'note';
  /** Estimated bytes of text (a gzip file's size before compression); null when unknown before reading. */
  weight: number | null;
  /** The note of a `note` unit. */
  note?: SourceNote;
  /** The input as expanded, read as it is (a file found in a folder stays "found"); not part of a manifest. */
  input?: Expanded;
}

/** A unit and who judges it: one shard (1-based) reads and judges it whole, or (null) it is striped over every shard. */
export interface PlannedUnit extends Unit {
  owner: number | null;
}

/**
 * Records of a striped unit go to the shards in blocks of this many, round robin:
 * block b (records b·BLOCK … b·BLOCK+BLOCK−1 of the unit) belongs to shard (b mod N)+1.
 */
export const BLOCK = 256;

/** A shard may carry this much more than the mean load before the largest files are striped instead. */
export const TOLERANCE = 0.02;

/** Records compress about 8 to 1 (the JSON and CSV formats of docs/formats.md); much above 40 to 1 a trailer is not to be believed. */
const TYPICAL_RATIO = 8;
const MAX_RATIO = 40;

/** The units of the run, in input order, with their weights (stat and, for gzip, the size in its trailer; nothing else is read). */
export async function listUnits(sources: string[], glob?: string): Promise<Unit[]> {
  const units: Unit[] = [];
  for await (const input of expandSources(sources, glob)) {
    if (input.kind === 'file') units.push({ name: input.path, kind: 'file', weight: await textBytes(input.path), input });
    else if (input.kind === 'url') units.push({ name: input.url, kind: 'url', weight: null, input });
    else if (input.kind === 'stdin') units.push({ name: '-', kind: 'stdin', weight: null, input });
    else if (input.kind === 'note') units.push({ name: input.note.source, kind: 'note', weight: 0, note: input.note, input });
    else units.push({ name: input.name, kind: 'error', weight: null, input });
  }
  return units;
}

/**
 * Bytes of text a file holds: its size, or for gzip the uncompressed size from its trailer
 * (ISIZE, modulo 2³²: the smallest such value not below the compressed size). A trailer
 * that is not plausible (a truncated or multi-member file) gives way to a typical ratio.
 */
async function textBytes(path: string): Promise<number | null> {
  try {
    const size = (await stat(path)).size;
    if (size < 18) return size;
    const fd = await open(path, 'r');
    try {
      const head = Buffer.alloc(2);
      const tail = Buffer.alloc(4);
      await fd.read(head, 0, 2, 0);
      if (head[0] !== 0x1f || head[1] !== 0x8b) return size;
      await fd.read(tail, 0, 4, size - 4);
      let isize = tail.readUInt32LE(0);
      while (isize < size) isize += 2 ** 32;
      return isize <= size * MAX_RATIO ? isize : size * TYPICAL_RATIO;
    } finally {
      await fd.close();
    }
  } catch {
    return null;
  }
}

/**
 * Who judges what. Files go whole to one shard each, largest first to the least loaded
 * shard (LPT), so a shard reads only its own files. When that leaves some shard more
 * than TOLERANCE above the mean (a few files much larger than the rest), the largest
 * files are striped instead, one at a time, until it does not: every shard reads a
 * striped file and judges its blocks of it. Units of unknown size (URLs, stdin,
 * sources that cannot be opened) are striped, notes go to shard 1; with `stripeAll` (a --limit run, where a
 * shard must know every record's number) everything is. Deterministic: every shard
 * computes the same plan from the same sizes.
 */
export function planShards(units: Unit[], n: number, opts: { stripeAll?: boolean } = {}): PlannedUnit[] {
  const known = units.map((u, i) => ({ u, i })).filter(({ u }) => u.weight !== null && u.kind !== 'note' && !opts.stripeAll);
  // Largest first; equal sizes in input order.
  known.sort((a, b) => b.u.weight! - a.u.weight! || a.i - b.i);
  const stripedBytes = (from: number) => known.slice(0, from).reduce((s, x) => s + x.u.weight!, 0);
  let owners = new Map<number, number>();
  // Try striping the 0, 1, 2, … largest files; the first that balances within tolerance wins.
  const attempts = Math.min(known.length, 4 * n + 4);
  let chosen = known.length;
  for (let s = 0; s <= attempts; s++) {
    const { owners: o, worst } = lpt(known.slice(s), n, stripedBytes(s) / n);
    if (worst <= TOLERANCE || s === known.length) {
      owners = o;
      chosen = s;
      break;
    }
  }
  if (chosen === known.length) owners = new Map();
  // A note holds no records: shard 1 carries it, so the merged summary lists it once.
  return units.map((u, i) => ({ ...u, owner: u.kind === 'note' ? 1 : (owners.get(i) ?? null) }));
}

/** Longest processing time first: each file to the shard with the fewest bytes so far (ties: the lowest K). */
function lpt(files: Array<{ u: Unit; i: number }>, n: number, base: number): { owners: Map<number, number>; worst: number } {
  const loads = new Array<number>(n).fill(base);
  const owners = new Map<number, number>();
  for (const { u, i } of files) {
    let best = 0;
    for (let k = 1; k < n; k++) if (loads[k] < loads[best]) best = k;
    loads[best] += u.weight!;
    owners.set(i, best + 1);
  }
  const mean = loads.reduce((a, b) => a + b, 0) / n;
  return { owners, worst: mean > 0 ? Math.max(...loads) / mean - 1 : 0 };
}

/** Shard loads of a plan in estimated bytes (striped units shared evenly), for the README and tests. */
export function planLoads(plan: PlannedUnit[], n: number): number[] {
  const loads = new Array<number>(n).fill(0);
  for (const u of plan) {
    if (u.weight === null) continue;
    if (u.owner === null) for (let k = 0; k < n; k++) loads[k] += u.weight / n;
    else loads[u.owner - 1] += u.weight;
  }
  return loads;
}

/** The shard that judges record `r` (0-based within its unit) of a striped unit. */
export const stripeOwner = (r: number, n: number, block = BLOCK): number => (Math.floor(r / block) % n) + 1;
