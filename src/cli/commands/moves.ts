import type { CommandModule } from 'yargs';
import { TurnEngine } from '../../rules/index.js';
import { type DialectArgs, dialectOptions, resolveDialectOption } from '../dialect-option.js';
import { readDfenOption } from '../position-option.js';

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
    const { pos, dice } = readDfenOption(argv.dfen, dialect.rules);
    const engine = new TurnEngine(dialect.rules);
    const moves = engine.legalFirstMicroMoves(pos, dice).map((m) => engine.uci(m)).sort();
    process.stdout.write(argv.json ? `${JSON.stringify(moves)}\n` : moves.map((m) => `${m}\n`).join(''));
  },
};
