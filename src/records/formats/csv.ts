import { makeDiceLetters, type Role } from '../../core/index.js';
import { COMMA, CR, NL, QUOTE } from '../char-codes.js';
import type { GameRecord, GameRecordInput, Player } from '../model/game-record.js';
import { TERMINATIONS } from '../model/game-record.js';
import { FenBoards, keepFenBoards } from '../model/fen-boards.js';
import { finaliseRecord } from '../model/finalise.js';
import { type Draft, type Problem, fail, problem, tooLarge, unreadable } from '../items.js';
import { MAX_LINE_BYTES, wholeLineChunks } from '../input/lines.js';
import { parseDice } from '../notation/dice.js';
import { checkFen } from '../notation/fen.js';
import { parseResult, parseSide, resultNumber } from '../notation/result.js';
import { normaliseUci } from '../notation/uci.js';
import { fensBefore } from '../replay-fens.js';
import type { TextSource } from '../input/text-source.js';
import { type FormatModule, type RawPlace, convertOne, readParsed } from './format.js';
import { parseRows } from './csv-rows.js';

/**
 * D. Per-turn CSV export, one row per turn; consecutive rows with one game_id are one
 * game. Lines are counted as rows, so a quoted line break would shift them (none in
 * this format).
 */
export const CSV_COLUMNS = [
  'game_id', 'turn_number', 'fen', 'dice', 'side', 'moves', 'result', 'termination', 'mode', 'source',
  'white_rating', 'black_rating', 'white_type', 'black_type',
] as const;
type Column = (typeof CSV_COLUMNS)[number];
/** A row's cells by column name, and its line (a "line" column's cell where the header has one). */
export type Row = Partial<Record<Column, string>> & { line: number | string | undefined };
const REQUIRED: Column[] = ['game_id', 'fen', 'dice', 'moves'];

interface Pending {
  id: string;
  rows: Row[];
  problem: Problem | null;
}


/** A game's rows (or a row not yet placed) in the bytes being cut: from `start` to `end`, its id, its first line. */
interface Span {
  key: string;
  start: number;
  end: number;
  line: number;
}

/** The raw draft's spans of a game and of the row not yet placed after it, in input order. */
const spansOf = (open: Span, next: Span | null): number[] => (next ? [open.start, open.end, open.line, 0, next.start, next.end, next.line, 0] : [open.start, open.end, open.line, 0]);

/** A row that is no row: one cell of blanks (a blank line). */
const blankRow = (cells: string[]): boolean => cells.length === 1 && cells[0].trim() === '';

/**
 * The reading thread's share: cuts games out of the bytes where the `game_id` before a row's
 * first comma changes (a game's rows are consecutive) and hands each game on as raw rows,
 * the header beside them. Rows are decoded where they are judged. Only the header, and
 * rows whose id is quoted (or not in the first column), go through the CSV parser here.
 */
async function* readBatches(src: TextSource): AsyncGenerator<Draft[]> {
  let header: string | null = null;
  let idColumn = 0;
  let line = 0; // lines read so far
  /** The open game: its rows from `start` to `end` (bytes of `buf`), its id, its first line. */
  let open: Span | null = null;
  /**
   * A row of another id just after the open game, not yet placed: the first row of the next
   * game, or a stray row inside the open one (a row whose id cell is broken), which the next
   * row tells. A stray row stays in its game, whose reading then finds it and names it: the
   * game is unreadable, never cut in two halves judged as games of their own.
   */
  let next: Span | null = null;
  let carry: Buffer | null = null; // the open game's bytes, carried into the next chunk
  const games = (buf: Buffer, spans: number[], upTo: number): Draft[] =>
    spans.length === 0 ? [] : [{ kind: 'raw', format: 'csv', header, bytes: new Uint8Array(buf.subarray(0, upTo)), spans: Int32Array.from(spans) }];
  for await (const chunk of wholeLineChunks(src)) {
    if (typeof chunk === 'number') {
      // An over-long line, in input order: the games read so far come first.
      if (open && carry) yield games(carry, spansOf(open, next), (next ?? open).end);
      open = null;
      next = null;
      carry = null;
      yield [tooLarge(`${src.name}:${++line}`, chunk, MAX_LINE_BYTES)];
      continue;
    }
    const from = carry?.length ?? 0;
    const buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    const spans: number[] = [];
    let closedUpTo = 0;
    for (let start = from; start < buf.length; ) {
      let nl = buf.indexOf(NL, start);
      if (nl < 0) nl = buf.length;
      const end = nl > start && buf[nl - 1] === CR ? nl - 1 : nl;
      const at = start;
      start = nl + 1;
      line++;
      if (header === null) {
        const text = buf.toString('utf8', at, end);
        const cells = parseRows(text)[0] ?? [''];
        if (blankRow(cells)) continue;
        const columns = cells.map((c) => c.trim().toLowerCase());
        const missing = REQUIRED.filter((c) => !columns.includes(c));
        if (missing.length > 0) {
          yield [unreadable(problem('record.bad-csv', `the header has no ${missing.join(', ')} column: this is not the per-turn CSV`), `${src.name}:${line}`, null)];
          return;
        }
        header = text;
        idColumn = columns.lastIndexOf('game_id');
        continue;
      }
      let key: string;
      let first = at;
      while (first < end && (buf[first] === 32 || buf[first] === 9)) first++;
      if (idColumn === 0 && buf[first] !== QUOTE) {
        const comma = buf.indexOf(COMMA, at);
        key = buf.toString('utf8', at, comma < 0 || comma > end ? end : comma).trim();
        if (key === '' && (comma < 0 || comma > end)) continue; // a blank line
      } else {
        const cells = parseRows(buf.toString('utf8', at, end))[0] ?? [''];
        if (blankRow(cells)) continue;
        key = (cells[idColumn] ?? '').trim();
      }
      if (open === null) {
        open = { key, start: at, end, line };
        continue;
      }
      if (next === null) {
        if (open.key === key) open.end = end;
        else next = { key, start: at, end, line };
        continue;
      }
      // The open game's id again after one row of another: that row was the open game's.
      if (open.key === key) {
        open.end = end;
        next = null;
        continue;
      }
      spans.push(open.start, open.end, open.line, 0);
      closedUpTo = open.end;
      open = next;
      if (open.key === key) {
        open.end = end;
        next = null;
      } else next = { key, start: at, end, line };
    }
    yield games(buf, spans, closedUpTo);
    if (open !== null) {
      carry = buf.subarray(open.start);
      if (next !== null) {
        next.start -= open.start;
        next.end -= open.start;
      }
      open.end -= open.start;
      open.start = 0;
    } else carry = null;
  }
  // At a broken-off source the last game may be incomplete: it belongs to the lost rest.
  // A row not yet placed after it: the game before it was whole as far as the rows tell.
  if (open && carry && src.failure === null) yield games(carry, spansOf(open, next), (next ?? open).end);
  else if (open && carry && next) yield games(carry, spansOf(open, null), open.end);
}

/**
 * Where each column the reader reads sits in a row: the last cell of its name, as an object
 * filled cell by cell keeps the last (-1: none); `line`, a "line" column's, whose cell then
 * stands for the row's line in such an object. A row is then one object of one shape.
 */
export type Layout = Record<Column | 'line', number>;

export function layoutOf(columns: string[]): Layout {
  const at = { line: columns.lastIndexOf('line') } as Layout;
  for (const c of CSV_COLUMNS) at[c] = columns.lastIndexOf(c);
  return at;
}

const cellAt = (cells: string[], i: number): string | undefined => (i < 0 ? undefined : cells[i]);

/** A row as `{ line }` with every column's cell assigned to it in header order would be (csv.test.ts proves it). */
export function rowOf(at: Layout, cells: string[], line: number): Row {
  return {
    line: at.line < 0 ? line : cells[at.line],
    game_id: cellAt(cells, at.game_id),
    turn_number: cellAt(cells, at.turn_number),
    fen: cellAt(cells, at.fen),
    dice: cellAt(cells, at.dice),
    side: cellAt(cells, at.side),
    moves: cellAt(cells, at.moves),
    result: cellAt(cells, at.result),
    termination: cellAt(cells, at.termination),
    mode: cellAt(cells, at.mode),
    source: cellAt(cells, at.source),
    white_rating: cellAt(cells, at.white_rating),
    black_rating: cellAt(cells, at.black_rating),
    white_type: cellAt(cells, at.white_type),
    black_type: cellAt(cells, at.black_type),
  };
}

const columnsOf = new Map<string, { columns: string[]; layout: Layout }>();

/** One game's rows (text from its first row to its last, one row a line) → its record or unreadable entry. */
function parse(text: string, at: RawPlace): Draft[] {
  let known = columnsOf.get(at.header!);
  if (known === undefined) {
    const names = (parseRows(at.header!)[0] ?? []).map((c) => c.trim().toLowerCase());
    known = { columns: names, layout: layoutOf(names) };
    if (columnsOf.size > 64) columnsOf.clear();
    columnsOf.set(at.header!, known);
  }
  const { columns, layout } = known;
  let game: Pending | null = null;
  const rows = parseRows(text);
  for (let r = 0; r < rows.length; r++) {
    const cells = rows[r];
    if (blankRow(cells)) continue;
    const line = at.line + r;
    const row = rowOf(layout, cells, line);
    const id = (row.game_id ?? '').trim();
    game ??= { id, rows: [], problem: null };
    if (game.problem === null) {
      if (cells.length !== columns.length) game.problem = problem('record.bad-csv', `row has ${cells.length} fields, the header ${columns.length}`, `${at.source}:${line}`);
      // A row of another id between this game's rows (the cut keeps it in the game: readBatches).
      else if (id !== game.id) game.problem = problem('record.bad-csv', `a row of game_id "${id}" between rows of game "${game.id}"`, `${at.source}:${line}`);
    }
    game.rows.push(row);
  }
  if (game === null) return [];
  const g = game;
  const location = `${at.source}:${g.rows[0].line}`;
  if (g.problem) return [unreadable(g.problem, location, g.id)];
  return [convertOne(() => parseCsvGame(g, at.source), location, g.id)];
}

function parseCsvGame(g: Pending, name: string): GameRecord {
  if (g.id === '') fail('record.missing-field', 'field "game_id" is empty', `${name}:${g.rows[0].line}`);
  const notes = new Set<string>();
  const rows = g.rows;
  const at = (r: Row): string => `${name}:${r.line}`;
  // Row j's FEN is the board after turn j − 1 (written down for the judge, see FenBoards).
  const boards = new FenBoards(rows.length);
  const fens = rows.map((r, j) => {
    try {
      // The first row's FEN is the start position: the full check; the others the quick one.
      return j === 0 ? checkFen(r.fen, 'start', 'field "fen"') : checkFen(r.fen, 'turn', 'field "fen"', boards, j - 1);
    } catch (e) {
      (e as { problem?: Problem }).problem!.location = at(r);
      throw e;
    }
  });
  const turns = rows.map((r, i) => {
    try {
      const side = r.side?.trim() ? parseSide(r.side) : (fens[i].split(' ')[1] as 'w' | 'b');
      const { dice, order } = parseDice(r.dice ?? '', side, notes);
      const moveText = (r.moves ?? '').trim();
      const moves = moveText === '' ? [] : moveText.split(/\s+/).map((m) => normaliseUci(m, notes));
      return { side, dice, diceOrder: order, moves, fenAfter: i + 1 < rows.length ? fens[i + 1] : null, location: at(r) };
    } catch (e) {
      const p = (e as { problem?: Problem }).problem;
      if (p && !p.location) p.location = at(r);
      throw e;
    }
  });
  const first = (c: Column): string | null => {
    for (const r of rows) {
      const v = r[c]?.trim();
      if (v) return v;
    }
    return null;
  };
  const termination = first('termination') ?? 'unknown';
  if (!(TERMINATIONS as readonly string[]).includes(termination)) fail('record.bad-field', `termination "${termination}" is not one the schema knows`, at(rows[0]));
  const mode = first('mode');
  if (mode !== null && mode !== 'classic' && mode !== 'x2') fail('record.bad-field', `mode "${mode}" is not classic or x2`, at(rows[0]));
  const player = (rating: Column, type: Column): Player => {
    const r = first(rating);
    const k = first(type)?.toLowerCase() ?? null;
    if (r !== null && !Number.isFinite(Number(r))) fail('record.bad-field', `${rating} "${r}" is not a number`, at(rows[0]));
    if (k !== null && k !== 'human' && k !== 'bot') fail('record.bad-field', `${type} "${k}" is not human or bot`, at(rows[0]));
    return { id: null, name: null, kind: k as Player['kind'], rating: r === null ? null : Number(r) };
  };
  const input: GameRecordInput = {
    id: g.id,
    site: first('source'),
    format: 'csv',
    location: at(rows[0]),
    mode: mode as GameRecordInput['mode'],
    startFen: fens[0],
    players: { white: player('white_rating', 'white_type'), black: player('black_rating', 'black_type') },
    turns,
    result: parseResult(first('result')),
    termination: termination as GameRecordInput['termination'],
  };
  return finaliseRecord(keepFenBoards(input, boards), notes);
}

const cell = (v: string | number | null | undefined): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The rows of one game; the FEN before each turn is the record's own, or computed by playing the moves. */
export function makeCsvRows(r: GameRecord): string {
  const fens = fensBefore(r);
  let out = '';
  r.turns.forEach((t, i) => {
    const values = [
      r.id, i + 1, fens[i] ?? '', t.dice.length === 0 ? '' : makeDiceLetters(t.dice as Role[], t.side === 'w' ? 0 : 1), t.side, t.moves.join(' '), resultNumber(r.result), r.termination,
      r.mode, r.site, r.players.white.rating, r.players.black.rating, r.players.white.kind, r.players.black.kind,
    ];
    out += `${values.map(cell).join(',')}\n`;
  });
  return out;
}

export const csvFormat: FormatModule = {
  name: 'csv',
  readBatches,
  parse,
  read: (src, ctx) => readParsed(csvFormat, src, ctx),
  make: makeCsvRows,
  unwritable: (r) => (r.turns.length === 0 ? 'CSV holds a game as its turns, one row each, and this game has no turn' : null),
  header: `${CSV_COLUMNS.join(',')}\n`,
};
