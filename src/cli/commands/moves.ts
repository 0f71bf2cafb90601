import type { CommandModule } from 'yargs';
import { legalFirstMoves } from '../../dialects/turns.js';
import { type DialectArgs, dialectOptions, resolveDialectOption } from '../dialect-option.js';
import { orUsage } from '../position-option.js';

interface Args extends DialectArgs {
  dfen: string;
  json: boolean;
}

export const movesCommand: CommandModule<object, Args> = {
  command: 'moves',
  describe: 'List the legal first micro-moves of a DFEN with dice',
  builder: (y) =>
    dialectOptions(y)
      .option('dfen', { type: 'string', demandOption: true, describe: 'Position with the dice to play as 7th field' })
      .option('json', { type: 'boolean', default: false, describe: 'Print a JSON array' })
      .example('$0 moves --dialect reference --dfen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB"', '') as never,
  handler: (argv) => {
    const dialect = resolveDialectOption(argv);
    const moves = orUsage(legalFirstMoves(dialect, argv.dfen));
    process.stdout.write(argv.json ? `${JSON.stringify(moves)}\n` : moves.map((m) => `${m}\n`).join(''));
  },
};
