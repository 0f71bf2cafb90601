/**
 * Record problems, a leaf of the records layer (it imports nothing): the codes of records that
 * could not be read, a problem as a value, and the throw-and-catch within one record's
 * conversion. Every reader, field getter and byte source names its failures with these.
 */

/** Codes of records that could not be read (never rule divergences). */
export const UNREADABLE_CODES = [
  'record.bad-json',
  'record.bad-fen',
  'record.bad-dice',
  'record.bad-move',
  'record.missing-field',
  'record.bad-field',
  'record.truncated-gzip',
  'record.http',
  'record.io',
  'record.unknown-format',
  'record.bad-csv',
  'record.too-large',
  /** A dangling symbolic link met in a folder: one entry, not a failure of the source (the folder was read). */
  'record.broken-link',
  /** A dicechess.com game without a state map (the site keeps none for bot games): a recording fault, nothing to replay. */
  'record.no-state-map',
] as const;
export type UnreadableCode = (typeof UNREADABLE_CODES)[number];

/** A reader's failure as a value: it says where, which record (if known), what, and why. */
export interface Problem {
  code: UnreadableCode;
  message: string;
  /** More precise place than the record's own (a step or a column), when known. */
  location?: string | null;
}

export const problem = (code: UnreadableCode, message: string, location?: string | null): Problem =>
  location === undefined ? { code, message } : { code, message, location };

/** Thrown inside one record's conversion and caught by its reader: it never crosses a record boundary. */
export class RecordProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.message);
  }
}

export function fail(code: UnreadableCode, message: string, location?: string | null): never {
  throw new RecordProblem(problem(code, message, location));
}

/**
 * `run` over every item of a list, as `list.map((x, i) => within(locate(x, i), () => run(x, i)))`
 * but with the location built only for a problem (this runs for every recorded turn).
 */
export function mapWithin<T, U>(list: readonly T[], locate: (item: T, i: number) => string, run: (item: T, i: number) => U): U[] {
  const out = new Array<U>(list.length);
  for (let i = 0; i < list.length; i++) {
    try {
      out[i] = run(list[i], i);
    } catch (e) {
      if (e instanceof RecordProblem && !e.problem.location) e.problem.location = locate(list[i], i);
      throw e;
    }
  }
  return out;
}

/** Runs part of a conversion; a problem without a place of its own gets `location`. */
export function within<T>(location: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof RecordProblem && !e.problem.location) e.problem.location = location;
    throw e;
  }
}
