import { loadDialect } from '../dialects/index.js';
import { Prng } from '../dice/index.js';
import { FORMATS } from '../records/formats/index.js';
import type { FormatName, GameRecord } from '../records/model/game-record.js';
import { type PreparedDialect, prepareDialect } from '../replay/replay-game.js';
import type { ExpectedFinding } from './answer-key.js';
import type { BotStyle } from './bots.js';
import { chooseInjection, type GameUnit, type InjectSpec, plant } from './inject/index.js';
import { firstFindingAfterRoundTrip } from './round-trip.js';
import { type DialectContext, makeContext, type PlayedGame, playGame, type Rates } from './self-play.js';
import { type CorpusStats, countGame, emptyStats } from './stats.js';

/** One batch of consecutive games, as sent to a worker thread (plain data). */
export interface GenerateTask {
  /** Dialect file (or name) and `--set` overrides, loaded once per thread. */
  dialect: { file: string; overrides: string[] };
  seed: string;
  format: FormatName;
  bots: BotStyle[];
  rates: Rates;
  inject: InjectSpec[];
  /** First game index and number of games. */
  start: number;
  count: number;
  /** Opening-book format: turns of each game written as book lines. */
  bookTurns: number;
  /** Re-read and replay every record written, and report any that does not judge as intended. */
  verify: boolean;
}

export interface GeneratedUnit {
  /** The record in the output format (no header). */
  text: string;
  /** The record's id as the reader will give it; null when derived from its line (opening book). */
  id: string | null;
  /** The planted divergence, when there is one. */
  expected: ExpectedFinding | null;
}

export interface BatchOutput {
  units: GeneratedUnit[];
  stats: CorpusStats;
  /** With `verify`: records that did not judge as intended (should be empty). */
  problems: string[];
}

/** Games tried per index before a planting is given up (the index then keeps its first game, unplanted). */
export const MAX_REPICKS = 24;
/** Default opening-book depth: the first turns of each game. */
export const BOOK_TURNS = 6;

interface Prepared {
  ctx: DialectContext;
  judge: PreparedDialect;
}

const cache = new Map<string, Prepared>();

function prepared(spec: GenerateTask['dialect']): Prepared {
  const key = `${spec.file}\u0000${spec.overrides.join('\u0000')}`;
  let p = cache.get(key);
  if (!p) {
    const loaded = loadDialect(spec.file, spec.overrides);
    if (!loaded.ok) throw new Error(`dialect ${spec.file}: ${loaded.error.map((x) => x.message).join('; ')}`);
    p = { ctx: makeContext(loaded.value.name, loaded.value.rules), judge: prepareDialect(loaded.value.name, loaded.value.rules) };
    cache.set(key, p);
  }
  return p;
}

/**
 * The units a game is written as: itself, or (opening book) one single-turn record per
 * early turn, up to the first turn that captures a king (a book holds no game-ending turns)
 * and never a partial last turn.
 */
export function unitsOf(game: PlayedGame, format: FormatName, bookTurns: number): GameUnit[] {
  if (format !== 'opening-book') return [{ record: game.record, trace: game.trace }];
  const r = game.record;
  // A book holds whole turns: a last turn cut short by the game's end is left out.
  let depth = Math.min(bookTurns, r.turns.length - (game.partialLastTurn ? 1 : 0));
  for (let i = 0; i < depth; i++) {
    const board = (r.turns[i].fenAfter ?? '').split(' ')[0];
    if (!board.includes('K') || !board.includes('k')) depth = i;
  }
  return r.turns.slice(0, depth).map((t, i) => ({
    record: {
      ...r,
      startFen: game.trace[i].fenBefore,
      chess960: null,
      turns: [{ ...t, fenAfter: null }],
      events: [],
      result: null,
      termination: 'unknown',
      fairness: null,
    } as GameRecord,
    trace: [game.trace[i]],
  }));
}

/** Generates one batch: games `start … start+count-1`, planted and formatted. Deterministic in the task. */
export async function generateBatch(task: GenerateTask): Promise<BatchOutput> {
  const { ctx, judge } = prepared(task.dialect);
  const module = FORMATS[task.format];
  const stats = emptyStats();
  const units: GeneratedUnit[] = [];
  const problems: string[] = [];
  const root = new Prng(task.seed);
  for (let index = task.start; index < task.start + task.count; index++) {
    const spec = { index, seed: task.seed, format: task.format, bots: task.bots, rates: task.rates };
    const pick = task.inject.length > 0 ? chooseInjection(task.inject, root.fork(`inject:${index}`)) : null;
    let game = playGame(ctx, spec);
    let gameUnits = unitsOf(game, task.format, task.bookTurns);
    let planted: { at: number; record: GameRecord; expected: ExpectedFinding } | null = null;
    if (pick) {
      const prng = root.fork(`plant:${index}`);
      for (let variant = 0; variant < MAX_REPICKS && !planted; variant++) {
        const candidate = variant === 0 ? game : playGame(ctx, { ...spec, variant });
        const cu = variant === 0 ? gameUnits : unitsOf(candidate, task.format, task.bookTurns);
        // Units in random order (an opening book offers several per game).
        const order = cu.map((_, u) => u);
        for (let u = order.length - 1; u > 0; u--) {
          const j = prng.nextInt(u + 1);
          [order[u], order[j]] = [order[j], order[u]];
        }
        for (const at of order) {
          const done = await plant(cu[at], pick, { ctx, format: task.format, prng }, judge);
          if (done) {
            planted = { at, record: done.record, expected: done.expected };
            game = candidate;
            gameUnits = cu;
            break;
          }
        }
      }
      if (planted) stats.planted[pick.rule] = (stats.planted[pick.rule] ?? 0) + 1;
      else stats.plantFailed[pick.name] = (stats.plantFailed[pick.name] ?? 0) + 1;
    }
    countGame(stats, game.record);
    for (let u = 0; u < gameUnits.length; u++) {
      const record = planted && planted.at === u ? planted.record : gameUnits[u].record;
      const expected = planted && planted.at === u ? planted.expected : null;
      if (module.unwritable?.(record)) {
        stats.unwritten++;
        continue;
      }
      units.push({ text: module.make(record), id: task.format === 'opening-book' ? null : record.id, expected });
      stats.records++;
      if (task.verify) {
        const got = await firstFindingAfterRoundTrip(task.format, record, judge);
        const f = 'finding' in got ? got.finding : null;
        const where = `game ${index}${gameUnits.length > 1 ? ` unit ${u}` : ''} (${record.id})`;
        if ('problem' in got) problems.push(`${where}: unreadable after a round trip: ${got.problem}`);
        else if (expected === null && f !== null) problems.push(`${where}: unexpected ${f.rule} at turn ${f.turn} micro ${f.microMove}: ${f.message}`);
        else if (expected !== null && (f === null || f.rule !== expected.rule || f.turn !== expected.turn || f.microMove !== expected.microMove)) {
          problems.push(`${where}: planted ${expected.rule} at turn ${expected.turn} micro ${expected.microMove}, replayer says ${f ? `${f.rule} at turn ${f.turn} micro ${f.microMove}` : 'nothing'}`);
        }
      }
    }
  }
  return { units, stats, problems };
}
