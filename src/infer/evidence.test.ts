import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/test-support/run-cli.js';
import { loadDialect } from '../dialects/index.js';
import { generateCorpus } from '../generate/run.js';
import { DEFAULT_RATES } from '../generate/self-play.js';
import { tempDir } from '../test-support/temp-dir.js';
import type { InferDocument, OptionDoc } from './document.js';
import { collect, records } from '../records/test-support/collect.js';
import { declineCosts } from '../replay/judge-events.js';
import { disagree, log10LR, weigh } from './evidence.js';

const dir = tempDir('dd-infer-evidence-');

async function corpus(name: string, sets: string[], games: number, seed: string, dialect = 'reference', rates = DEFAULT_RATES): Promise<string> {
  const loaded = loadDialect(dialect, sets);
  if (!loaded.ok) throw new Error(loaded.error[0].message);
  const out = join(dir, name);
  await generateCorpus({ dialect: loaded.value, overrides: sets, games, seed, format: 'ndjson', out, bots: ['random', 'greedy'], rates, inject: [], jobs: 1 });
  return out;
}

async function infer(...args: string[]): Promise<InferDocument> {
  const r = await runCli('infer', ...args, '--json', '--jobs', '1', '--quiet');
  expect(r.err).not.toMatch(/Error|at .*\.ts/);
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as InferDocument;
}
const maximum = (doc: InferDocument): OptionDoc => doc.options.find((o) => o.path === 'maximum')!;

describe('evidence by absence: the model', () => {
  it('log10 LR = n · −log10(1 − p); a looser value is disfavoured at the threshold, net of the evidence the other way', () => {
    expect(log10LR(10_239, 0.01)).toBeCloseTo(44.69, 2);
    expect(log10LR(0, 0.01)).toBe(0);
    // path (0), path-all (1), none (2): none allowed fewer dice 500 times, path-all and path 2 apart.
    const opp = [
      [0, 0, 500],
      [2, 0, 500],
      [0, 0, 0],
    ];
    const w = weigh({ consistent: [0, 1, 2], opportunities: opp, opportunityGames: [[0, 0, 40], [2, 0, 40], [0, 0, 0]], counted: true }, 0.01, 2);
    expect(w.favoured).toEqual([0, 1]);
    expect(w.disfavoured.map((d) => [d.value, d.rival])).toEqual([[2, 0]]);
    expect(w.disfavoured[0].log10LRPerGame).toBeCloseTo(40 * -Math.log10(0.99), 6);
    // A higher take rate makes the same absence stronger; the 2 chances between path and path-all still weigh nothing at 1 %.
    expect(weigh({ consistent: [0, 1], opportunities: opp, opportunityGames: opp, counted: true }, 0.01, 2).favoured).toEqual([0, 1]);
    expect(weigh({ consistent: [0, 1], opportunities: opp, opportunityGames: opp, counted: true }, 0.99, 2).favoured).toEqual([1]);
    // Evidence both ways cancels; an option without counted opportunities keeps every consistent value.
    expect(weigh({ consistent: [0, 1], opportunities: [[0, 600], [600, 0]], opportunityGames: [[0, 1], [1, 0]], counted: true }, 0.01, 2).favoured).toEqual([0, 1]);
    expect(weigh({ consistent: [0, 1], opportunities: [[0, 0], [0, 0]], opportunityGames: [[0, 0], [0, 0]], counted: false }, 0.01, 2)).toEqual({ favoured: [0, 1], disfavoured: [], pairs: [] });
    expect(disagree([0, 1], [2])).toBe(true);
    expect(disagree([0, 1], [1, 2])).toBe(false);
  });
});

describe('evidence by absence on corpora', () => {
  it('the dicechess.com samples: maximum favoured path or path-all, none disfavoured, and the sentence says so', async () => {
    const doc = await infer('corpora/samples/dicechess-com', '--dialect', 'dicechess-com', '--option', 'maximum');
    const o = maximum(doc);
    expect(o.inferred).toBeNull();
    expect(o.favoured).toEqual(['path', 'path-all']);
    expect(o.evidence.map((e) => e.value)).toEqual(['none']);
    const e = o.evidence[0];
    expect(e.opportunities).toBeGreaterThan(5000);
    expect(e.log10LR).toBeGreaterThan(20);
    expect(e.log10LRPerGame).toBeLessThan(e.log10LR);
    expect(e.example?.witness).not.toBeNull();
    expect(o.favouredSentence).toMatch(/^`maximum`: `path` or `path-all` \(no game tells them apart: \d+ chances?\); `none` is disfavoured against `path`: in [\d,]+ turns it allowed spending fewer dice and no player did \(log10 LR ≥ [\d.]+ at a 1 % take rate/);
    expect(doc.takeRate).toBe(0.01);
    expect(doc.evidenceModel.assumption).toContain('assumption about players');
    // The example reproduces: legal under none, refused under path.
    const argv = (cmd: string) => cmd.match(/'[^']*'|"[^"]*"|\S+/g)!.slice(1).map((w) => w.replace(/^["']|["']$/g, ''));
    expect((await runCli(...argv(e.example!.check!))).out).toMatch(/^legal/);
    expect((await runCli(...argv(e.example!.strictCheck!))).code).toBe(1);
  }, 300_000);

  it('a corpus where players stop early: none is inferred (decisive) and nothing is disfavoured; under micro-move, micro-move is favoured', async () => {
    const none = maximum(await infer(await corpus('none.ndjson', ['maximum=none'], 40, 'ev-none'), '--dialect', 'reference', '--option', 'maximum'));
    expect(none).toMatchObject({ inferred: 'none', favoured: ['none'], evidence: [] });
    const micro = maximum(await infer(await corpus('micro.ndjson', ['maximum=micro-move'], 40, 'ev-micro'), '--dialect', 'reference', '--option', 'maximum'));
    expect(micro.favoured).toContain('micro-move');
    expect(micro.evidence.map((e) => e.value)).not.toContain('micro-move');
  }, 300_000);

  it('the cube: on the dicechess.com samples either is disfavoured by redoubles never made; a corpus where anyone doubles infers either; declineLoses counts only the ingest-wire final stakes, which decide nothing', async () => {
    const doc = await infer('corpora/samples/dicechess-com', '--dialect', 'dicechess-com', '--option', 'cube.ownership', '--option', 'cube.cap', '--option', 'cube.declineLoses');
    const [ownership, cap, decline] = ['cube.ownership', 'cube.cap', 'cube.declineLoses'].map((p) => doc.options.find((o) => o.path === p)!);
    expect(ownership).toMatchObject({ inferred: null, opportunitiesCounted: 'cube', favoured: ['centered-last-taker'] });
    expect(ownership.evidence.map((e) => [e.value, e.rival])).toEqual([['either', 'centered-last-taker']]);
    expect(ownership.evidence[0].example).toMatchObject({ kind: 'cube', check: null });
    expect(ownership.evidence[0].example!.allowed).toMatch(/^a double to \d+ offered by (white|black), who does not own the cube/);
    expect(ownership.favouredSentence).toMatch(/`either` is disfavoured against `centered-last-taker`: at [\d,]+ turn starts it let the side to move offer a double `centered-last-taker` refuses and no player offered one/);
    // The cap is counted (a number, not null), however few the chances.
    expect(cap.opportunitiesCounted).toBe('cube');
    expect(cap.values.every((v) => typeof v.opportunities.total === 'number')).toBe(true);
    // Only the ingest-wire games' final stakes are a place for the cost (state maps' and CSV rows' are not); the generator writes the cube's stake there, so they decide nothing.
    expect(decline).toMatchObject({ inferred: null, opportunitiesCounted: 'decline', favoured: ['pre-offer-stake', 'post-offer-stake'], evidence: [] });
    expect(decline.values.map((v) => v.opportunities.total)).toEqual([expect.any(Number), 0]);
    expect(decline.values[0].opportunities.total).toBeGreaterThan(0);
    const either = await corpus('either.ndjson', ['cube.ownership=either'], 60, 'ev-either', 'dicechess-com', { ...DEFAULT_RATES, x2: 1, double: 0.2 });
    const own = (await infer(either, '--dialect', 'dicechess-com', '--option', 'cube.ownership')).options[0];
    expect(own).toMatchObject({ inferred: 'either', favoured: ['either'], evidence: [] });
  }, 300_000);

  it('dice.draw: rolls held to revealed seeds favour provably-fair; BrainKing rolls that never show a type that cannot move favour movable-types; fair dice without a reveal cannot be judged', async () => {
    const draw = (doc: InferDocument): OptionDoc => doc.options.find((o) => o.path === 'dice.draw')!;
    const seeded = draw(await infer('corpora/samples/reference/games.history.ndjson.gz', '--dialect', 'reference', '--option', 'dice.draw'));
    expect(seeded).toMatchObject({ inferred: null, opportunitiesCounted: 'roll', favoured: ['provably-fair'] });
    expect(seeded.evidence.map((e) => [e.value, e.rival])).toEqual([['fair', 'provably-fair']]);
    expect(seeded.evidence[0].example).toMatchObject({ kind: 'roll', check: null });
    expect(seeded.favouredSentence).toMatch(/`fair` is disfavoured against `provably-fair`: at [\d,]+ rolls it allowed another roll than the revealed seeds give/);
    // The dice's freedom, not a player's: each roll in roll order weighs log10 216 (three fair dice giving the seeds' one roll), whatever the take rate.
    const e = seeded.evidence[0];
    expect(seeded.evidenceBasis).toBe('dice-model');
    expect(e.basis).toBe('dice-model');
    expect(e.log10LR).toBeCloseTo(e.opportunities * 2.334454, 1);
    expect(e.log10LRPerGame).toBeCloseTo(e.games * 2.334454, 1);
    expect(seeded.favouredSentence).toContain('a fact of the dice model, not a take rate');
    expect(seeded.favouredSentence).not.toMatch(/at a [\d.]+ % take rate/);
    const highRate = draw(await infer('corpora/samples/reference/games.history.ndjson.gz', '--dialect', 'reference', '--option', 'dice.draw', '--take-rate', '0.5'));
    expect(highRate.evidence[0].log10LR).toBe(e.log10LR);
    const one = draw(await infer('corpora/samples/brainking-one-die', '--dialect', 'brainking-one-die', '--option', 'dice.draw'));
    expect(one).toMatchObject({ inferred: null, favoured: ['movable-types'] });
    expect(one.evidence.map((e) => e.value).sort()).toEqual(['fair', 'provably-fair']);
    expect(one.evidence[0].example!.allowed).toMatch(/a piece type that cannot move/);
    // Against fair dice each roll weighs log10(6 / m), m the types that can move (1 to 5): between log10 1.2 and log10 6 a roll.
    const vsFair = one.evidence.find((x) => x.value === 'fair')!;
    expect(vsFair.log10LR).toBeGreaterThanOrEqual(vsFair.opportunities * Math.log10(6 / 5) - 0.01);
    expect(vsFair.log10LR).toBeLessThanOrEqual(vsFair.opportunities * Math.log10(6) + 0.01);
    // Beturanga's samples carry no reveal and roll three dice: nothing tells fair from seeded dice.
    const fair = draw(await infer('corpora/samples/beturanga', '--dialect', 'beturanga', '--option', 'dice.draw'));
    expect(fair).toMatchObject({ inferred: null, favoured: ['fair', 'provably-fair'], evidence: [] });
    expect(fair.values.every((v) => v.opportunities.total === 0)).toBe(true);
    expect(fair.sentence).toContain('is not judgeable: no roll is held to revealed seeds');
  }, 300_000);

  it('draws.agreement: agreed draws decide true on the BrainKing samples; a corpus with no draw offered favours false by absence', async () => {
    const agreement = (doc: InferDocument): OptionDoc => doc.options.find((o) => o.path === 'draws.agreement')!;
    const bk = agreement(await infer('corpora/samples/brainking-one-die', '--dialect', 'brainking-one-die', '--option', 'draws.agreement'));
    expect(bk).toMatchObject({ inferred: true, opportunitiesCounted: 'outcome' });
    const none = await corpus('no-agreement.ndjson', ['draws.agreement=false'], 60, 'ev-no-agreement', 'brainking-one-die');
    const o = agreement(await infer(none, '--dialect', 'brainking-one-die', '--option', 'draws.agreement'));
    expect(o).toMatchObject({ inferred: null, favoured: [false] });
    expect(o.evidence.map((e) => [e.value, e.rival])).toEqual([[true, false]]);
    expect(o.evidence[0].example).toMatchObject({ kind: 'outcome' });
    expect(o.evidence[0].example!.allowed).toContain('draw_agreement draw');
  }, 300_000);

  it("cube.declineLoses: a history list's moneyDelta for the decliner or the winner decides it on the state maps; without one, nothing can", async () => {
    const maps = 'corpora/samples/dicechess-com/games.state-maps.ndjson.gz';
    const declined = records(await collect([maps])).flatMap((r) => {
      const d = declineCosts(r);
      return d ? [{ id: r.id, ...d }] : [];
    });
    expect(declined.length).toBeGreaterThan(2);
    // The rows a fetch of the decliners' (or the winners') history would hold: the figures are this test's, not the generator's.
    const list = (value: 'pre-offer-stake' | 'post-offer-stake', seenBy: 'decliner' | 'winner'): string => {
      const file = join(dir, `history-${value}-${seenBy}.json`);
      const rows = declined.map((g) => {
        const side = seenBy === 'decliner' ? g.decliner : g.decliner === 'w' ? 'b' : 'w';
        return { gameId: g.id, color: side === 'w' ? 'WHITE' : 'BLACK', allowDoubling: true, result: seenBy === 'decliner' ? 'LOSS' : 'WIN', currency: 'GOLD', moneyDelta: (seenBy === 'decliner' ? -1 : 1) * g.costs[value] };
      });
      writeFileSync(file, JSON.stringify(rows));
      return file;
    };
    const decline = async (...args: string[]): Promise<OptionDoc> => (await infer(maps, '--dialect', 'dicechess-com', '--option', 'cube.declineLoses', ...args)).options[0];
    const none = await decline();
    expect(none).toMatchObject({ inferred: null, opportunitiesCounted: 'decline' });
    expect(none.values.every((v) => v.opportunities.total === 0)).toBe(true);
    expect(none.sentence).toContain('is not judgeable: no game ending in a declined double states what it cost');
    expect(await decline('--history-list', list('pre-offer-stake', 'decliner'))).toMatchObject({ inferred: 'pre-offer-stake', verdict: 'supported' });
    const post = await decline('--history-list', list('post-offer-stake', 'winner'));
    expect(post).toMatchObject({ inferred: 'post-offer-stake', verdict: 'contradicted' });
    expect(post.values.find((v) => v.value === 'pre-offer-stake')!.rules).toEqual({ 'cube.decline-cost': declined.length });
  }, 300_000);

  it('a folder mixing a path corpus and a none corpus is mixed, per file and per month, naming them', async () => {
    const mixed = join(dir, 'mixed');
    mkdirSync(mixed);
    await corpus('mixed/site-path.ndjson', [], 40, 'ev-path');
    const b = await corpus('mixed/site-none.ndjson', ['maximum=none'], 30, 'ev-none2');
    // The second site's games started two months later.
    writeFileSync(b, readFileSync(b, 'utf8').replace(/"startedAt":"2026-01-/g, '"startedAt":"2026-03-'));
    const bySource = maximum(await infer(mixed, '--dialect', 'reference', '--option', 'maximum', '--by', 'file'));
    expect(bySource.mixed).toBe(true);
    expect(bySource.mixedWhere.map((f) => f.replace(/.*\//, '')).sort()).toEqual(['site-none.ndjson', 'site-path.ndjson']);
    expect(bySource.groups?.by).toBe('source');
    const pathFile = bySource.groups!.groups.find((g) => g.group.endsWith('site-path.ndjson'))!;
    expect(pathFile.favoured).not.toContain('none');
    expect(bySource.groups!.groups.find((g) => g.group.endsWith('site-none.ndjson'))!.favoured).toEqual(['none']);
    expect(bySource.sentence).toContain('do not all follow one rule');
    const byMonth = maximum(await infer(mixed, '--dialect', 'reference', '--option', 'maximum', '--by', 'month'));
    expect(byMonth.groups?.groups.map((g) => g.group)).toEqual(['2026-01', '2026-03']);
    expect(byMonth.groups?.changes).toEqual([{ month: '2026-03', from: pathFile.favoured, to: ['none'] }]);
    // --write-favoured: a favoured value alone, not decided by any game, goes into the dialect file with its evidence.
    const written = join(dir, 'favoured.json');
    const path = join(mixed, 'site-path.ndjson');
    const fav = maximum(await infer(path, '--dialect', 'reference', '--set', 'maximum=none', '--option', 'maximum=path,none', '--write', written, '--write-favoured'));
    expect(fav).toMatchObject({ inferred: null, favoured: ['path'] });
    const file = JSON.parse(readFileSync(written, 'utf8'));
    expect(file.maximum.value).toBe('path');
    expect(file.maximum.note).toContain('evidence by absence');
    expect(file.maximum.note).toContain(`log10 LR ${fav.evidence[0].log10LR}`);
    expect((await runCli('infer', path, '--dialect', 'reference', '--write-favoured')).code).toBe(2);
    const usage = await runCli('infer', mixed, '--dialect', 'reference', '--by', 'week');
    expect(usage.code).toBe(2);
    expect((await runCli('infer', mixed, '--dialect', 'reference', '--take-rate', '1')).code).toBe(2);
  }, 300_000);
});
