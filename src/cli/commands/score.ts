import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { CommandModule } from 'yargs';
import { wholeNumberOption } from '../source-options.js';
import { parseAnswerKey } from '../../generate/answer-key.js';
import { formatScore, Scorer } from '../../generate/score.js';
import { GameResultLine } from '../../replay/result.js';
import { UsageError } from '../usage-error.js';

interface Args {
  key: string;
  results: string;
  dialect?: string;
  json: boolean;
  maxMismatches: number;
}

export const scoreCommand: CommandModule<object, Args> = {
  command: 'score',
  describe: "Score a replay run against a generated corpus's answer key: recall and precision per rule id",
  builder: (y) =>
    y
      .option('key', { type: 'string', demandOption: true, describe: 'Answer key (PATH.key.json written by generate --inject)' })
      .option('results', { type: 'string', demandOption: true, describe: 'results.ndjson of a replay run (or the run folder)' })
      .option('dialect', { type: 'string', describe: "Dialect whose result lines are scored (default: the key's)" })
      .option('json', { type: 'boolean', default: false, describe: 'Print the score as JSON' })
      .option('max-mismatches', { type: 'number', default: 50, describe: 'Disagreements listed' })
      .example('$0 score --key corpora/generated/planted.ndjson.key.json --results reports/planted/results.ndjson', '') as never,
  handler: async (argv) => {
    if (!existsSync(argv.key)) throw new UsageError(`--key ${argv.key}: no such file`);
    const parsed = parseAnswerKey(readFileSync(argv.key, 'utf8'), argv.dialect ?? null);
    if (!parsed.ok) throw new UsageError(`--key ${argv.key}: ${parsed.message}`);
    let results = argv.results;
    if (existsSync(results) && statSync(results).isDirectory()) results = join(results, 'results.ndjson');
    if (!existsSync(results)) throw new UsageError(`--results ${argv.results}: no such file`);
    const scorer = new Scorer(parsed.key, { dialect: argv.dialect ?? null, maxMismatches: wholeNumberOption('max-mismatches', argv.maxMismatches, 0)! });
    const input = createReadStream(results);
    const lines = createInterface({ input: results.endsWith('.gz') ? input.pipe(createGunzip()) : input, crlfDelay: Infinity });
    let n = 0;
    for await (const text of lines) {
      n++;
      if (text.trim() === '') continue;
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        throw new UsageError(`--results ${results}:${n} is not JSON`);
      }
      const line = GameResultLine.safeParse(data);
      if (!line.success) throw new UsageError(`--results ${results}:${n} is not a results line: ${line.error.issues[0]?.message ?? 'bad shape'}`);
      scorer.add(line.data);
    }
    const report = scorer.finish();
    if (report.games === 0 && report.otherCorpora > 0) {
      throw new UsageError(`--results ${results}: none of its ${report.otherCorpora} result lines for dialect ${report.dialect} is a game of the key's corpus: was it replayed from the corpus the key was written with?`);
    }
    if (report.games === 0) throw new UsageError(`--results ${results}: no result lines for dialect ${report.dialect ?? '(any)'}${report.otherDialects.length ? ` (found: ${report.otherDialects.join(', ')})` : ''}`);
    process.stdout.write(argv.json ? `${JSON.stringify(report, null, 2)}\n` : formatScore(report));
    process.exitCode = report.perfect ? 0 : 1;
  },
};
