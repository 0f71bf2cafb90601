import type { CommandModule } from 'yargs';
import { parseUci } from '../../core/index.js';
import { TurnEngine } from '../../rules/index.js';
import { UsageError } from '../usage-error.js';
import { type DialectArgs, dialectOptions, resolveDialectOption } from '../dialect-option.js';
import { readDfenOption } from '../position-option.js';

interface Args extends DialectArgs {
  dfen: string;
  turn: string;
  json: boolean;
}

/** Splits `e2e4,f1c4` (or `pass`/empty for a pass) into micro-moves. */
export const splitTurn = (text: string): string[] => (text.trim() === '' || text.trim() === 'pass' ? [] : text.split(/[,\s]+/).filter(Boolean));

export const checkCommand: CommandModule<object, Args> = {
  command: 'check',
  describe: 'Judge one recorded turn: exit 0 and "legal", or exit 1 and the rule broken',
  builder: (y) =>
    dialectOptions(y)
      .option('dfen', { type: 'string', demandOption: true, describe: 'Position before the turn, dice as 7th field' })
      .option('turn', { type: 'string', demandOption: true, describe: 'Micro-moves, comma-separated ("pass" for a pass)' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the verdict as JSON' })
      .example('$0 check --dialect reference --dfen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB" --turn a2a3,b1c3', '') as never,
  handler: (argv) => {
    const dialect = resolveDialectOption(argv);
    const { pos, dice } = readDfenOption(argv.dfen, dialect.rules);
    const engine = new TurnEngine(dialect.rules);
    const moves = splitTurn(argv.turn);
    // Text that is not a move at all is a usage error; a readable move the rules refuse is a verdict.
    for (const m of moves) {
      const parsed = parseUci(m);
      if (!parsed.ok) throw new UsageError(`bad move text (${parsed.error.code}): ${parsed.error.message}`, parsed.error.code);
    }
    const v = engine.judge(pos, dice, moves);
    if (argv.json) {
      process.stdout.write(`${JSON.stringify(v.ok ? { legal: true } : { legal: false, ...v.finding })}\n`);
    } else if (v.ok) {
      process.stdout.write('legal\n');
    } else {
      const f = v.finding;
      const alt = f.allowed.slice(0, 8).map((t) => (t.length ? t.join(',') : 'pass'));
      process.stdout.write(`${f.rule} at micro-move ${f.microMove ?? '-'}: ${f.message}\n`);
      if (alt.length) process.stdout.write(`allowed: ${alt.join(' | ')}${f.allowed.length > alt.length ? ' | …' : ''}\n`);
    }
    process.exitCode = v.ok ? 0 : 1;
  },
};
