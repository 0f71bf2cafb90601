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
  /** The turn's start, where the finding lies past its first micro-move (recorded from schema 5 on). */
  turnDfen?: string;
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
  /** Per dialect, the runs where something changed (the first run included; status `gone` for a run that no longer held it), oldest first; `runs` counts the runs that held it. */
  dialects: { dialect: string; runs: number; transitions: Transition[] }[];
}

/** What a transition row says of the game, the same in every run it holds for. */
type Fields = Omit<GameState, 'run' | 'label' | 'startedAt' | 'toolVersion' | 'dialectSha256'>;
interface RunMeta {
  run: number;
  label: string;
  startedAt: string | null;
  toolVersion: string | null;
  dialectSha256: string | null;
}

function fieldsOf(r: Row): Fields {
  return {
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
    ...(r.turn_dfen !== null && r.turn_dfen !== undefined && { turnDfen: String(r.turn_dfen) }),
  };
}

/** A run whose dialects no longer held the game: its state in that run. */
const GONE: Fields = { status: 'gone', rule: null, turn: null, microMove: null, dfen: null, recorded: [], message: null, source: null, index: -1, turns: null };

const state = (m: RunMeta, f: Fields): GameState => ({ run: m.run, label: m.label, startedAt: m.startedAt, toolVersion: m.toolVersion, dialectSha256: m.dialectSha256, ...f });

function changes(a: { m: RunMeta; f: Fields }, b: { m: RunMeta; f: Fields }): ChangeKind[] {
  const out: ChangeKind[] = [];
  const [x, y] = [a.f, b.f];
  // Going or coming back is a change of status, whatever the rest.
  if (x !== y && (x === GONE || y === GONE)) out.push('status');
  else if (x !== y) {
    if (x.status !== y.status) out.push('status');
    if (x.rule !== y.rule || x.turn !== y.turn || x.microMove !== y.microMove || x.dfen !== y.dfen || x.message !== y.message) out.push('finding');
  }
  if (a.m.toolVersion !== b.m.toolVersion) out.push('tool');
  if (a.m.dialectSha256 !== b.m.dialectSha256) out.push('dialect');
  // The results hold no copy of the record: its length and where it came from stand for it.
  if (x !== y && x !== GONE && y !== GONE && (x.turns !== y.turns || x.source !== y.source)) out.push('record');
  return out;
}

/**
 * One game's history across runs, per dialect: only the runs where it changed. Its states are
 * rebuilt from its transitions for every run that judged the dialect (a row holds from its
 * run to the key's next one), so a change of tool version or dialect file shows too. The runs
 * and the rows are walked together, oldest first; a state object is made only for a run
 * where something changed.
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
    `SELECT key_id, run, next_run, line, present, status, rule, turn, micro_move, dfen, turn_dfen, recorded, message, source, idx, turns FROM transitions WHERE key_id IN (${ids.map(() => '?').join(', ')}) ORDER BY key_id, run`,
    ids,
  );
  type Held = { run: number; next: number; line: number; f: Fields };
  const byKey = new Map<number, Held[]>();
  for (const r of rows) {
    const k = Number(r.key_id);
    let list = byKey.get(k);
    if (!list) byKey.set(k, (list = []));
    // A gone row (the run's dialects no longer held the game) is a state too: the game's page shows it went, and came back.
    const gone = Number(r.present) !== 1;
    list.push({ run: Number(r.run), next: Number(r.next_run), line: gone ? Number.MAX_SAFE_INTEGER : Number(r.line), f: gone ? GONE : fieldsOf(r) });
  }
  const names = [...new Set(keys.map((k) => String(k.dialect)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const marks = names.map(() => '?').join(', ');
  // The runs that judged each dialect, with the dialect file's hash: a row per (dialect, hash), its runs joined.
  const judged = await store.all(`SELECT dialect, sha256, string_agg(CAST(run AS TEXT), ',') AS runs FROM run_dialects WHERE dialect IN (${marks}) GROUP BY dialect, sha256`, names);
  const meta = new Map<number, Omit<RunMeta, 'dialectSha256'>>();
  for (const r of await store.all(`SELECT run, label, started_at, tool_version FROM runs WHERE run IN (SELECT run FROM run_dialects WHERE dialect IN (${marks}))`, names))
    meta.set(Number(r.run), { run: Number(r.run), label: String(r.label), startedAt: r.started_at === null ? null : String(r.started_at), toolVersion: r.tool_version === null ? null : String(r.tool_version) });
  const dialects = names.map((dialect) => {
    const runs: RunMeta[] = [];
    for (const j of judged) {
      if (String(j.dialect) !== dialect || j.runs === null) continue;
      const sha = j.sha256 === null ? null : String(j.sha256);
      for (const run of String(j.runs).split(',').map(Number)) {
        const m = meta.get(run);
        if (m) runs.push({ ...m, dialectSha256: sha });
      }
    }
    runs.sort((a, b) => a.run - b.run);
    const own = keys.filter((k) => String(k.dialect) === dialect).map((k) => byKey.get(Number(k.key_id)) ?? []);
    const at = own.map(() => 0);
    const transitions: Transition[] = [];
    let last: { m: RunMeta; f: Fields; s: GameState | null } | null = null;
    let judging = 0;
    for (const m of runs) {
      // Each key's row that holds at this run (its rows are in run order and do not overlap).
      const held: Held[] = [];
      own.forEach((list, i) => {
        while (at[i] < list.length && list[at[i]].next <= m.run) at[i]++;
        if (at[i] < list.length && list[at[i]].run <= m.run) held.push(list[at[i]]);
      });
      if (held.length === 0) continue;
      if (held.some((h) => h.f !== GONE)) judging++;
      if (held.length > 1) held.sort((a, b) => a.line - b.line);
      for (const h of held) {
        const now = { m, f: h.f, s: null as GameState | null };
        if (last === null) transitions.push({ before: null, after: (now.s = state(m, h.f)), changed: [] });
        else {
          const changed = changes(last, now);
          if (changed.length) transitions.push({ before: (last.s ??= state(last.m, last.f)), after: (now.s = state(m, h.f)), changed });
        }
        last = now;
      }
    }
    return { dialect, runs: judging, transitions };
  });
  return { game, dialects };
}
