import { join } from 'node:path';
import { statSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { writeOutputFile } from '../../output/file-output.js';
import { checkFileTarget } from '../../output/output-path.js';
import { buildMatrix, dialectResolver, loadCaseFiles, renderMatrixMarkdown, runCases } from '../../conformance/index.js';
import { DIALECTS_DIR, listDialects } from '../../dialects/index.js';
import { UsageError } from '../usage-error.js';

interface Args {
  dialect?: string[];
  matrix: boolean;
  format: 'md' | 'json';
  out?: string;
  dir: string;
}

export const casesCommand: CommandModule<object, Args> = {
  command: 'cases',
  describe: 'Run the conformance cases (dialects/cases) and print pass/fail per case; --matrix prints the rule × dialect matrix',
  builder: (y) =>
    y
      .option('dialect', { type: 'string', array: true, describe: 'Only expectations for these dialects (repeatable)' })
      .option('matrix', { type: 'boolean', default: false, describe: 'Run every case under every dialect and print the matrix' })
      .option('format', { choices: ['md', 'json'] as const, default: 'md' as const, describe: 'Matrix output format' })
      .option('out', { type: 'string', describe: 'Write the matrix to this file instead of stdout' })
      .option('dir', { type: 'string', default: join(DIALECTS_DIR, 'cases'), describe: 'Folder of case files' })
      .example('$0 cases --dialect reference', '')
      .example('$0 cases --matrix --out reports/dialect-matrix.md', '') as never,
  handler: async (argv) => {
    if (argv.out) checkFileTarget('--out', argv.out);
    let isDir = false;
    try {
      isDir = statSync(argv.dir).isDirectory();
    } catch {
      // Reported below.
    }
    if (!isDir) throw new UsageError(`--dir ${argv.dir}: not a folder of case files`);
    const loaded = loadCaseFiles(argv.dir);
    for (const p of loaded.problems) process.stderr.write(`${p.file}: ${p.path || '(file)'}: ${p.message}\n`);
    const resolve = dialectResolver();
    if (argv.matrix) {
      const names = listDialects().map((d) => d.name);
      const matrix = buildMatrix(loaded.cases, names, resolve);
      const text = argv.format === 'json' ? `${JSON.stringify(matrix, null, 1)}\n` : renderMatrixMarkdown(matrix);
      if (argv.out) await writeOutputFile('--out', argv.out, text);
      else process.stdout.write(text);
      const bad = matrix.rows.flatMap((r) => Object.values(r.cells)).filter((c) => c.status === 'fail' || c.status === 'unexpected-pass');
      if (loaded.cases.length === 0) process.stderr.write('dice-dialects: warning: no case to run: the matrix is empty\n');
      process.exitCode = bad.length > 0 || loaded.problems.length > 0 || loaded.cases.length === 0 ? 1 : 0;
      return;
    }
    const only = argv.dialect?.map((d) => {
      const r = resolve(d);
      if (!r.ok) throw new UsageError(r.message);
      return r.name;
    });
    const runs = runCases(loaded.cases, resolve, only);
    let passed = 0;
    let failed = 0;
    for (const r of runs) {
      const good = r.status === 'pass' || r.status === 'known-failure';
      if (good) passed++;
      else failed++;
      const label = r.status === 'pass' ? 'PASS' : r.status === 'known-failure' ? 'KNOWN' : r.status === 'unexpected-pass' ? 'UNEXPECTED PASS' : 'FAIL';
      process.stdout.write(`${label.padEnd(5)} ${r.id} [${r.key}]${r.diffs.length && !good ? `\n      ${r.diffs.join('\n      ')}` : ''}\n`);
    }
    process.stdout.write(`${passed} passed, ${failed} failed (${loaded.cases.length} cases${loaded.problems.length ? `, ${loaded.problems.length} case-file problems` : ''})\n`);
    // No expectation checked is not a pass (an empty --dir, a dialect no case names).
    if (runs.length === 0) process.stderr.write('dice-dialects: warning: no case expectation ran: nothing was checked\n');
    process.exitCode = failed > 0 || loaded.problems.length > 0 || runs.length === 0 ? 1 : 0;
  },
};
