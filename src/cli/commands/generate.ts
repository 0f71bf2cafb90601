import type { CommandModule } from 'yargs';
import { BOT_STYLES, type BotStyle } from '../../generate/bots.js';
import { BOOK_TURNS } from '../../generate/generator.js';
import { type InjectSpec, injectProblem, parseInject } from '../../generate/inject/index.js';
import { generateCorpus } from '../../generate/run.js';
import { DEFAULT_RATES, type Rates } from '../../generate/self-play.js';
import { formatStats } from '../../generate/stats.js';
import { FORMAT_NAMES, type FormatName } from '../../records/model/game-record.js';
import { type DialectArgs, dialectOptions, resolveDialectOption } from '../dialect-option.js';
import { UsageError } from '../usage-error.js';
import { checkJobs } from '../jobs-option.js';

interface Args extends DialectArgs {
  games: number;
  seed: string;
  format: FormatName;
  out: string;
  inject?: string[];
  key?: string;
  bots: string[];
  resignRate: number;
  timeoutRate: number;
  drawRate: number;
  drawOfferRate: number;
  doubleRate: number;
  partialLastTurnRate: number;
  x2Rate: number;
  chess960Rate: number;
  bookTurns: number;
  jobs?: number;
  batch?: number;
  verify: boolean;
  quiet: boolean;
}

/** A rate per 60 turns: any number from 0 (NaN from "abc" is refused, not turned into no offers). */
const perSixty = (name: string, v: number): number => {
  if (!Number.isFinite(v) || v < 0) throw new UsageError(`--${name} must be a number from 0`);
  return v;
};

const rate = (name: string, v: number): number => {
  if (!Number.isFinite(v) || v < 0 || v > 1) throw new UsageError(`--${name} must be a number from 0 to 1, not ${v}`);
  return v;
};

export const generateCommand: CommandModule<object, Args> = {
  command: 'generate',
  describe: 'Generate a corpus by self-play under a dialect, in any record format, optionally with planted divergences and their answer key',
  builder: (y) =>
    dialectOptions(y)
      .option('games', { type: 'number', demandOption: true, describe: 'Number of games' })
      .option('seed', { type: 'string', default: '1', describe: 'Seed: same arguments, same bytes' })
      .option('format', { choices: FORMAT_NAMES, default: 'ndjson' as FormatName, describe: 'Record format (the names replay --format takes)' })
      .option('out', { type: 'string', demandOption: true, describe: 'Output file (gzip when it ends in .gz)' })
      .option('inject', { type: 'string', array: true, describe: 'Plant divergences: RULE[/VARIANT]:RATE, repeatable (e.g. maximum.fewer-dice:0.05)' })
      .option('key', { type: 'string', describe: 'Answer key path (default OUT.key.json); written when --inject is given' })
      .option('bots', { type: 'string', array: true, default: [...BOT_STYLES], describe: `Bot styles each side is drawn from (${BOT_STYLES.join(', ')})` })
      .option('resign-rate', { type: 'number', default: DEFAULT_RATES.resign, describe: 'Share of games ended by a resignation' })
      .option('timeout-rate', { type: 'number', default: DEFAULT_RATES.timeout, describe: 'Share of games ended by a flag fall (timed games)' })
      .option('draw-rate', { type: 'number', default: DEFAULT_RATES.drawAgreement, describe: 'Share of games ended by an agreed draw (dialects with draws by agreement)' })
      .option('draw-offer-rate', { type: 'number', default: DEFAULT_RATES.drawOffer, describe: 'Declined draw offers per 60 turns (mid-turn where the dialect allows)' })
      .option('double-rate', { type: 'number', default: DEFAULT_RATES.double, describe: 'Chance per turn of a double offer in x2 games (more when ahead)' })
      .option('partial-last-turn-rate', { type: 'number', default: DEFAULT_RATES.partialLastTurn, describe: 'Share of resigned / timed-out / drawn games whose last turn stops mid-turn' })
      .option('x2-rate', { type: 'number', default: DEFAULT_RATES.x2, describe: 'Share of games in x2 mode (doubling cube) where the dialect has one' })
      .option('chess960-rate', { type: 'number', default: DEFAULT_RATES.chess960, describe: 'Share of Chess960 starts where the dialect has them' })
      .option('book-turns', { type: 'number', default: BOOK_TURNS, describe: 'opening-book format: turns of each game written as book lines' })
      .option('jobs', { type: 'number', describe: 'Worker threads (default: all cores; 1 = in process); output does not depend on it' })
      .option('batch', { type: 'number', describe: 'Games per worker task (default 128)' })
      .option('verify', { type: 'boolean', default: false, describe: 'Re-read and replay every record written; exit 1 if one does not judge as intended' })
      .option('quiet', { type: 'boolean', default: false, describe: 'No progress or summary on stderr' })
      .example('$0 generate --dialect reference --games 1000 --seed 7 --format history --out corpora/generated/ref.history.ndjson.gz', '')
      .example('$0 generate --dialect dicechess-com --games 500 --format dicechess-com --inject dice.allowed-flag:0.05 --inject maximum.fewer-dice:0.05 --out corpora/generated/dc.ndjson', '') as never,
  handler: async (argv) => {
    const dialect = resolveDialectOption(argv);
    if (!Number.isInteger(argv.games) || argv.games < 1) throw new UsageError('--games must be a whole number ≥ 1');
    checkJobs(argv.jobs);
    if (argv.batch !== undefined && (!Number.isInteger(argv.batch) || argv.batch < 1)) throw new UsageError('--batch must be a whole number ≥ 1');
    if (!Number.isInteger(argv.bookTurns) || argv.bookTurns < 1) throw new UsageError('--book-turns must be a whole number ≥ 1');
    const bots = argv.bots.flatMap((b) => String(b).split(',')).filter((b) => b !== '');
    for (const b of bots) if (!(BOT_STYLES as readonly string[]).includes(b)) throw new UsageError(`--bots: unknown style "${b}" (${BOT_STYLES.join(', ')})`);
    if (bots.length === 0) throw new UsageError('--bots: name at least one style');
    if (argv.format === 'dicechess-com' && dialect.rules.dice.count === 0) {
      throw new UsageError(`format dicechess-com tells turns apart by fresh dice; dialect ${dialect.name} rolls none`);
    }
    const r = dialect.rules;
    const silentEnds = [r.end.checkmate && 'checkmate', r.draws.stalemate && 'stalemate', r.draws.moveCounterLimit !== null && 'the move counter', r.draws.turnLimit !== null && 'the turn limit', r.draws.repetition !== null && 'repetition', r.draws.insufficientMaterial !== 'none' && 'insufficient material'].filter(Boolean);
    if (argv.format === 'dicechess-com' && silentEnds.length > 0 && !argv.quiet) {
      process.stderr.write(`dice-dialects: note: a dicechess.com state map shows no result; games ${dialect.name} ends by ${silentEnds.join(', ')} will replay as end.result-mismatch\n`);
    }
    const rates: Rates = {
      resign: rate('resign-rate', argv.resignRate),
      timeout: rate('timeout-rate', argv.timeoutRate),
      drawAgreement: rate('draw-rate', argv.drawRate),
      drawOffer: perSixty('draw-offer-rate', argv.drawOfferRate),
      double: rate('double-rate', argv.doubleRate),
      partialLastTurn: rate('partial-last-turn-rate', argv.partialLastTurnRate),
      x2: rate('x2-rate', argv.x2Rate),
      chess960: rate('chess960-rate', argv.chess960Rate),
    };
    if (rates.resign + rates.timeout + rates.drawAgreement > 1) throw new UsageError('--resign-rate + --timeout-rate + --draw-rate must not exceed 1');
    const inject: InjectSpec[] = [];
    for (const text of argv.inject ?? []) {
      const spec = parseInject(String(text));
      if (typeof spec === 'string') throw new UsageError(spec);
      const why = injectProblem(spec, dialect.rules, argv.format);
      if (why) throw new UsageError(`--inject ${spec.name}: cannot be planted under ${dialect.name} in format ${argv.format}: ${why}`);
      inject.push(spec);
    }
    if (inject.reduce((s, x) => s + x.rate, 0) > 1) throw new UsageError('--inject rates add up to more than 1');
    const tty = process.stderr.isTTY && !argv.quiet;
    const result = await generateCorpus({
      dialect,
      overrides: (argv.set ?? []).map(String),
      games: argv.games,
      seed: String(argv.seed),
      format: argv.format,
      out: argv.out,
      keyPath: argv.key ?? null,
      bots: bots as BotStyle[],
      rates,
      inject,
      jobs: argv.jobs,
      batch: argv.batch,
      bookTurns: argv.bookTurns,
      verify: argv.verify,
      onProgress: tty ? (p) => process.stderr.write(`\rgames ${p.games}/${p.total}  ${Math.round((p.games * 1000) / Math.max(1, p.elapsedMs))} games/s${p.done ? '\n' : ''}`) : undefined,
    });
    if (!argv.quiet) {
      const secs = result.elapsedMs / 1000;
      process.stderr.write(`generated ${result.stats.games} games under ${dialect.name} in ${secs.toFixed(1)} s (${Math.round(result.stats.games / Math.max(secs, 0.001))} games/s, ${result.jobs} thread${result.jobs === 1 ? '' : 's'})\n`);
      process.stderr.write(`${formatStats(result.stats)}\n`);
    }
    process.stdout.write(`${argv.out}\n`);
    if (result.keyPath) process.stdout.write(`${result.keyPath}\n`);
    if (result.problems.length > 0) {
      process.stderr.write(`${result.problems.length} record(s) did not judge as intended:\n${result.problems.slice(0, 20).map((p) => `  ${p}\n`).join('')}`);
      process.exitCode = 1;
    }
  },
};
