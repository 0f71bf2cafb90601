import type { CommandModule } from 'yargs';
import { diffCommand } from './diff.js';
import { dialectsCommand } from './dialects.js';
import { perftCommand } from './perft.js';
import { movesCommand } from './moves.js';
import { turnsCommand } from './turns.js';
import { checkCommand } from './check.js';
import { casesCommand } from './cases.js';
import { replayCommand } from './replay.js';
import { mergeCommand } from './merge.js';
import { convertCommand } from './convert.js';
import { schemaCommand } from './schema.js';
import { generateCommand } from './generate.js';
import { scoreCommand } from './score.js';
import { inferCommand } from './infer.js';
import { exploreCommand } from './explore.js';
import { fetchCommand } from './fetch.js';

/**
 * Every sub-command. Each module sets `process.exitCode` itself (0 ok, 1 found a
 * problem, 2 usage error) and throws UsageError for one-line usage errors.
 * Add one import line per command.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const COMMANDS: CommandModule<any, any>[] = [replayCommand, mergeCommand, diffCommand, movesCommand, turnsCommand, checkCommand, casesCommand, dialectsCommand, perftCommand, convertCommand, schemaCommand, generateCommand, scoreCommand, inferCommand, exploreCommand, fetchCommand];
