import type { Argv } from 'yargs';
import { type Dialect, loadDialect } from '../dialects/index.js';
import { UsageError } from './usage-error.js';

/** The options every command that plays rules takes. */
export interface DialectArgs {
  dialect: string;
  set?: string[];
}

/** Adds `--dialect NAME|FILE` (default `fallback`) and repeatable `--set path=value`. */
export function dialectOptions<T>(y: Argv<T>, fallback = 'reference'): Argv<T & DialectArgs> {
  return y
    .option('dialect', {
      type: 'string',
      default: fallback,
      describe: 'Dialect name, alias (dicechess.com, wikipedia, brainking, …) or path of a dialect .json file',
    })
    .option('set', {
      type: 'string',
      array: true,
      describe: 'Override one rule option, repeatable: --set enPassant.window=first-micro-move --set dice.count=2',
    }) as unknown as Argv<T & DialectArgs>;
}

/**
 * Loads the dialect the options name. A problem becomes a UsageError with one line:
 * the first problem, and how many more there are.
 */
export function resolveDialectOption(argv: { dialect?: string; set?: readonly (string | number)[] }): Dialect {
  const name = argv.dialect ?? 'reference';
  const overrides = (argv.set ?? []).map(String);
  const r = loadDialect(name, overrides);
  if (r.ok) return r.value;
  const [first, ...rest] = r.error;
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''}: dice-dialects dialects --check FILE lists them)` : '';
  const where = first.code === 'dialect.unknown' || first.code === 'dialect.override' ? '' : `dialect "${name}": `;
  const at = first.path && first.code !== 'dialect.override' ? `${first.path}: ` : '';
  throw new UsageError(`${where}${at}${first.message}${more}`, first.code);
}
