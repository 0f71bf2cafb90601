import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/test-support/run-cli.js';
import { type Dialect, loadDialect } from '../dialects/index.js';
import { positionAfter } from '../dialects/turns.js';
import type { GameResultLine } from '../replay/result.js';
import { Summary } from '../report/summary-schema.js';
import { tempDir } from '../test-support/temp-dir.js';

/** A command line as a shell splits the ones the reports write (report/escape.ts shellQuote: bare, "…" or '…'). */
function shellWords(command: string): string[] {
  return [...command.matchAll(/'((?:[^']|'\\'')*)'|"([^"]*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : (m[2] ?? m[3])));
}

/** Replays `args` into a fresh run folder; its summary (and the folder, as `out`). */
async function run(...args: string[]): Promise<Summary & { out: string }> {
  const out = join(tempDir('dice-repro-'), 'run');
  const r = await runCli('replay', ...args, '--jobs', '1', '--quiet', '--out', out);
  expect(r.code, r.err).toBe(0);
  return { ...Summary.parse(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))), out };
}

/** Runs each example's command as `check`; the examples with one, and those with none. */
async function checkAll(s: Summary): Promise<{ shown: string[]; none: string[] }> {
  const shown: string[] = [];
  const none: string[] = [];
  for (const e of s.examples) {
    expect(e.reproduce, `${e.dialect} ${e.rule}: every example says`).not.toBeUndefined();
    if (typeof e.reproduce !== 'string') {
      none.push(e.rule);
      continue;
    }
    const [tool, ...argv] = shellWords(e.reproduce);
    expect(tool).toBe('dice-dialects');
    const r = await runCli(...argv);
    expect({ code: r.code, out: r.out.split(' ')[0] }, e.reproduce).toEqual({ code: 1, out: e.rule });
    shown.push(e.rule);
  }
  return { shown, none };
}

describe("a run's reproductions", () => {
  it('each check command a report gives finds the rule of its finding; a finding no command shows gets none', async () => {
    const s = await run('corpora/samples', '--all-dialects');
    const { shown, none } = await checkAll(s);
    // A finding past its turn's first micro-move keeps the turn's start: its micro-moves so far lead from there to its DFEN.
    const dialects = new Map<string, Dialect>();
    let mid = 0;
    for (const text of readFileSync(join(s.out, 'results.ndjson'), 'utf8').trim().split('\n')) {
      const line = JSON.parse(text) as GameResultLine;
      for (const f of line.findings) {
        expect(f.turnDfen !== undefined, `${line.id} ${f.rule}`).toBe(f.microMove !== null && f.microMove > 0 && f.dfen !== null);
        if (f.turnDfen === undefined) continue;
        if (!dialects.has(line.dialect)) {
          const loaded = loadDialect(line.dialect);
          if (!loaded.ok) throw new Error(JSON.stringify(loaded.error));
          dialects.set(line.dialect, loaded.value);
        }
        expect(positionAfter(dialects.get(line.dialect)!, f.turnDfen, f.recorded.slice(0, f.microMove!)), `${line.id} ${f.rule}`).toEqual({ ok: true, value: f.dfen });
        mid++;
      }
    }
    expect(mid).toBeGreaterThan(100);
    expect(shown.length).toBeGreaterThanOrEqual(20);
    // A turn that stops with dice unspent is judged from its start: from where it stopped it would be a pass.
    expect(shown).toContain('maximum.fewer-dice');
    expect(none).not.toContain('maximum.fewer-dice');
    // Rules about a game's end, its dice or its record have no turn to judge from a position.
    for (const rule of ['end.result-mismatch', 'start.position', 'dice.count', 'dice.allowed-flag']) {
      expect(shown, rule).not.toContain(rule);
      expect(none, rule).toContain(rule);
    }
  }, 120_000);

  it('with --set, the command carries it, and still finds the rule', async () => {
    const s = await run('corpora/samples', '--dialect', 'reference', '--set', 'castling.dice=king');
    const { shown } = await checkAll(s);
    // castling.dice is the override's own rule: without the --set the command would not find it.
    expect(shown).toContain('castling.dice');
    for (const e of s.examples) if (typeof e.reproduce === 'string') expect(e.reproduce).toContain(' --set castling.dice=king ');
  }, 120_000);

  it('a rule about the turn so far is shown from the start of the turn, not from the middle of it', async () => {
    // Under first-micro-move, en passant is the turn's first micro-move only: from the DFEN after the first, it is legal.
    const s = await run('corpora/samples/dicechess-com', '--dialect', 'dicechess-com', '--set', 'enPassant.window=first-micro-move');
    const ep = s.examples.find((e) => e.rule === 'en-passant.window');
    expect(ep?.finding.microMove).toBeGreaterThan(0);
    expect(ep?.finding.turnDfen).toMatch(/ [pnbrqk]+$/i);
    expect(ep?.reproduce).toContain(`--dfen "${ep?.finding.turnDfen}" --turn ${ep?.finding.recorded.join(',')}`);
    expect((await checkAll(s)).shown).toContain('en-passant.window');
  }, 120_000);
});
