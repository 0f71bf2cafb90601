import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadDialect } from '../dialects/index.js';
import { readRecords } from '../records/index.js';
import { prepareDialect, replayGame } from '../replay/replay-game.js';
import { parseAnswerKey } from './answer-key.js';
import { type InjectSpec, parseInject } from './inject/index.js';
import { generateCorpus } from './run.js';
import { Scorer } from './score.js';
import { DEFAULT_RATES } from './self-play.js';
import { tempDir } from '../test-support/temp-dir.js';

const dialect = () => {
  const d = loadDialect('reference');
  if (!d.ok) throw new Error('dialect');
  return d.value;
};
const inject = ['maximum.fewer-dice:0.1', 'end.move-after-king-capture:0.05', 'dice.not-derived-from-seeds:0.05'].map((t) => parseInject(t) as InjectSpec);

describe('generateCorpus', () => {
  it('writes the same bytes whatever the batch size, gzip included, and a key', async () => {
    const dir = tempDir('dd-gen-');
    const base = { dialect: dialect(), overrides: [], games: 40, seed: 'bytes', format: 'history' as const, bots: ['random', 'greedy'] as ('random' | 'greedy')[], rates: DEFAULT_RATES, inject, jobs: 1 };
    const a = await generateCorpus({ ...base, out: join(dir, 'a.ndjson.gz'), batch: 7 });
    const b = await generateCorpus({ ...base, out: join(dir, 'b.ndjson.gz'), batch: 40 });
    expect(readFileSync(join(dir, 'a.ndjson.gz')).equals(readFileSync(join(dir, 'b.ndjson.gz')))).toBe(true);
    expect(gunzipSync(readFileSync(join(dir, 'a.ndjson.gz'))).toString().split('\n').filter(Boolean)).toHaveLength(40);
    expect(readFileSync(a.keyPath!, 'utf8')).toBe(readFileSync(b.keyPath!, 'utf8'));
    expect(a.stats).toEqual(b.stats);
  });

  it.each(['csv', 'opening-book', 'dicechess-com'] as const)('%s: read back from disk and replayed, the key scores perfect recall and precision', async (format) => {
    const dir = tempDir('dd-gen-');
    const out = join(dir, `corpus.${format}${format === 'csv' ? '.gz' : ''}`);
    const specs = (format === 'dicechess-com' ? ['maximum.fewer-dice:0.1', 'end.move-after-king-capture:0.05', 'dice.allowed-flag:0.1'] : ['maximum.fewer-dice:0.2', 'pass.not-allowed:0.1']).map((t) => parseInject(t) as InjectSpec);
    const res = await generateCorpus({ dialect: dialect(), overrides: [], games: 50, seed: 'score', format, out, bots: ['random', 'greedy'], rates: DEFAULT_RATES, inject: specs, jobs: 1 });
    const key = parseAnswerKey(readFileSync(res.keyPath!, 'utf8'));
    if (!key.ok) throw new Error(key.message);
    const judge = prepareDialect('reference', dialect().rules);
    const scorer = new Scorer(key.key);
    let n = 0;
    for await (const item of readRecords([out], { format })) {
      expect(item.kind).toBe('record');
      if (item.kind !== 'record') continue;
      scorer.add(replayGame(item.record, judge, n++));
    }
    const report = scorer.finish();
    expect(report.mismatches).toEqual([]);
    expect(report.perfect).toBe(true);
    expect(report.planted).toBeGreaterThan(3);
  });

  it('a game the format has no text for (no turn, in CSV) is in neither the file nor the key, and the stats say so', async () => {
    const d = loadDialect('dicechess-com');
    if (!d.ok) throw new Error('dialect');
    const dir = tempDir('dd-gen-');
    const out = join(dir, 'corpus.csv');
    // Seed s1's 300 dicechess.com games hold one declined double on turn 1: a game with no turn.
    const res = await generateCorpus({ dialect: d.value, overrides: [], games: 300, seed: 's1', format: 'csv', out, bots: ['random', 'greedy'], rates: DEFAULT_RATES, inject: [parseInject('end.result-mismatch:0.1') as InjectSpec], jobs: 1 });
    expect(res.stats.games).toBe(300);
    expect(res.stats.unwritten).toBe(1);
    expect(res.stats.records).toBe(299);
    const key = parseAnswerKey(readFileSync(res.keyPath!, 'utf8'));
    if (!key.ok) throw new Error(key.message);
    const ids: string[] = [];
    for await (const item of readRecords([out], { format: 'csv' })) if (item.kind === 'record') ids.push(item.record.id);
    expect(key.key.records).toEqual(ids);
  });
});
