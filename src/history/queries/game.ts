import { HistoryError } from '../errors.js';
import type { Row, Store } from '../store-types.js';

/** A game's verdict under one dialect in one run, with what may explain a change. */
export interface GameState {
  run: number;
  label: string;
  startedAt: string | null;
  toolVersion: string | null;
  dialectSha256: string | null;
  status: string;
  rule: string | null;
  turn: number | null;
  microMove: number | null;
  dfen: string | null;
  recorded: string[];
  message: string | null;
  source: string | null;
  index: number;
  turns: number | null;
}

export type ChangeKind = 'status' | 'finding' | 'tool' | 'dialect' | 'record';

export interface Transition {
  /** Null on the first run that judged the game. */
  before: GameState | null;
  after: GameState;
  /** What differs from the run before: the verdict, the finding, the tool version, the dialect file's hash, the record. */
  changed: ChangeKind[];
}

export interface GameHistory {
  game: string;
  /** Per dialect, the runs where something changed (the first run included), oldest first. */
  dialects: { dialect: string; runs: number; transitions: Transition[] }[];
}

function state(r: Row): GameState {
  return {
    run: Number(r.run),
    label: String(r.label),
    startedAt: r.started_at === null ? null : String(r.started_at),
    toolVersion: r.tool_version === null ? null : String(r.tool_version),
    dialectSha256: r.sha256 === null ? null : String(r.sha256),
    status: String(r.status),
    rule: r.rule === null ? null : String(r.rule),
    turn: r.turn === null ? null : Number(r.turn),
    microMove: r.micro_move === null ? null : Number(r.micro_move),
    dfen: r.dfen === null ? null : String(r.dfen),
    recorded: r.recorded === null || r.recorded === '' ? [] : String(r.recorded).split(' '),
    message: r.message === null ? null : String(r.message),
    source: r.source === null ? null : String(r.source),
    index: Number(r.idx),
    turns: r.turns === null ? null : Number(r.turns),
  };
}

function changes(a: GameState, b: GameState): ChangeKind[] {
  const out: ChangeKind[] = [];
  if (a.status !== b.status) out.push('status');
  if (a.rule !== b.rule || a.turn !== b.turn || a.microMove !== b.microMove || a.dfen !== b.dfen || a.message !== b.message) out.push('finding');
  if (a.toolVersion !== b.toolVersion) out.push('tool');
  if (a.dialectSha256 !== b.dialectSha256) out.push('dialect');
  // The results hold no copy of the record: its length and where it came from stand for it.
  if (a.turns !== b.turns || a.source !== b.source) out.push('record');
  return out;
}

/**
 * One game's history across runs, per dialect: only the runs where it changed. Its states are
 * rebuilt from its transitions for every run that judged the dialect (a row holds from its
 * run to the key's next one), so a change of tool version or dialect file shows too.
 */
export async function gameHistory(store: Store, game: string, opts: { dialect?: string } = {}): Promise<GameHistory> {
  const params: string[] = [game];
  let where = 'game = ?';
  if (opts.dialect) {
    where += ' AND dialect = ?';
    params.push(opts.dialect);
  }
  const keys = await store.all(`SELECT key_id, dialect, occ FROM current WHERE ${where}`, params);
  if (keys.length === 0) throw new HistoryError('history-unknown-game', `unknown game "${game}"${opts.dialect ? ` under ${opts.dialect}` : ''}: no recorded run holds it`);
  const ids = keys.map((k) => Number(k.key_id));
  const rows = await store.all(
    `SELECT key_id, run, next_run, line, status, rule, turn, micro_move, dfen, recorded, message, source, idx, turns FROM transitions WHERE present = 1 AND key_id IN (${ids.map(() => '?').join(', ')}) ORDER BY key_id, run`,
    ids,
  );
  const byKey = new Map<number, Row[]>();
  for (const r of rows) byKey.set(Number(r.key_id), [...(byKey.get(Number(r.key_id)) ?? []), r]);
  const names = [...new Set(keys.map((k) => String(k.dialect)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const judging = await store.all(
    `SELECT d.run, d.dialect, d.sha256, r.label, r.started_at, r.tool_version FROM run_dialects d JOIN runs r ON r.run = d.run WHERE d.dialect IN (${names.map(() => '?').join(', ')}) ORDER BY d.run`,
    names,
  );
  const dialects = names.map((dialect) => {
    const own = keys.filter((k) => String(k.dialect) === dialect).map((k) => byKey.get(Number(k.key_id)) ?? []);
    const states: GameState[] = [];
    for (const j of judging) {
      if (String(j.dialect) !== dialect) continue;
      const run = Number(j.run);
      const held = own.map((list) => list.find((t) => Number(t.run) <= run && Number(t.next_run) > run)).filter((t): t is Row => t !== undefined);
      held.sort((a, b) => Number(a.line) - Number(b.line));
      for (const t of held) states.push(state({ ...t, run, label: j.label, started_at: j.started_at, tool_version: j.tool_version, sha256: j.sha256 }));
    }
    const transitions: Transition[] = [];
    let last: GameState | null = null;
    for (const s of states) {
      if (last === null) transitions.push({ before: null, after: s, changed: [] });
      else {
        const changed = changes(last, s);
        if (changed.length) transitions.push({ before: last, after: s, changed });
      }
      last = s;
    }
    return { dialect, runs: new Set(states.map((s) => s.run)).size, transitions };
  });
  return { game, dialects };
}
