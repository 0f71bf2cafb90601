import yargs, { type Argv } from 'yargs';
import { describe, expect, it } from 'vitest';
import { inferCommand } from './commands/infer.js';
import { replayCommand } from './commands/replay.js';
import { runWords, VALUE_OPTIONS } from './early-workers.js';

/** The options of a command that take a value, as yargs is told of them. */
function valueOptions(builder: unknown): string[] {
  const y = (builder as (y: Argv) => Argv)(yargs([]));
  const o = (y as unknown as { getOptions: () => { key: Record<string, unknown>; boolean: string[] } }).getOptions();
  return Object.keys(o.key).filter((k) => !o.boolean.includes(k) && k !== 'sources' && k !== 'help' && k !== 'version').sort();
}

describe('the early workers read the run from the words as the command does', () => {
  it('knows every option of replay and infer that takes a value', () => {
    expect([...VALUE_OPTIONS.replay].sort()).toEqual(valueOptions(replayCommand.builder));
    expect([...VALUE_OPTIONS.infer].sort()).toEqual(valueOptions(inferCommand.builder));
  });

  it('tells sources from option values', () => {
    const w = runWords(['replay', 'a.ndjson', '--dialect', 'chess', '--out', 'run', 'b/', '--jobs=3', '--quiet', '--all-dialects', '--format', 'csv', '--shard', '2/4', '--', '--odd']);
    expect(w).toEqual({ jobs: 3, force: false, sources: ['a.ndjson', 'b/', '--odd'], format: 'csv', glob: undefined, dialects: 1, allDialects: true, continueAfterDivergence: false, shards: 4 });
    expect(runWords(['replay', 'a.ndjson', '--jobs', '2', '--force-jobs', '--out', 'run'])).toMatchObject({ jobs: 2, force: true, sources: ['a.ndjson'] });
  });
});
