import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { judgeTurn, legalFirstMoves, legalTurns, loadDialect, readRecords, type Dialect } from '../index.js';
import { listDialects, packageRoot } from '../dialects/index.js';
import { makePrng } from '../dice/prng.js';
import { computedFensAfter } from '../records/replay-fens.js';
import type { GameRecord } from '../records/model/game-record.js';
import { TURN_CAP } from './page/analyse.js';
import { formatHash } from './page/hash.js';
import { goHash, launch, skipWithoutChromium, readPanels, watchedPage } from './test-support/browser.js';

const run = promisify(execFile);
const root = packageRoot();
const BIN = join(root, 'bin', 'dice-dialects.js');
const CORPORA = ['reference/games.ndjson.gz', 'wikipedia-two-dice/games.ingest-wire.ndjson.gz', 'brainking-one-die/games.ndjson.gz', 'chess/games.ndjson.gz', 'dicechess-com/games.csv.gz'];
const LETTERS = ' pnbrqk';
const CASES = 200;

interface Case {
  dfen: string;
  turn: string[];
}

/** 200 positions and rolls from the sample games (each dialect's own), with the recorded turn, a shortened one, or a pass typed. */
async function randomCases(): Promise<Case[]> {
  const rng = makePrng('explorer-vs-cli');
  const games: GameRecord[] = [];
  for (const c of CORPORA) {
    let n = 0;
    for await (const item of readRecords([join(root, 'corpora/samples', c)])) {
      if (item.kind === 'record' && item.record.turns.length > 0) games.push(item.record);
      if (++n >= 40) break;
    }
  }
  const out: Case[] = [];
  while (out.length < CASES) {
    const g = rng.pick(games);
    const i = rng.nextInt(g.turns.length);
    const before = i === 0 ? g.startFen : computedFensAfter(g)[i - 1];
    if (before === null) continue;
    const t = g.turns[i];
    const fields = before.trim().split(/\s+/).slice(0, 6);
    fields[1] = t.side;
    const dice = t.dice.map((f) => (t.side === 'w' ? LETTERS[f].toUpperCase() : LETTERS[f])).join('');
    const kind = out.length % 3;
    const turn = kind === 0 ? t.moves : kind === 1 ? t.moves.slice(0, -1) : [];
    out.push({ dfen: dice ? `${fields.join(' ')} ${dice}` : fields.join(' '), turn });
  }
  return out;
}

describe.skipIf(skipWithoutChromium())('the explorer page judges with the CLI code', () => {
  it(`gives the CLI's first micro-moves, number of legal turns and verdicts for ${CASES} random positions and rolls under every dialect`, async () => {
    const dialects = new Map<string, Dialect>();
    for (const { name } of listDialects()) {
      const d = loadDialect(name);
      if (!d.ok) throw new Error(name);
      dialects.set(name, d.value);
    }
    const cases = await randomCases();
    const dir = await mkdtemp(join(tmpdir(), 'dice-explore-random-'));
    const browser = await launch();
    try {
      await run(process.execPath, [BIN, 'explore', '--out', dir]);
      const { page, problems, requests } = await watchedPage(browser);
      const url = pathToFileURL(join(dir, 'index.html')).href;
      await page.goto(url);
      await page.waitForSelector('body[data-ready]');
      const seen = { verdicts: new Set<string>(), playable: 0 };
      for (const [k, c] of cases.entries()) {
        await goHash(page, formatHash({ dfen: c.dfen, turn: c.turn, step: 0, set: '', focus: '' }));
        const panels = await readPanels(page);
        expect(Object.keys(panels).sort(), c.dfen).toEqual([...dialects.keys()].sort());
        for (const [name, d] of dialects) {
          const first = legalFirstMoves(d, c.dfen);
          const turns = legalTurns(d, c.dfen, { limit: TURN_CAP + 1 });
          const v = judgeTurn(d, c.dfen, c.turn);
          const verdict = !v.ok ? v.error.code : v.value.legal ? 'legal' : v.value.rule;
          const count = !turns.ok ? null : turns.value.length > TURN_CAP ? 'capped' : String(turns.value.length);
          expect({ moves: panels[name].moves, verdict: panels[name].verdict, turns: panels[name].turnCount }, `case ${k} ${name} ${c.dfen} ${c.turn.join(',')}`).toEqual({
            moves: first.ok ? first.value : [],
            verdict: first.ok ? verdict : '',
            turns: count,
          });
          if (first.ok) {
            seen.playable++;
            seen.verdicts.add(verdict);
          }
        }
        // The real CLI process for a few of them.
        if (k % 67 === 0) {
          const name = c.dfen.split(' ')[6]?.length === 2 ? 'wikipedia-two-dice' : 'reference';
          const moves = await run(process.execPath, [BIN, 'moves', '--dialect', name, '--dfen', c.dfen, '--json']).then(
            (r) => JSON.parse(r.stdout) as string[],
            () => [],
          );
          expect(panels[name].moves, `cli moves ${name} ${c.dfen}`).toEqual(moves);
          const check = await run(process.execPath, [BIN, 'check', '--dialect', name, '--dfen', c.dfen, '--turn', c.turn.join(',') || 'pass', '--json']).then(
            (r) => r.stdout,
            (e: { stdout: string; code: number }) => (e.code === 1 ? e.stdout : ''),
          );
          const cli = check === '' ? '' : (JSON.parse(check) as { legal: boolean; rule?: string });
          expect(panels[name].verdict, `cli check ${name} ${c.dfen}`).toBe(cli === '' ? '' : cli.legal ? 'legal' : cli.rule);
        }
      }
      // The sample is not degenerate: many playable columns, legal turns and several rule ids.
      expect(seen.playable).toBeGreaterThan(CASES);
      expect(seen.verdicts.has('legal')).toBe(true);
      expect(seen.verdicts.size).toBeGreaterThan(3);
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
    } finally {
      await browser.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
