import { formatHash } from '../explore/page/hash.js';
import type { Finding } from '../replay/result.js';
import { shellQuote } from './escape.js';
import type { Summary } from './summary-schema.js';

/**
 * The part of a finding a reproduction shows. The DFEN is the position before the
 * offending micro-move, so the moves of the turn already played are in it: what is
 * left to replay from there is the recorded turn from `microMove` on.
 */
export function movesFromDfen(finding: Finding): string[] {
  const from = finding.microMove ?? 0;
  return from > 0 && from <= finding.recorded.length ? finding.recorded.slice(from) : finding.recorded;
}

/** What a report says of a finding with a position that no `check` command shows. */
export const NO_CHECK = 'No check command shows this finding from its position alone: it rests on more of the game (the turn so far, its end, its dice or its record).';

/** The `--turn` a reproduction replays from the finding's DFEN: `check` reads "pass" as a turn with no micro-move. */
export const reproTurn = (finding: Finding): string => movesFromDfen(finding).join(',') || 'pass';

/** A position and a turn a `check` judges: from the finding's DFEN, or from its turn's start and the whole turn. */
export interface CheckInput {
  dfen: string;
  turn: string;
}

/**
 * What a `check` of a finding may judge, the likelier first: the whole turn from its start
 * (where the finding lies past the first micro-move and the run kept the start), then the rest
 * of the turn from the finding's DFEN.
 */
export function checkInputs(finding: Finding): CheckInput[] {
  if (finding.dfen === null) return [];
  const fromHere = { dfen: finding.dfen, turn: reproTurn(finding) };
  return finding.turnDfen === undefined ? [fromHere] : [{ dfen: finding.turnDfen, turn: finding.recorded.join(',') || 'pass' }, fromHere];
}

/**
 * The `check` command for a position and turn under `dialect` (a name or a file) with its
 * `--set` overrides (a finding's own: `checkInputs`). Whether it shows the finding is for the
 * caller to know (run/reproduction.ts judges it).
 */
export function checkCommand(dialect: string, overrides: readonly string[], input: CheckInput): string {
  const sets = overrides.map((o) => ` --set ${shellQuote(o)}`).join('');
  return `dice-dialects check --dialect ${shellQuote(dialect)}${sets} --dfen ${shellQuote(input.dfen, true)} --turn ${shellQuote(input.turn)}`;
}

/** Continuations as text, at most `limit` of them (a wide-open position may have hundreds). */
export function allowedText(allowed: string[][], limit = 12): { shown: string[]; more: number } {
  const shown = allowed.slice(0, limit).map((c) => (c.length === 0 ? '(pass)' : c.join(' ')));
  return { shown, more: Math.max(0, allowed.length - limit) };
}

/**
 * A relative link to the explorer page beside the report, with the position, the roll
 * and the recorded turn filled in, and the dialect's column (with the run's `--set`
 * overrides as a column of its own) brought forward. Null when the finding has no position.
 */
export function explorerLink(page: string, summary: Summary, dialect: string, finding: Finding): string | null {
  if (finding.dfen === null) return null;
  return findingLink(page, dialect, runOverrides(summary.run_info, dialect), finding);
}

/** The `--set` overrides a run judged `dialect` with, as its run_info lists them (`name --set a=b --set c=d`). */
export function runOverrides(runInfo: Summary['run_info'], dialect: string): string[] {
  const named = runInfo.options.dialects;
  const lines = Array.isArray(named) ? named.filter((d): d is string => typeof d === 'string') : [];
  const line = lines.find((d) => d === dialect || d.startsWith(`${dialect} --set `));
  return line === undefined ? [] : line.split(' --set ').slice(1);
}

/**
 * The explorer link of a finding under `dialect` with its `--set` overrides (`path=value` each):
 * the one place a link to the explorer page is put together (the reports and the history
 * dashboard). Null when the finding has no position.
 */
export function findingLink(page: string, dialect: string, overrides: readonly string[], finding: Finding): string | null {
  if (finding.dfen === null) return null;
  const set = overrides.length > 0 ? [dialect, ...overrides].join('+') : '';
  // With the turn's start: the whole recorded turn, stepped to the finding's micro-move.
  if (finding.turnDfen !== undefined) return page + formatHash({ dfen: finding.turnDfen, turn: finding.recorded, step: finding.microMove ?? 0, set, focus: set || dialect });
  return page + formatHash({ dfen: finding.dfen, turn: movesFromDfen(finding), step: 0, set, focus: set || dialect });
}
