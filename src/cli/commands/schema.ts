import type { CommandModule } from 'yargs';
import { beturangaJsonSchema, recordJsonSchema } from '../../records/index.js';

/** JSON Schemas of the project's data contracts, by name. Add a line to publish another. */
const SCHEMAS: Record<string, () => unknown> = {
  record: recordJsonSchema,
  beturanga: beturangaJsonSchema,
};

interface Args {
  name: string;
}

export const schemaCommand: CommandModule<object, Args> = {
  command: 'schema <name>',
  describe: 'Print the JSON Schema of a data contract (record: one canonical game record, a line of the native NDJSON; beturanga: a beturanga server game document)',
  builder: (y) => y.positional('name', { choices: Object.keys(SCHEMAS), demandOption: true, describe: 'Which schema' }) as never,
  handler: (argv) => {
    process.stdout.write(`${JSON.stringify(SCHEMAS[argv.name](), null, 2)}\n`);
    process.exitCode = 0;
  },
};
