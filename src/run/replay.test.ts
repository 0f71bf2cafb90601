import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSan, STANDARD_FEN, parseDfen, legalMoves, makeUci, type Move } from '../core/index.js';
import { loadDialect, packageRoot } from '../dialects/index.js';
import { parseAnswerKey } from '../generate/answer-key.js';
import { scoreResults } from '../generate/score.js';
import type { GameRecord } from '../records/index.js';
import { GameResultLine } from '../replay/result.js';
import { runReplay } from './replay.js';
import { tempDir } from '../test-support/temp-dir.js';

const root = packageRoot();
const tmp = () => tempDir('replay-');
const dialect = (name: string, ...overrides: string[]) => {
  const d = loadDialect(name, overrides);
  if (!d.ok) throw new Error(name);
  return { dialect: d.value, overrides };
};
const lines = (dir: string): GameResultLine[] =>
  readFileSync(join(dir, 'results.ndjson'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => GameResultLine.parse(JSON.parse(l)));

describe('planted divergences: the replayer finds every one, and nothing else', () => {
  for (const [corpus, key] of [
    ['planted/reference.history.ndjson.gz', 'reference.history.key.json'],
    ['planted/dicechess-com.state-maps.ndjson.gz', 'dicechess-com.state-maps.key.json'],
  ]) {
    it(`${corpus}: recall and precision 100 % per rule`, async () => {
      const parsed = parseAnswerKey(readFileSync(join(root, 'corpora/keys', key), 'utf8'));
      if (!parsed.ok) throw new Error(parsed.message);
      const out = join(tmp(), 'run');
      await runReplay({ sources: [join(root, 'corpora/samples', corpus)], dialects: [dialect(parsed.key.dialect)], out, jobs: 1 });
      const report = await scoreResults(parsed.key, lines(out));
      expect(report.mismatches).toEqual([]);
      expect(report.perfect).toBe(true);
      expect(report.planted).toBeGreaterThan(50);
    });
  }
});

describe('every record is accounted for', () => {
  it('good, malformed, truncated-gzip and missing sources: lines = conforming + diverging + unreadable', async () => {
    const dir = tmp();
    const good = readFileSync(join(root, 'corpora/samples/reference/games.ingest-wire.ndjson.gz'));
    writeFileSync(join(dir, 'a-good.ndjson.gz'), good);
    const firstLine = gunzipSync(good).toString('utf8').split('\n')[0];
    writeFileSync(join(dir, 'b-bad.ndjson'), `${firstLine}\nnot json at all\n`);
    writeFileSync(join(dir, 'c-truncated.ndjson.gz'), good.subarray(0, Math.floor(good.length / 2)));
    const out = join(tmp(), 'run');
    const r = await runReplay({ sources: [dir, join(dir, 'no-such-file.ndjson')], dialects: [dialect('reference'), dialect('chess')], out, jobs: 1 });
    const t = r.summary.totals;
    expect(t.lines).toBe(t.conforming + t.diverging + t.unreadable);
    expect(t.lines).toBe(2 * r.progress.records);
    expect(r.sourceErrors).toBe(1);
    const results = lines(out);
    const codes = new Set(results.filter((l) => l.status === 'unreadable').map((l) => l.findings[0].rule));
    expect(codes).toEqual(new Set(['record.bad-json', 'record.truncated-gzip', 'record.io']));
    // Input order, each record under each dialect in turn.
    expect(results.map((l) => l.index)).toEqual([...results.map((l) => l.index)].sort((a, b) => a - b));
  });

  it('reads gzip NDJSON from a loopback HTTP server', async () => {
    const body = readFileSync(join(root, 'corpora/samples/wikipedia-two-dice/games.ingest-wire.ndjson.gz'));
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/gzip' });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const out = join(tmp(), 'run');
      const r = await runReplay({ sources: [`http://127.0.0.1:${port}/games.ndjson.gz`], dialects: [dialect('wikipedia-two-dice')], out, jobs: 1 });
      expect(r.progress.records).toBe(200);
      expect(r.summary.totals.unreadable).toBe(0);
      expect(r.summary.totals.conforming).toBe(200);
    } finally {
      server.close();
    }
  });

});

describe('reports', () => {
  it('are deterministic: two runs give the same results and the same summary outside run_info', async () => {
    const sources = [join(root, 'corpora/samples/planted/reference.history.ndjson.gz'), join(root, 'corpora/samples/chess/book.tsv')];
    const a = join(tmp(), 'a');
    const b = join(tmp(), 'b');
    const ra = await runReplay({ sources, dialects: [dialect('reference'), dialect('chess')], out: a, jobs: 1 });
    const rb = await runReplay({ sources, dialects: [dialect('reference'), dialect('chess')], out: b, jobs: 1 });
    expect(readFileSync(join(a, 'results.ndjson'), 'utf8')).toBe(readFileSync(join(b, 'results.ndjson'), 'utf8'));
    const strip = (s: typeof ra.summary) => JSON.stringify({ ...s, runInfo: null, run_info: null });
    expect(strip(ra.summary)).toBe(strip(rb.summary));
    expect(readFileSync(join(a, 'report.md'), 'utf8').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z|\d+(\.\d+)? ?(ms|s)\b/g, '')).toBe(
      readFileSync(join(b, 'report.md'), 'utf8').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z|\d+(\.\d+)? ?(ms|s)\b/g, ''),
    );
  });

  it('worker threads give the same results as the in-process path (CLI, built code)', () => {
    const source = join(root, 'corpora/samples/dicechess-com/games.state-maps.ndjson.gz');
    const run = (jobs: number) => {
      const out = join(tmp(), `j${jobs}`);
      execFileSync('node', [join(root, 'bin/dice-dialects.js'), 'replay', source, '--dialect', 'dicechess-com', '--dialect', 'reference', '--out', out, '--jobs', String(jobs), '--force-jobs', '--quiet']);
      return readFileSync(join(out, 'results.ndjson'), 'utf8');
    };
    expect(run(2)).toBe(run(1));
  });
});

describe('command line', () => {
  const cli = (...args: string[]) => spawnSync('node', [join(root, 'bin/dice-dialects.js'), ...args], { encoding: 'utf8' });
  it('exit 0 with divergences, 1 with --fail-on diverging, 2 on a missing source or an unknown dialect', () => {
    const source = join(root, 'corpora/samples/planted/reference.history.ndjson.gz');
    expect(cli('replay', source, '--dialect', 'reference', '--out', join(tmp(), 'r'), '--quiet').status).toBe(0);
    expect(cli('replay', source, '--dialect', 'reference', '--out', join(tmp(), 'r'), '--quiet', '--fail-on', 'diverging').status).toBe(1);
    expect(cli('replay', join(tmp(), 'nothing-here.ndjson'), '--dialect', 'reference', '--out', join(tmp(), 'r'), '--quiet').status).toBe(2);
    const bad = cli('replay', source, '--dialect', 'no-such-dialect', '--out', join(tmp(), 'r'));
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
  it('--continue-after-divergence records more than the first divergence of a game', async () => {
    const source = join(root, 'corpora/samples/reference/games.ingest-wire.ndjson.gz');
    const first = join(tmp(), 'first');
    const all = join(tmp(), 'all');
    // Under one die, every three-dice game diverges on every turn.
    await runReplay({ sources: [source], dialects: [dialect('brainking-one-die')], out: first, jobs: 1, limit: 5 });
    await runReplay({ sources: [source], dialects: [dialect('brainking-one-die')], out: all, jobs: 1, limit: 5, continueAfterDivergence: true });
    for (const l of lines(first)) expect(l.findings).toHaveLength(1);
    const more = lines(all);
    expect(more.every((l) => l.findings.length > 1)).toBe(true);
    expect(more.map((l) => l.findings[0])).toEqual(lines(first).map((l) => l.findings[0]));
  });
});

describe('findings are in the order they occur', () => {
  it('negotiation findings interleave with turn findings by turn and micro-move (dicechess.com games under reference)', async () => {
    const out = join(tmp(), 'order');
    await runReplay({ sources: [join(root, 'corpora/samples/dicechess-com/games.ingest-wire.ndjson.gz')], dialects: [dialect('reference')], out, jobs: 1, continueAfterDivergence: true });
    const results = lines(out);
    const position = (f: { turn: number | null; microMove: number | null }) => [f.turn ?? 0, f.microMove ?? -1];
    for (const l of results) {
      const keys = l.findings.map(position);
      for (let i = 1; i < keys.length; i++) {
        const [t0, m0] = keys[i - 1];
        const [t1, m1] = keys[i];
        expect(t0 < t1 || (t0 === t1 && m0 <= m1) || l.findings[i].rule.startsWith('end.'), `${l.id}: ${JSON.stringify(keys)}`).toBe(true);
      }
    }
    expect(results.some((l) => l.findings.some((f) => f.rule === 'draw.offer-not-allowed' || f.rule === 'cube.not-allowed'))).toBe(true);
  });
});

describe('docs/rules.md §10.3 sample game through the replayer (wikipedia-two-dice)', () => {
  // The seed gives the moves in SAN and most rolls; where it gives none we chose:
  // 1.e4 on double pawns (1,1), and White's 4th and 5th rolls are the stated 2 and 4.
  const san = ['e4', 'Nc6', 'Bc4', 'Rb8', 'Bxf7+', null, 'Nh3', null, 'Ng5#'];
  const dice = [[1, 1], [2, 3], [3, 4], [4, 5], [3, 6], [2, 4], [2, 4], [1, 3], [2, 4]];
  const toRecord = (id: string, sans: Array<string | null>, rolls: number[][], result: GameRecord['result'], termination: GameRecord['termination']) => {
    const p = parseDfen(STANDARD_FEN);
    if (!p.ok) throw new Error('fen');
    const pos = p.value.pos;
    const turns = sans.map((s, i) => {
      const side = i % 2 === 0 ? 'w' : 'b';
      let moves: string[] = [];
      if (s !== null) {
        const candidates: Move[] = legalMoves(pos);
        const m = parseSan(pos, s, candidates);
        if (!m.ok) throw new Error(`${s}: ${m.error.message}`);
        moves = [makeUci(m.value)];
        pos.make(m.value);
      }
      pos.endTurn();
      return { turn_number: i + 1, active_color: side, dice: rolls[i], moves };
    });
    return JSON.stringify({ id, source: 'wikipedia', mode: 'classic', result, termination, initial_fen: STANDARD_FEN, white_player: { external_id: 'w' }, black_player: { external_id: 'b' }, turns, events: [] });
  };

  it('ends in White checkmating; Bxe8 on a 3 at White’s 4th turn captures the king; the reference dialect disagrees', async () => {
    const dir = tmp();
    const mate = toRecord('seed-002-mate', san, dice, 1 as never, 'checkmate');
    const capture = toRecord('seed-002-bxe8', [...san.slice(0, 6), 'Bxe8'], [...dice.slice(0, 6), [3, 4]], 1 as never, 'king_captured');
    writeFileSync(join(dir, 'games.ndjson'), `${mate}\n${capture}\n`);
    const out = join(tmp(), 'run');
    await runReplay({ sources: [join(dir, 'games.ndjson')], dialects: [dialect('wikipedia-two-dice'), dialect('reference')], out, jobs: 1 });
    const results = lines(out);
    const wiki = results.filter((l) => l.dialect === 'wikipedia-two-dice');
    expect(wiki.map((l) => [l.id, l.status])).toEqual([
      ['seed-002-mate', 'conforming'],
      ['seed-002-bxe8', 'conforming'],
    ]);
    const ref = results.filter((l) => l.dialect === 'reference');
    expect(ref.every((l) => l.status === 'diverging' && l.findings[0].rule === 'dice.count')).toBe(true);
  });

  it('a checkmate recorded as a resignation is a result mismatch', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'g.ndjson'), `${toRecord('seed-002-resign', san, dice, 1 as never, 'resign')}\n`);
    const out = join(tmp(), 'run');
    await runReplay({ sources: [join(dir, 'g.ndjson')], dialects: [dialect('wikipedia-two-dice')], out, jobs: 1 });
    expect(lines(out)[0].findings[0].rule).toBe('end.result-mismatch');
  });
});
