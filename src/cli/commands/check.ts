import type { CommandModule } from 'yargs';
import { judgeTurn } from '../../dialects/turns.js';
import { type DialectArgs, dialectOptions, resolveDialectOption } from '../dialect-option.js';
import { orUsage } from '../position-option.js';

interface Args extends DialectArgs {
  dfen: string;
  turn: string;
  json: boolean;
}

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
    // Text that is not a move at all is a usage error; a readable move the rules refuse is a verdict.
    const v = orUsage(judgeTurn(dialect, argv.dfen, argv.turn));
    if (argv.json) {
      process.stdout.write(`${JSON.stringify(v.legal ? { legal: true } : v)}\n`);
    } else if (v.legal) {
      process.stdout.write('legal\n');
    } else {
      const alt = v.allowed.slice(0, 8).map((t) => (t.length ? t.join(',') : 'pass'));
      process.stdout.write(`${v.rule} at micro-move ${v.microMove ?? '-'}: ${v.message}\n`);
      if (alt.length) process.stdout.write(`allowed: ${alt.join(' | ')}${v.allowed.length > alt.length ? ' | …' : ''}\n`);
    }
    process.exitCode = v.legal ? 0 : 1;
  },
};
