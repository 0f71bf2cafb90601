import { type Dialect, loadDialect } from '../dialects/index.js';
import { judgeTurn } from '../dialects/turns.js';
import { checkCommand, checkInputs, runOverrides } from '../report/repro.js';
import type { Example, Finding } from '../replay/result.js';
import type { RunInfo } from '../report/summary-schema.js';
import { shownPath } from './shown-path.js';

/** A dialect as a reproduction names it: the dialect itself, what `--dialect` takes for it, and its `--set` overrides. */
export interface ReproDialect {
  dialect: Dialect;
  arg: string;
  overrides: readonly string[];
}

/**
 * What `check --dialect` takes for a loaded dialect: its name where the name loads this very
 * dialect (the tool's own), else its file.
 */
export function reproDialect(dialect: Dialect, overrides: readonly string[]): ReproDialect {
  return loadedAs([dialect.name], overrides, dialect.sha256) ?? { dialect, arg: shownPath(dialect.file), overrides };
}

/**
 * The dialect the first of `args` (names or files) loads with `overrides`, named by that
 * argument; with `sha256`, only the very dialect of that hash. Null when none loads it.
 */
export function loadedAs(args: ReadonlyArray<string | undefined>, overrides: readonly string[], sha256?: string): ReproDialect | null {
  for (const arg of args) {
    if (arg === undefined) continue;
    const loaded = loadDialect(arg, overrides);
    if (loaded.ok && (sha256 === undefined || loaded.value.sha256 === sha256)) return { dialect: loaded.value, arg, overrides };
  }
  return null;
}

/**
 * The `check` command that shows a finding, or null when none does. A finding about a game's
 * end, its dice or its record has no turn to judge from a position, and one past the turn's
 * first micro-move is tried as the whole turn from its start, then as the rest from its own
 * DFEN: each command is judged here as `check` judges it, and given only when it finds the same rule.
 */
export function reproduction(d: ReproDialect, finding: Finding): string | null {
  for (const input of checkInputs(finding)) {
    const v = judgeTurn(d.dialect, input.dfen, input.turn);
    if (v.ok && !v.value.legal && v.value.rule === finding.rule) return checkCommand(d.arg, d.overrides, input);
  }
  return null;
}

/**
 * Each example's reproduction for a run known only by its run_info (a merge of shards): each
 * dialect loaded again by name or file with the run's `--set`, and used only where it is the
 * very dialect the run judged with (the same SHA-256); else no command.
 */
export function reproductionsOf(runInfo: RunInfo): (e: Example) => string | null {
  const dialects = new Map<string, ReproDialect | null>();
  const dialectOf = (name: string): ReproDialect | null => {
    const info = runInfo.dialects[name];
    return info === undefined ? null : loadedAs([name, info.file], runOverrides(runInfo, name), info.sha256);
  };
  return (e) => {
    if (!dialects.has(e.dialect)) dialects.set(e.dialect, dialectOf(e.dialect));
    const d = dialects.get(e.dialect)!;
    return d === null ? null : reproduction(d, e.finding);
  };
}
