import { parseUci } from '../../core/uci.js';
import { judgeTurn, legalFirstMoves, legalTurns, positionAfter } from '../../dialects/turns.js';
import type { Panel } from './panels.js';

/** What one column shows for a position, a roll and a typed turn. Pure: the page renders it. */
export interface PanelAnswer {
  key: string;
  /** The position cannot be played under this dialect (e.g. more dice than it rolls), or the dialect did not load. */
  error: string | null;
  firstMoves: string[];
  turns: string[][];
  /** More legal turns than the cap: `turns` holds the first ones. */
  capped: boolean;
  /** null: no turn typed. text: "legal", or the rule id `check` names (a `uci.*` code when the turn's text is not a move). */
  verdict: { text: string; sentence: string; microMove: number | null } | null;
  /** Stepping: the position after `step` micro-moves of the typed turn and the legal next micro-moves from there. */
  step: { dfen: string; next: string[] } | { error: string } | null;
  /** Which answer group this column is in (same legal turns = same letter). */
  group: string;
}

export interface Analysis {
  answers: PanelAnswer[];
  /** Every column with an answer gives the same legal turns. */
  agree: boolean;
  /** Moves and turns legal in some answering columns but not all (highlighted as differences). */
  notEverywhere: { firstMoves: Set<string>; turns: Set<string> };
}

export const TURN_CAP = 5000;
export const turnText = (t: readonly string[]): string => (t.length === 0 ? 'pass' : t.join(','));

/** The first micro-move of a typed turn that is not a move at all, with why; null when every one reads. The same for every dialect. */
export function unreadableMove(turn: readonly string[] | null): { index: number; text: string; code: string; message: string } | null {
  for (const [index, text] of (turn ?? []).entries()) {
    const parsed = parseUci(text);
    if (!parsed.ok) return { index, text, code: parsed.error.code, message: parsed.error.message };
  }
  return null;
}

/** How far the step control can go: a turn that does not read cannot be stepped through. */
export const stepLimit = (turn: readonly string[] | null): number => (turn === null || unreadableMove(turn) !== null ? 0 : turn.length);

export function analyse(panels: readonly Panel[], dfen: string, turn: string[] | null, step: number): Analysis {
  const answers: PanelAnswer[] = panels.map((p) => answer(p, dfen, turn, step));
  const ok = answers.filter((a) => a.error === null);
  const letters = new Map<string, string>();
  for (const a of ok) {
    const key = `${a.capped}|${a.turns.map(turnText).sort().join(' ')}`;
    if (!letters.has(key)) letters.set(key, String.fromCharCode(65 + letters.size));
    a.group = letters.get(key)!;
  }
  const notEverywhere = { firstMoves: new Set<string>(), turns: new Set<string>() };
  const mark = (lists: string[][], into: Set<string>): void => {
    const sets = lists.map((l) => new Set(l));
    for (const l of lists) for (const x of l) if (sets.some((s) => !s.has(x))) into.add(x);
  };
  mark(ok.map((a) => a.firstMoves), notEverywhere.firstMoves);
  mark(ok.map((a) => a.turns.map(turnText)), notEverywhere.turns);
  return { answers, agree: letters.size <= 1, notEverywhere };
}

function answer(panel: Panel, dfen: string, turn: string[] | null, step: number): PanelAnswer {
  const empty: PanelAnswer = { key: panel.key, error: null, firstMoves: [], turns: [], capped: false, verdict: null, step: null, group: '' };
  if (panel.dialect === null) return { ...empty, error: panel.problem ?? 'not loaded' };
  const d = panel.dialect;
  const first = legalFirstMoves(d, dfen);
  if (!first.ok) return { ...empty, error: `${first.error.message} [${first.error.code}]` };
  const turns = legalTurns(d, dfen, { limit: TURN_CAP + 1 });
  const all = turns.ok ? turns.value : [];
  const out: PanelAnswer = { ...empty, firstMoves: first.value, turns: all.slice(0, TURN_CAP), capped: all.length > TURN_CAP };
  if (turn !== null) {
    const v = judgeTurn(d, dfen, turn);
    // The position read (the first micro-moves above), so a refusal here is the turn's text: its code is the verdict, as `check` names it.
    out.verdict = !v.ok
      ? { text: v.error.code, sentence: v.error.message, microMove: unreadableMove(turn)?.index ?? null }
      : v.value.legal
        ? { text: 'legal', sentence: `a legal turn: spends ${v.value.diceSpent} di${v.value.diceSpent === 1 ? 'e' : 'ce'}${v.value.kingCaptured ? ' and captures the king' : ''}`, microMove: null }
        : { text: v.value.rule, sentence: v.value.message, microMove: v.value.microMove };
    if (step > 0 && step <= stepLimit(turn)) {
      const prefix = turn.slice(0, step);
      const at = positionAfter(d, dfen, prefix);
      const key = prefix.join(',');
      const next = new Set<string>();
      for (const t of all) if (t.length > step && t.slice(0, step).join(',') === key) next.add(t[step]);
      out.step = at.ok ? { dfen: at.value, next: [...next].sort() } : { error: at.error.message };
    }
  }
  return out;
}
