import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/test-support/run-cli.js';
import { tempDir } from '../test-support/temp-dir.js';
import type { GameResultLine } from '../replay/result.js';
import { type AnswerKey, parseAnswerKey, serializeAnswerKey } from './answer-key.js';
import { formatScore, scoreResults } from './score.js';

const key: AnswerKey = {
  kind: 'dice-dialects/answer-key',
  version: 1,
  dialect: 'reference',
  format: 'ndjson',
  seed: '1',
  games: 5,
  inject: { 'maximum.fewer-dice': 0.5 },
  planted: { 'maximum.fewer-dice': 2, 'castling.needs-king-and-rook-dice': 1 },
  expected: {
    g1: { rule: 'maximum.fewer-dice', turn: 3, microMove: 0 },
    g2: { rule: 'maximum.fewer-dice', turn: 5, microMove: 1 },
    g4: { rule: 'castling.needs-king-and-rook-dice', turn: 9, microMove: 0 },
  },
};

function line(id: string, finding: { rule: string; turn: number | null; microMove: number | null } | null, dialect = 'reference'): GameResultLine {
  return {
    id,
    dialect,
    status: finding ? 'diverging' : 'conforming',
    index: 0,
    source: null,
    turns: 10,
    findings: finding ? [{ ...finding, dfen: null, dice: null, recorded: [], allowed: [], message: 'm', location: null }] : [],
  };
}

describe('score', () => {
  it('is perfect when every first finding matches the key', async () => {
    const r = await scoreResults(key, [
      line('g1', { rule: 'maximum.fewer-dice', turn: 3, microMove: 0 }),
      line('g2', { rule: 'maximum.fewer-dice', turn: 5, microMove: 1 }),
      line('g3', null),
      line('g4', { rule: 'castling.needs-king-and-rook-dice', turn: 9, microMove: 0 }),
      line('g1', null, 'dicechess-com'),
    ]);
    expect(r.perfect).toBe(true);
    expect(r.overall.recall).toBe(1);
    expect(r.overall.precision).toBe(1);
    expect(r.trueNegatives).toBe(1);
    expect(r.otherDialects).toEqual(['dicechess-com']);
    expect(formatScore(r)).toContain('recall 100%, precision 100%');
  });

  it('counts misplaced, missed, missing and false findings', async () => {
    const r = await scoreResults(key, [
      line('g1', { rule: 'maximum.fewer-dice', turn: 3, microMove: 1 }),
      line('g2', null),
      line('g3', { rule: 'pass.not-allowed', turn: 1, microMove: 0 }),
    ]);
    const max = r.byRule.find((s) => s.rule === 'maximum.fewer-dice')!;
    expect(max).toMatchObject({ expected: 2, truePositives: 0, falseNegatives: 2, falsePositives: 1, misplaced: 1, recall: 0, precision: 0 });
    const castle = r.byRule.find((s) => s.rule === 'castling.needs-king-and-rook-dice')!;
    expect(castle).toMatchObject({ missing: 1, falseNegatives: 1 });
    const pass = r.byRule.find((s) => s.rule === 'pass.not-allowed')!;
    expect(pass).toMatchObject({ falsePositives: 1, precision: 0, recall: null });
    expect(r.perfect).toBe(false);
    expect(r.mismatchCount).toBe(4);
    expect(formatScore(r)).toContain('g3: expected no finding; replayer: pass.not-allowed at turn 1 micro 0');
  });
});

describe('score over a run of several corpora', () => {
  it('scores only the keyed corpus when the key lists its records, and notices missing ones', async () => {
    const withRecords: AnswerKey = { ...key, records: ['g1', 'g2', 'g3', 'g4', 'g5'] };
    const r = await scoreResults(withRecords, [
      line('g1', { rule: 'maximum.fewer-dice', turn: 3, microMove: 0 }),
      line('g2', { rule: 'maximum.fewer-dice', turn: 5, microMove: 1 }),
      line('g3', null),
      line('g4', { rule: 'castling.needs-king-and-rook-dice', turn: 9, microMove: 0 }),
      line('other-corpus', { rule: 'pass.not-allowed', turn: 1, microMove: 0 }),
    ]);
    expect(r.otherCorpora).toBe(1);
    expect(r.missingClean).toBe(1);
    expect(r.overall.precision).toBe(1);
    expect(r.perfect).toBe(false);
    expect(formatScore(r)).toContain('1 clean game of the corpus missing');
  });
});

describe('answer key', () => {
  it('round-trips and reads a bare map', () => {
    const parsed = parseAnswerKey(serializeAnswerKey(key));
    expect(parsed.ok && parsed.key).toEqual(key);
    const bare = parseAnswerKey(JSON.stringify(key.expected), 'reference');
    expect(bare.ok && bare.key.planted).toEqual({ 'maximum.fewer-dice': 2, 'castling.needs-king-and-rook-dice': 1 });
    expect(parseAnswerKey('{"kind":1}').ok).toBe(false);
    expect(parseAnswerKey('nope').ok).toBe(false);
  });
});

describe('score on the command line', () => {
  it('results of another corpus than the key\'s: the error says so, not "no result lines"', async () => {
    const dir = tempDir('score-cli-');
    const keyed = { ...key, records: ['g1', 'g2', 'g3', 'g4', 'g5'] };
    writeFileSync(join(dir, 'key.json'), serializeAnswerKey(keyed));
    writeFileSync(join(dir, 'results.ndjson'), ['x1', 'x2'].map((id) => `${JSON.stringify(line(id, null))}\n`).join(''));
    const r = await runCli('score', '--key', join(dir, 'key.json'), '--results', join(dir, 'results.ndjson'));
    expect(r.code).toBe(2);
    expect(r.err).toBe(`dice-dialects: --results ${join(dir, 'results.ndjson')}: none of its 2 result lines for dialect reference is a game of the key's corpus: was it replayed from the corpus the key was written with?\n`);
  });
});
