import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/test-support/run-cli.js';
import { loadDialect } from '../dialects/index.js';
import { DEFAULT_RATES } from '../generate/self-play.js';
import { generateCorpus } from '../generate/run.js';
import type { FormatName } from '../records/model/game-record.js';
import type { InferDocument, OptionDoc } from './document.js';
import { valueText } from './options.js';

const dir = mkdtempSync(join(tmpdir(), 'dd-infer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A generated corpus: `games` self-played games of `dialect` with `sets` applied. */
async function corpus(name: string, dialect: string, sets: string[], games: number, seed: string, format: FormatName = 'ndjson'): Promise<string> {
  const loaded = loadDialect(dialect, sets);
  if (!loaded.ok) throw new Error(loaded.error[0].message);
  const out = join(dir, name);
  await generateCorpus({ dialect: loaded.value, overrides: sets, games, seed, format, out, bots: ['random', 'greedy'], rates: DEFAULT_RATES, inject: [], jobs: 1 });
  return out;
}

async function infer(...args: string[]): Promise<InferDocument> {
  const r = await runCli('infer', ...args, '--json', '--jobs', '1');
  expect(r.err).not.toMatch(/Error|at .*\.ts/);
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as InferDocument;
}

const option = (doc: InferDocument, path: string): OptionDoc => doc.options.find((o) => o.path === path)!;
const value = (o: OptionDoc, v: unknown) => o.values.find((x) => valueText(x.value) === valueText(v))!;

/**
 * A corpus that follows `generated` can only be inferred back through a decisive game:
 * every game conforms under it, so no other value can have a decisive game, and it
 * wins exactly when some game refutes every rival. Otherwise the answer is undecided.
 */
/**
 * The generated value allows every turn its rival does (why: `whyUndecided`), so no game can
 * be decisive: the option is undecided, every game conforms to it, and it stays consistent.
 */
function expectUndecided(doc: InferDocument, path: string, generated: unknown, whyUndecided: string): void {
  const o = option(doc, path);
  const v = value(o, generated);
  expect(v.conforming).toBe(doc.games);
  for (const other of o.values) expect(other.decisive, `${path}=${valueText(other.value)}: ${whyUndecided}`).toBe(0);
  expect(o.inferred, `${path}: no decisive game, so undecided: ${whyUndecided}`).toBeNull();
  expect(o.verdict).toBe('undecided');
  expect(o.consistent).toContainEqual(generated);
}

describe('infer', () => {
  it('infers a non-default value back, reports it, and writes a dialect that loads and replays to the confirmation count', async () => {
    const file = await corpus('pei.ndjson', 'reference', ['clock.passEarnsIncrement=true'], 40, 'pei');
    const out = join(dir, 'pei-run');
    const written = join(dir, 'site-x.json');
    const doc = await infer(file, '--dialect', 'reference', '--option', 'clock.passEarnsIncrement', '--option', 'enPassant.window', '--out', out, '--write', written);
    const o = option(doc, 'clock.passEarnsIncrement');
    expect(o).toMatchObject({ baseValue: false, inferred: true, verdict: 'contradicted', consistent: [true] });
    expect(value(o, true).decisive).toBeGreaterThan(0);
    // Every game conforms under the inferred value: the confirmation pass says so too.
    expect(doc.confirmation).toMatchObject({ judged: true, conforming: 40, set: ['clock.passEarnsIncrement=true'] });
    expect(doc.confirmation.baseConforming).toBe(value(o, false).conforming);
    expect(JSON.parse(readFileSync(join(out, 'infer.json'), 'utf8'))).toEqual(doc);
    // The fields of the issue, by name.
    expect(Object.keys(doc)).toEqual(expect.arrayContaining(['base', 'method', 'games', 'dialects', 'options', 'confirmation']));
    expect(Object.keys(o)).toEqual(expect.arrayContaining(['path', 'baseValue', 'inferred', 'consistent', 'verdict', 'values']));
    expect(Object.keys(o.values[0])).toEqual(expect.arrayContaining(['value', 'conforming', 'diverging', 'decisive', 'opportunities', 'rules', 'example']));
    expect(Object.keys(value(o, true).example!)).toEqual(expect.arrayContaining(['id', 'turn', 'dfen', 'dice', 'recorded', 'check']));
    expect(Object.keys(o.values[0].opportunities)).toEqual(['total', 'byRival', 'gamesByRival']);
    expect(value(o, true).opportunities.byRival.false).toBeGreaterThan(0);

    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('## `clock.passEarnsIncrement`');
    expect(md).toContain('contradicts the base dialect');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<h2 id="clock.passEarnsIncrement">');

    const dialectFile = JSON.parse(readFileSync(written, 'utf8'));
    expect(dialectFile.extends).toBe('reference');
    expect(dialectFile.clock.passEarnsIncrement).toMatchObject({ value: true, source: 'inferred' });
    expect(dialectFile.clock.passEarnsIncrement.note).toContain(doc.corpus.sha256);
    expect(dialectFile.clock.passEarnsIncrement.note).toContain(value(o, true).decisiveGames[0].id);
    expect(dialectFile.enPassant).toBeUndefined();
    expect((await runCli('dialects', '--check', written)).code).toBe(0);
    const replayed = join(dir, 'pei-replay');
    expect((await runCli('replay', file, '--dialect', written, '--out', replayed, '--jobs', '1', '--quiet')).code).toBe(0);
    expect(JSON.parse(readFileSync(join(replayed, 'summary.json'), 'utf8')).totals.conforming).toBe(doc.confirmation.conforming);
  }, 240_000);

  it('a decisive game reproduces with check: legal under the inferred value, the finding under the rival', async () => {
    // The bundled reference sample (played under path): its 96th game has a turn micro-move refuses.
    const doc = await infer('corpora/samples/reference/games.ndjson.gz', '--limit', '100', '--dialect', 'reference', '--option', 'maximum=path,micro-move');
    const o = option(doc, 'maximum');
    expect(o).toMatchObject({ inferred: 'path', verdict: 'supported' });
    const ex = value(o, 'path').decisiveGames[0];
    expect(ex).toMatchObject({ kind: 'decisive', findingValue: 'micro-move', rule: 'maximum.fewer-dice' });
    const argv = (cmd: string) => cmd.match(/'[^']*'|"[^"]*"|\S+/g)!.slice(1).map((w) => w.replace(/^["']|["']$/g, ''));
    expect(ex.check).toContain('--set maximum=path');
    expect((await runCli(...argv(ex.check!))).out).toMatch(/^legal/);
    const rival = await runCli(...argv(ex.rivalCheck!));
    expect(rival.code).toBe(1);
    expect(rival.out).toContain(ex.rule);
      }, 240_000);

  it.each([
    ['enPassant.window', 'reference', 'first-micro-move', 'reply-turn allows every turn first-micro-move allows; only an en passant capture on a later micro-move that would have spent more dice refutes reply-turn'],
    ['draws.castlingCounts', 'reference', 2, 'the counter only decides a game that reaches the hundred-move limit with a castling among the counted moves'],
    ['maximum', 'reference', 'micro-move', 'maximum=none allows every turn micro-move allows, so no game can be decisive for micro-move'],
    ['castling.attacks', 'dicechess-com', 'orthodox', 'ignored allows every castling orthodox allows; a game refutes it only where castling through attack would have spent more dice'],
  ])('%s on %s, a corpus generated with %s, can have no decisive game: undecided, with the rivals\' chances counted', async (path, dialect, generated, why) => {
    const file = await corpus(`gen-${path}.ndjson`, dialect, [`${path}=${valueText(generated)}`], 60, `gen-${path}`);
    const doc = await infer(file, '--dialect', dialect, '--option', path);
    expect(doc.games).toBe(60);
    expectUndecided(doc, path, generated, why);
    // The evidence a reader gets instead: how often the rivals had a chance to show themselves.
    expect(value(option(doc, path), generated).opportunities.total).not.toBeNull();
  }, 240_000);

  it("counts what replay --set O=v counts, value by value, and the named dialects as replay --all-dialects", async () => {
    const file = await corpus('counts.ndjson', 'dicechess-com', ['castling.attacks=orthodox'], 40, 'counts', 'dicechess-com');
    const doc = await infer(file, '--dialect', 'dicechess-com', '--option', 'castling.attacks', '--option', 'maximum', '--option', 'draws.moveCounterLimit');
    for (const o of doc.options) {
      for (const v of o.values) {
        const out = join(dir, `count-${o.path}-${valueText(v.value)}`);
        expect((await runCli('replay', file, '--dialect', 'dicechess-com', '--set', v.set, '--out', out, '--jobs', '1', '--quiet')).code).toBe(0);
        const totals = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).totals;
        expect({ option: v.set, conforming: v.conforming, diverging: v.diverging }).toEqual({ option: v.set, conforming: totals.conforming, diverging: totals.diverging });
      }
    }
    const all = join(dir, 'count-all');
    expect((await runCli('replay', file, '--all-dialects', '--out', all, '--jobs', '1', '--quiet')).code).toBe(0);
    const byDialect = JSON.parse(readFileSync(join(all, 'summary.json'), 'utf8')).byDialect as Record<string, { conforming: number }>;
    for (const d of doc.dialects) expect({ name: d.name, conforming: d.conforming }).toEqual({ name: d.name, conforming: byDialect[d.name].conforming });
    expect(doc.bestDialect?.name).toBe('dicechess-com');
  }, 300_000);

  it('a corpus mixing two sites shows each value and each corpus, and flags the mix', async () => {
    const mixed = join(dir, 'mixed');
    mkdirSync(mixed);
    const a = await corpus('mixed/site-a.ndjson', 'reference', [], 36, 'site-a');
    const b = await corpus('mixed/site-b.ndjson', 'reference', ['clock.passEarnsIncrement=true'], 24, 'site-b');
    const doc = await infer(mixed, '--dialect', 'reference', '--option', 'clock.passEarnsIncrement');
    const o = option(doc, 'clock.passEarnsIncrement');
    const no = value(o, false);
    const yes = value(o, true);
    expect(no.decisive).toBeGreaterThan(0);
    expect(yes.decisive).toBeGreaterThan(0);
    expect(o.mixed).toBe(true);
    expect(o.sentence).toContain('do not all follow one rule');
    // The minority's value is not the answer.
    expect(o.inferred).not.toBe(true);
    const per = (v: typeof no, f: string) => v.byCorpus.find((c) => c.corpus.endsWith(f))!;
    expect(per(no, 'site-a.ndjson').conforming).toBe(36);
    expect(per(yes, 'site-b.ndjson').conforming).toBe(24);
    expect(per(yes, 'site-a.ndjson').decisive).toBe(0);
    expect(per(no, 'site-b.ndjson').decisive).toBe(0);
    void a;
    void b;
  }, 240_000);

  it('counts unreadable records and goes on', async () => {
    const file = await corpus('bad.ndjson', 'reference', [], 12, 'bad');
    appendFileSync(file, '{"not": "a record"\n{broken\n');
    writeFileSync(join(dir, 'truncated.ndjson.gz'), Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00]));
    const doc = await infer(file, join(dir, 'truncated.ndjson.gz'), '--dialect', 'reference', '--option', 'enPassant.window');
    expect(doc.games).toBe(12);
    expect(doc.unreadable).toBeGreaterThanOrEqual(3);
    expect(option(doc, 'enPassant.window').values[0].conforming + option(doc, 'enPassant.window').values[0].diverging).toBe(12);
  }, 240_000);

  it('a corpus of no game: its notes on stderr, a verdict that says so, exit 1, and no dialect file written', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'games.ndjson'), '');
    writeFileSync(join(empty, 'README.md'), '# about these games\n');
    const written = join(dir, 'from-nothing.json');
    const r = await runCli('infer', empty, '--dialect', 'dicechess-com', '--write', written, '--jobs', '1');
    expect(r.code).toBe(1);
    expect(r.out).toBe('no game in the corpus could be judged: no verdict on any option, and no dialect fits or fails\n');
    expect(r.err).toMatch(/note: .*games\.ndjson is empty/);
    expect(r.err).toMatch(/note: .*README\.md .*passed over/);
    expect(r.err).toContain(`nothing was inferred (${written} not written)`);
    expect(existsSync(written)).toBe(false);
  }, 240_000);

  it('usage errors are one line, exit 2; an existing folder that is not an infer run is never replaced', async () => {
    const file = await corpus('usage.ndjson', 'reference', [], 3, 'usage');
    const unknown = await runCli('infer', file, '--dialect', 'reference', '--option', 'enPassant.windows');
    expect(unknown.code).toBe(2);
    expect(unknown.err.trim().split('\n')).toHaveLength(1);
    const theirs = join(dir, 'theirs');
    mkdirSync(theirs);
    writeFileSync(join(theirs, 'notes.txt'), 'mine');
    const refused = await runCli('infer', file, '--dialect', 'reference', '--out', theirs);
    expect(refused.code).toBe(2);
    expect(readFileSync(join(theirs, 'notes.txt'), 'utf8')).toBe('mine');
    const mine = join(dir, 'mine.json');
    writeFileSync(mine, '{"name": "mine"}');
    expect((await runCli('infer', file, '--dialect', 'reference', '--write', mine)).code).toBe(2);
    expect(existsSync(join(dir, 'mine.json'))).toBe(true);
  }, 120_000);
});
