import type { CommandModule } from 'yargs';
import { writeOutputFile } from '../../output/file-output.js';
import { checkFileTarget } from '../../output/output-path.js';
import {
  checkDialectFile,
  compareDialects,
  comparisonMarkdown,
  type Dialect,
  formatProblem,
  LEAF_PATHS,
  listDialects,
  loadDialect,
} from '../../dialects/index.js';
import { UsageError } from '../usage-error.js';

interface Args {
  compare: boolean;
  check?: string;
  show?: string;
  format: 'text' | 'md' | 'json';
  out?: string;
  set?: string[];
}

/** `dice-dialects dialects`: list, compare side by side, show one resolved, or check a user's file. */
export const dialectsCommand: CommandModule<object, Args> = {
  command: 'dialects',
  describe: 'List the dialects; --compare: every axis × every dialect with sources; --check FILE: validate a dialect file',
  builder: (y) =>
    y
      .option('compare', { type: 'boolean', default: false, describe: 'Side-by-side table of every axis of every dialect, each value with its source' })
      .option('check', { type: 'string', describe: 'Validate a dialect file (with its extends chain): every problem with its JSON path, exit 1 when any' })
      .option('show', { type: 'string', describe: 'Print one dialect resolved (extends and --set applied), every value with its source, as JSON' })
      .option('set', { type: 'string', array: true, describe: 'With --check or --show: override options (path=value), validated like the file' })
      .option('format', { choices: ['text', 'md', 'json'] as const, default: 'text' as const, describe: 'Output format (--compare: md or json; the list: text or json)' })
      .option('out', { type: 'string', describe: 'Write the output to FILE instead of standard output' })
      .example('$0 dialects --compare --format md --out dialects/COMPARISON.md', '')
      .example('$0 dialects --check my-dialect.json', '') as never,
  handler: async (argv) => {
    if (argv.out) checkFileTarget('--out', argv.out);
    let text = '';
    produce(argv, (t) => {
      text += t;
    });
    if (argv.out) await writeOutputFile('--out', argv.out, text);
    else process.stdout.write(text);
  },
};

function produce(argv: Args, emit: (text: string) => void): void {
  const overrides = (argv.set ?? []).map(String);
  const modes = [argv.compare, argv.check !== undefined, argv.show !== undefined].filter(Boolean).length;
  if (modes > 1) throw new UsageError('give at most one of --compare, --check FILE, --show NAME', 'dialects.options');

  if (argv.check !== undefined) {
    const problems = checkDialectFile(argv.check, overrides);
    if (problems.length === 0) {
      const d = loadDialect(argv.check.endsWith('.json') || argv.check.includes('/') ? argv.check : `./${argv.check}`, overrides);
      const name = d.ok ? d.value.name : '?';
      emit(`${argv.check}: ok (dialect "${name}"${d.ok && d.value.extends ? `, extends "${d.value.extends}"` : ''}, ${LEAF_PATHS.length} options)\n`);
      process.exitCode = 0;
    } else {
      emit(problems.map((p) => `${formatProblem({ ...p, file: p.file === undefined ? undefined : argv.check })}\n`).join(''));
      process.stderr.write(`${argv.check}: ${problems.length} problem${problems.length > 1 ? 's' : ''}\n`);
      process.exitCode = 1;
    }
    return;
  }

  if (argv.show !== undefined) {
    const d = loadOrThrow(argv.show, overrides);
    const { file: _file, ...rest } = d;
    emit(`${JSON.stringify(rest, null, 2)}\n`);
    return;
  }

  if (argv.compare) {
    const all: Dialect[] = [];
    for (const info of listDialects()) all.push(loadOrThrow(info.name, []));
    const c = compareDialects(all);
    if (argv.format === 'json') {
      emit(`${JSON.stringify({ dialects: c.dialects.map(({ file: _f, ...d }) => d), rows: c.rows }, null, 2)}\n`);
    } else {
      emit(comparisonMarkdown(c));
    }
    return;
  }

  const list = listDialects();
  if (argv.format === 'json') {
    emit(`${JSON.stringify(list.map(({ file: _f, ...d }) => d), null, 2)}\n`);
    return;
  }
  const w1 = Math.max(...list.map((d) => d.name.length));
  const w2 = Math.max(...list.map((d) => d.aliases.join(', ').length), 7);
  emit(list.map((d) => `${d.name.padEnd(w1)}  ${(d.aliases.join(', ') || '-').padEnd(w2)}  ${d.title}${d.extends ? `  (extends ${d.extends})` : ''}\n`).join(''));
}

function loadOrThrow(name: string, overrides: string[]): Dialect {
  const r = loadDialect(name, overrides);
  if (r.ok) return r.value;
  const first = r.error[0];
  throw new UsageError(
    `dialect "${name}": ${first.path ? `${first.path}: ` : ''}${first.message}${r.error.length > 1 ? ` (and ${r.error.length - 1} more)` : ''}`,
    first.code,
  );
}
