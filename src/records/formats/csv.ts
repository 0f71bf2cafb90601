import Papa from 'papaparse';
import type { GameRecord, GameRecordInput, Player } from '../game-record.js';
import { TERMINATIONS } from '../game-record.js';
import { finaliseRecord } from '../finalise.js';
import { type Draft, type Problem, fail, problem, tooLarge, unreadable } from '../items.js';
import { MAX_LINE_BYTES, wholeLineChunks } from '../input/lines.js';
import { checkFen, diceLetters, normaliseUci, parseDice, parseResult, parseSide, resultNumber } from '../notation.js';
import { fensBefore } from '../replay-fens.js';
import type { TextSource } from '../input/text-source.js';
import { type FormatModule, convertOne } from './format.js';

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
type Row = Partial<Record<Column, string>> & { line: number };
const REQUIRED: Column[] = ['game_id', 'fen', 'dice', 'moves'];

interface Pending {
  id: string;
  rows: Row[];
  problem: Problem | null;
}

async function* read(src: TextSource): AsyncGenerator<Draft> {
  let columns: string[] | null = null;
  let line = 0;
  let game: Pending | null = null;
  const finish = (g: Pending): Draft => {
    const location = `${src.name}:${g.rows[0]?.line ?? line}`;
    if (g.problem) return unreadable(g.problem, location, g.id);
    return convertOne(() => convertGame(g, src.name), location, g.id);
  };
  for await (const rows of csvRows(src)) {
    if (typeof rows === 'number') {
      // An over-long line, in input order: the game read so far comes first.
      if (game) yield finish(game);
      game = null;
      yield tooLarge(`${src.name}:${++line}`, rows, MAX_LINE_BYTES);
      continue;
    }
    for (const cells of rows) {
      line++;
      if (cells.length === 1 && cells[0].trim() === '') continue;
      if (columns === null) {
        columns = cells.map((c) => c.trim().toLowerCase());
        const missing = REQUIRED.filter((c) => !columns!.includes(c));
        if (missing.length > 0) {
          yield unreadable(problem('record.bad-csv', `the header has no ${missing.join(', ')} column: this is not the per-turn CSV`), `${src.name}:${line}`, null);
          return;
        }
        continue;
      }
      const row: Row = { line };
      columns.forEach((c, i) => {
        (row as Record<string, unknown>)[c] = cells[i];
      });
      const id = (row.game_id ?? '').trim();
      if (game === null || id !== game.id) {
        if (game) yield finish(game);
        game = { id, rows: [], problem: null };
      }
      if (cells.length !== columns.length && game.problem === null) {
        game.problem = problem('record.bad-csv', `row has ${cells.length} fields, the header ${columns.length}`, `${src.name}:${line}`);
      }
      game.rows.push(row);
    }
  }
  // At a broken-off source the last game may be incomplete: it belongs to the lost rest.
  if (game && src.failure === null) yield finish(game);
}

/**
 * The rows of the source, whole lines at a time: Papa Parse on each chunk of whole lines
 * (no quoted line breaks in this format, so a chunk never cuts a row). An over-long line
 * comes as its length in bytes. One await per chunk, and no parser stream to feed.
 */
async function* csvRows(src: TextSource): AsyncGenerator<string[][] | number> {
  for await (const chunk of wholeLineChunks(src)) {
    if (typeof chunk === 'number') {
      yield chunk;
      continue;
    }
    let end = chunk.length;
    if (chunk[end - 1] === 10) end -= chunk[end - 2] === 13 ? 2 : 1;
    yield Papa.parse<string[]>(chunk.toString('utf8', 0, end), { header: false, skipEmptyLines: false }).data;
  }
}

function convertGame(g: Pending, name: string): GameRecord {
  if (g.id === '') fail('record.missing-field', 'field "game_id" is empty', `${name}:${g.rows[0].line}`);
  const notes = new Set<string>();
  const rows = g.rows;
  const at = (r: Row): string => `${name}:${r.line}`;
  const fens = rows.map((r) => {
    try {
      // The first row's FEN is the start position: the full check; the others the quick one.
      return checkFen(r.fen, `field "fen"`, r === rows[0]);
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
  return finaliseRecord(input, notes);
}

const cell = (v: string | number | null | undefined): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The rows of one game; the FEN before each turn is the record's own, or computed by playing the moves. */
export function formatCsvRows(r: GameRecord): string {
  const fens = fensBefore(r);
  let out = '';
  r.turns.forEach((t, i) => {
    const values = [
      r.id, i + 1, fens[i] ?? '', diceLetters(t.dice, t.side), t.side, t.moves.join(' '), resultNumber(r.result), r.termination,
      r.mode, r.site, r.players.white.rating, r.players.black.rating, r.players.white.kind, r.players.black.kind,
    ];
    out += `${values.map(cell).join(',')}\n`;
  });
  return out;
}

export const csvFormat: FormatModule = { name: 'csv', read, format: formatCsvRows, header: `${CSV_COLUMNS.join(',')}\n` };
