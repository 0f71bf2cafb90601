import type { CommandModule } from 'yargs';
import { makeUci, type Move, perft, perftDivide, STANDARD_FEN } from '../../core/index.js';
import { parseDialectDfen } from '../../rules/index.js';
import { needs960, perftOptions } from '../../dialects/index.js';
import { type DialectArgs, dialectOptions, resolveDialectOption } from '../dialect-option.js';
import { UsageError } from '../usage-error.js';

interface Args extends DialectArgs {
  fen: string;
  depth: number;
  divide: boolean;
  chess960: boolean;
}

/** `dice-dialects perft`: leaf counts of a dice-less dialect (the chess control), standard or Chess960. */
export const perftCommand: CommandModule<object, Args> = {
  command: 'perft',
  describe: 'Count leaf positions (perft) of the dice-less control dialect; --divide: per root move, in UCI',
  builder: (y) =>
    dialectOptions(y, 'chess')
      .option('fen', { type: 'string', default: STANDARD_FEN, describe: 'Position (FEN; castling as KQkq, X-FEN or Shredder-FEN)' })
      .option('depth', { type: 'number', demandOption: true, describe: 'Depth in plies (0–10)' })
      .option('divide', { type: 'boolean', default: false, describe: 'Print the count below each root move' })
      .option('chess960', { type: 'boolean', default: false, describe: 'Write castling king-takes-rook (automatic for 960 positions)' })
      .example('$0 perft --fen "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -" --depth 3 --divide', '') as never,
  handler: (argv) => {
    const dialect = resolveDialectOption(argv);
    const rules = dialect.rules;
    if (rules.dice.count !== 0 || rules.check !== 'orthodox') {
      throw new UsageError(`perft counts orthodox chess: dialect "${dialect.name}" rolls ${rules.dice.count} dice (use --dialect chess)`, 'perft.dialect');
    }
    const depth = argv.depth;
    if (!Number.isInteger(depth) || depth < 0 || depth > 10) throw new UsageError(`--depth must be a whole number 0–10, not ${depth}`, 'perft.depth');
    const parsed = parseDialectDfen(rules, argv.fen);
    if (!parsed.ok) throw new UsageError(`bad FEN (${parsed.error.code}): ${parsed.error.message}`, parsed.error.code);
    const pos = parsed.value.pos;
    // Records may hold a position whose king was taken; orthodox chess has one king a side, and counting moves without one answers nothing.
    const missing = (['white', 'black'] as const).filter((_, c) => pos.kingSquare[c] < 0);
    if (missing.length > 0) throw new UsageError(`bad FEN (perft.no-king): orthodox chess needs a king of each side; no ${missing.join(' and no ')} king on the board`, 'perft.no-king');
    const is960 = needs960(pos);
    if (is960 && !rules.castling.chess960) {
      throw new UsageError(`the FEN has Chess960 castling rights but dialect "${dialect.name}" has no 960 castling`, 'perft.chess960');
    }
    const notation = argv.chess960 || is960 || rules.start.position === 'chess960' ? 'king-takes-rook' : 'king-two-squares';
    const opts = perftOptions(rules);
    const started = performance.now();
    let total: number;
    if (argv.divide && depth > 0) {
      const rows: Array<[string, number]> = perftDivide(pos, depth, opts).map(([m, n]: [Move, number]) => [makeUci(m, notation), n]);
      rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      process.stdout.write(rows.map(([u, n]) => `${u}: ${n}\n`).join(''));
      process.stdout.write('\n');
      total = rows.reduce((s, [, n]) => s + n, 0);
    } else {
      total = perft(pos, depth, opts);
    }
    const ms = performance.now() - started;
    process.stdout.write(`total: ${total}\n`);
    process.stderr.write(`depth ${depth}: ${total} nodes in ${ms.toFixed(0)} ms (${ms > 0 ? Math.round((total / ms) * 1000).toLocaleString('en-US') : '-'} nodes/s)\n`);
  },
};
