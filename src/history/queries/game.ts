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

/** One game's history across runs, per dialect: only the runs where it changed. */
export async function gameHistory(store: Store, game: string, opts: { dialect?: string } = {}): Promise<GameHistory> {
  const params: string[] = [game];
  let where = 'x.game = ?';
  if (opts.dialect) {
    where += ' AND x.dialect = ?';
    params.push(opts.dialect);
  }
  const rows = await store.all(
    `SELECT x.run, x.dialect, x.status, x.rule, x.turn, x.micro_move, x.dfen, x.recorded, x.message, x.source, x.idx, x.turns, r.label, r.started_at, r.tool_version, d.sha256
     FROM results x JOIN runs r ON r.run = x.run LEFT JOIN run_dialects d ON d.run = x.run AND d.dialect = x.dialect
     WHERE ${where} ORDER BY x.dialect, x.run, x.line`,
    params,
  );
  if (rows.length === 0) throw new HistoryError('history-unknown-game', `unknown game "${game}"${opts.dialect ? ` under ${opts.dialect}` : ''}: no recorded run holds it`);
  const byDialect = new Map<string, GameState[]>();
  for (const r of rows) {
    const d = String(r.dialect);
    if (!byDialect.has(d)) byDialect.set(d, []);
    byDialect.get(d)!.push(state(r));
  }
  const dialects = [...byDialect.entries()].map(([dialect, states]) => {
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
