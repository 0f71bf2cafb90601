import type { CommandModule } from 'yargs';
import { wholeNumberOption } from '../source-options.js';
import { legalTurns } from '../../dialects/turns.js';
import { type DialectArgs, dialectOptions, resolveDialectOption } from '../dialect-option.js';
import { orUsage } from '../position-option.js';

interface Args extends DialectArgs {
  dfen: string;
  json: boolean;
  limit: number;
}

export const turnsCommand: CommandModule<object, Args> = {
  command: 'turns',
  describe: 'List every legal full turn of a DFEN with dice ("pass" for the forced pass)',
  builder: (y) =>
    dialectOptions(y)
      .option('dfen', { type: 'string', demandOption: true, describe: 'Position with the dice to play as 7th field' })
      .option('json', { type: 'boolean', default: false, describe: 'Print a JSON array of arrays ([[]] = forced pass)' })
      .option('limit', { type: 'number', default: 100000, describe: 'Stop after this many turns' })
      .example('$0 turns --dialect reference --dfen "8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1 PNN"', '') as never,
  handler: (argv) => {
    const dialect = resolveDialectOption(argv);
    const limit = wholeNumberOption('limit', argv.limit, 1) ?? 100_000;
    // One more than the limit tells a list cut short from one that ends there.
    const turns = orUsage(legalTurns(dialect, argv.dfen, { limit: limit + 1 }));
    if (turns.length > limit) {
      turns.length = limit;
      process.stderr.write(`dice-dialects: note: the first ${limit} turns only: the position has more (raise --limit to list them)\n`);
    }
    if (argv.json) process.stdout.write(`${JSON.stringify(turns)}\n`);
    else process.stdout.write(turns.map((t) => `${t.length === 0 ? 'pass' : t.join(',')}\n`).join(''));
  },
};
