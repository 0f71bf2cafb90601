import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../cli/main.js';
import type { Finding, GameResultLine } from '../replay/result.js';
import { tempDir } from '../test-support/temp-dir.js';
import { anythingBroke, classify, diffRuns, renderDiffMarkdown } from './diff.js';
import { openRunDir } from '../run/run-dir.js';
import { RunAccumulator as SummaryBuilder } from '../run/accumulator.js';
import { RUN_INFO } from './test-support/fixtures.js';
import { ResultFolding } from '../run/fold.js';

const f = (rule: string): Finding => ({ rule, turn: 1, microMove: 0, dfen: null, dice: null, recorded: [], allowed: [], message: rule, location: null });

function line(id: string, dialect: string, index: number, status: GameResultLine['status'], rule?: string): GameResultLine {
  return { id, dialect, index, status, findings: rule ? [f(rule)] : [], source: 'corpus.ndjson', turns: 10 };
}

/** Writes a real run folder through openRunDir, as the replayer does. */
async function writeRun(dir: string, lines: GameResultLine[]): Promise<void> {
  const run = await openRunDir(dir);
  const b = new SummaryBuilder(['reference', 'dicechess-com']);
  for (const l of lines) {
    run.resultsStream.write(`${JSON.stringify(l)}\n`);
    b.addResult(l);
  }
  await run.finish(b.build(RUN_INFO));
}

const RUN_A = [
  line('same', 'reference', 0, 'conforming'),
  line('same-div', 'reference', 1, 'diverging', 'maximum.fewer-dice'),
  line('fix-me', 'reference', 2, 'diverging', 'dice.piece-not-rolled'),
  line('fix-read', 'reference', 3, 'unreadable', 'record.bad-fen'),
  line('break-me', 'reference', 4, 'conforming'),
  line('break-me', 'dicechess-com', 4, 'conforming'),
  line('worse-read', 'reference', 5, 'diverging', 'maximum.fewer-dice'),
  line('reclass', 'reference', 6, 'diverging', 'maximum.fewer-dice'),
  line('<b>gone</b>', 'reference', 7, 'conforming'),
];
const RUN_B = [
  line('same', 'reference', 0, 'conforming'),
  line('same-div', 'reference', 1, 'diverging', 'maximum.fewer-dice'),
  line('fix-me', 'reference', 2, 'conforming'),
  line('fix-read', 'reference', 3, 'conforming'),
  line('break-me', 'reference', 4, 'diverging', 'end.result-mismatch'),
  line('break-me', 'dicechess-com', 4, 'conforming'),
  line('worse-read', 'reference', 5, 'unreadable', 'record.bad-uci'),
  line('reclass', 'reference', 6, 'diverging', 'dice.piece-not-rolled'),
  line('brand-new', 'dicechess-com', 8, 'diverging', 'maximum.fewer-dice'),
];

async function runs(b = RUN_B) {
  const root = tempDir('dice-diff-');
  await writeRun(join(root, 'a'), RUN_A);
  await writeRun(join(root, 'b'), b);
  return root;
}

describe('diffRuns', () => {
  it('sorts every record into one of the five categories', async () => {
    const root = await runs();
    const d = await diffRuns(join(root, 'a'), join(root, 'b'));
    const ids = (list: typeof d.fixed) => list.map((e) => `${e.id}/${e.dialect}`);
    expect(ids(d.fixed)).toEqual(['fix-me/reference', 'fix-read/reference']);
    expect(ids(d.broken)).toEqual(['break-me/reference', 'worse-read/reference']);
    expect(ids(d.reclassified)).toEqual(['reclass/reference']);
    expect(ids(d.new)).toEqual(['brand-new/dicechess-com']);
    expect(ids(d.gone)).toEqual(['<b>gone</b>/reference']);
    expect(d.unchanged).toBe(3);
    expect(d.broken[0].before).toEqual({ status: 'conforming', rule: null, index: 4 });
    expect(d.broken[0].after).toEqual({ status: 'diverging', rule: 'end.result-mismatch', index: 4 });
    expect(d.reclassified[0].before?.rule).toBe('maximum.fewer-dice');
    expect(d.reclassified[0].after?.rule).toBe('dice.piece-not-rolled');
  });

  it('renders a Markdown table of counts and the lists', async () => {
    const root = await runs();
    const md = renderDiffMarkdown(await diffRuns(join(root, 'a'), join(root, 'b')));
    expect(md).toContain('**2 record(s) broke.**');
    expect(md).toContain('**2 record(s) now pass that used to fail**');
    expect(md).toContain('| broken | 2 |\n| fixed | 2 |\n| reclassified | 1 |\n| new | 1 |\n| gone | 1 |\n| unchanged | 3 |');
    expect(md).toContain('| `reference` | `break-me` | `corpus.ndjson` | conforming | diverging `end.result-mismatch` |');
    expect(md).toContain('## Gone (1)');
    expect(md).toContain('`<b>gone</b>`');
  });

  it('accepts a results.ndjson path in place of its folder', async () => {
    const root = await runs();
    const d = await diffRuns(join(root, 'a', 'results.ndjson'), join(root, 'b'));
    expect(d.broken).toHaveLength(2);
  });

  it('classifies status pairs', () => {
    const s = (status: GameResultLine['status'], rule: string | null = null) => ({ status, rule, index: 0 });
    expect(classify(s('conforming'), s('conforming'))).toBe('unchanged');
    expect(classify(s('unreadable', 'record.bad-fen'), s('diverging', 'maximum.fewer-dice'))).toBe('reclassified');
    expect(classify(s('unreadable', 'record.bad-fen'), s('unreadable', 'record.bad-fen'))).toBe('unchanged');
    expect(classify(s('unreadable', 'record.bad-fen'), s('unreadable', 'record.bad-uci'))).toBe('reclassified');
  });
});

/** Lines as a run writes them: the run's own folding (ten of a kind in full, the rest one line with their count). */
function folded(lines: GameResultLine[]): GameResultLine[] {
  const folding = new ResultFolding();
  const kept = lines.filter((l) => l.status !== 'unreadable' || folding.admit(l));
  return [...kept, ...folding.closingText().trim().split('\n').filter(Boolean).map((t) => JSON.parse(t) as GameResultLine)];
}

const fault = (i: number, status: GameResultLine['status']) =>
  status === 'unreadable'
    ? { ...line(`fault-${i}`, 'reference', 10 + i, 'unreadable'), turns: null, findings: [{ ...f('record.missing-field'), message: 'field "turns" is missing', location: `corpus.ndjson:${11 + i}` }] }
    : line(`fault-${i}`, 'reference', 10 + i, status);
const faults = (n: number, status: GameResultLine['status'], from = 0) => Array.from({ length: n - from }, (_, k) => fault(from + k, status));

describe('diffRuns: records one run folded', () => {
  async function diffOf(a: GameResultLine[], b: GameResultLine[]) {
    const root = tempDir('dice-diff-');
    await writeRun(join(root, 'a'), folded(a));
    await writeRun(join(root, 'b'), folded(b));
    return diffRuns(join(root, 'a'), join(root, 'b'));
  }

  it('a fix of a folded fault is fixed, record by record: nothing gone, nothing new', async () => {
    const d = await diffOf(faults(25, 'unreadable'), faults(25, 'conforming'));
    expect(d.fixed.map((e) => e.id)).toEqual(faults(25, 'conforming').map((l) => l.id));
    expect(d.fixed.filter((e) => e.before?.folded === 'corpus.ndjson#repeated-1')).toHaveLength(15);
    expect([d.gone, d.new, d.broken]).toEqual([[], [], []]);
    expect(anythingBroke(d)).toBe(false);
    const md = renderDiffMarkdown(d);
    expect(md).toContain('| fixed | 25 |\n| reclassified | 0 |\n| new | 0 |\n| gone | 0 |');
    expect(md).toContain('| `reference` | `fault-24` | `corpus.ndjson` | unreadable `record.missing-field` (counted in the folded line `corpus.ndjson#repeated-1`) | conforming |');
  });

  it('a fault that comes back folded is broken, record by record, --allow-gone or not', async () => {
    const d = await diffOf(faults(25, 'conforming'), faults(25, 'unreadable'));
    expect(d.broken).toHaveLength(25);
    expect([d.gone, d.new]).toEqual([[], []]);
    expect(anythingBroke(d, { allowGone: true })).toBe(true);
  });

  it('folds with other counts: what both count is unchanged, the rest pairs with the records written one by one, what is left is gone or new with its count', async () => {
    // A: 40 unreadable (30 folded). B: the first 15 read, the other 25 still unreadable (15 folded under the same id).
    let d = await diffOf(faults(40, 'unreadable'), [...faults(15, 'conforming'), ...faults(40, 'unreadable', 15)]);
    expect(d.fixed).toHaveLength(15);
    expect([d.gone, d.new, d.broken]).toEqual([[], [], []]);
    // Records 15–39, unreadable in both: 15 in both folds, 10 written in full in B that A folded.
    expect(d.unchanged).toBe(25);
    // A corpus that shrank: 40 folded into 30, then 12 into 2. What A's fold counted beyond B's is gone, with its count.
    d = await diffOf(faults(40, 'unreadable'), faults(12, 'unreadable'));
    expect(d.gone.map((e) => [e.id, e.before?.repeats])).toEqual([['corpus.ndjson#repeated-1', 28]]);
    expect(renderDiffMarkdown(d)).toContain('**28 record(s) gone**');
    expect(renderDiffMarkdown(d)).toContain('| gone | 28 |');
    // And grew: the new records beyond A's are new, counted by B's fold.
    d = await diffOf(faults(12, 'unreadable'), faults(40, 'unreadable'));
    expect(d.new.map((e) => [e.id, e.after?.repeats])).toEqual([['corpus.ndjson#repeated-1', 28]]);
    expect(d.gone).toEqual([]);
  });
});

describe('diffRuns: folds are set by kind, never paired by their numbered ids', () => {
  const kinds = (n: number, rule: string, from: number) =>
    Array.from({ length: n }, (_, k) => ({ ...line(`g${from + k}`, 'reference', from + k, 'unreadable'), turns: null, findings: [{ ...f(rule), message: rule, location: `corpus.ndjson:${from + k + 1}` }] }));
  async function diffOf(a: GameResultLine[], b: GameResultLine[]) {
    const root = tempDir('dice-diff-');
    await writeRun(join(root, 'a'), folded(a));
    await writeRun(join(root, 'b'), folded(b));
    return diffRuns(join(root, 'a'), join(root, 'b'));
  }
  const good = (from: number, n: number) => Array.from({ length: n }, (_, k) => line(`g${from + k}`, 'reference', from + k, 'conforming'));

  it('two kinds that swap places: every record unchanged, the table counts records', async () => {
    const [x, y] = [kinds(12, 'record.missing-field', 40), kinds(12, 'record.bad-json', 52)];
    const d = await diffOf([...good(0, 30), ...x, ...y], [...good(0, 30), ...y, ...x]);
    expect([d.fixed, d.broken, d.reclassified, d.gone, d.new]).toEqual([[], [], [], [], []]);
    expect(d.unchanged).toBe(54);
    expect(anythingBroke(d)).toBe(false);
    expect(renderDiffMarkdown(d)).toContain('| unchanged | 54 |');
  });

  it('records removed and others added beside a fold: the fold counts its own kind first, the removed are gone, the added new', async () => {
    // A: 30 good, 12 truncated (10 written, 2 folded). B: 25 good, 3 new truncated, the same 12 truncated (10 written, 5 folded).
    const d = await diffOf([...good(0, 30), ...kinds(12, 'record.bad-json', 40)], [...good(0, 25), ...kinds(3, 'record.bad-json', 60), ...kinds(12, 'record.bad-json', 40)]);
    expect(d.gone.map((e) => e.id)).toEqual(['g25', 'g26', 'g27', 'g28', 'g29']);
    expect(d.new.map((e) => e.id)).toEqual(['g60', 'g61', 'g62']);
    expect([d.broken, d.fixed, d.reclassified]).toEqual([[], [], []]);
    expect(d.unchanged).toBe(25 + 12);
    expect(anythingBroke(d, { allowGone: true })).toBe(false);
  });
});

describe('dice-dialects diff', () => {
  let out = '';
  beforeEach(() => {
    out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = 0;
  });

  it('exits 1 when anything broke and prints the Markdown', async () => {
    const root = await runs();
    expect(await main(['diff', join(root, 'a'), join(root, 'b')])).toBe(1);
    expect(out).toContain('# Run diff');
    expect(out).toContain('| broken | 2 |');
  });

  it('exits 0 when nothing broke, even with fixes, and writes JSON to --out', async () => {
    const root = await runs(RUN_A.map((l) => (l.id === 'fix-me' ? line('fix-me', 'reference', 2, 'conforming') : l)));
    const file = join(root, 'diff.json');
    expect(await main(['diff', join(root, 'a'), join(root, 'b'), '--json', '--out', file])).toBe(0);
    const json = JSON.parse(await readFile(file, 'utf8'));
    expect(json.fixed).toHaveLength(1);
    expect(json.broken).toHaveLength(0);
    expect(out).toContain('0 broken, 1 fixed');
  });

  it('gone records count as broken unless --allow-gone says the corpus shrank on purpose', async () => {
    // Nothing changed but one record is gone: 200 missing games are not "nothing broke".
    const root = await runs(RUN_A.filter((l) => l.id !== '<b>gone</b>'));
    expect(await main(['diff', join(root, 'a'), join(root, 'b')])).toBe(1);
    expect(out).toContain('**1 record(s) gone**');
    out = '';
    expect(await main(['diff', join(root, 'a'), join(root, 'b'), '--allow-gone'])).toBe(0);
    expect(out).toContain('Nothing broke');
    expect(out).toContain('1 record(s) gone (allowed: --allow-gone)');
    expect(anythingBroke(await diffRuns(join(root, 'a'), join(root, 'b')))).toBe(true);
    expect(anythingBroke(await diffRuns(join(root, 'a'), join(root, 'b')), { allowGone: true })).toBe(false);
  });

  it('a run folder whose summary cannot be read is a configuration unknown: broken unless --allow-config-change', async () => {
    const root = await runs(RUN_A);
    await writeFile(join(root, 'b', 'summary.json'), '{damaged');
    expect(await main(['diff', join(root, 'a'), join(root, 'b')])).toBe(1);
    expect(out).toContain(`configuration unknown: ${join(root, 'b', 'summary.json')}: not JSON`);
    out = '';
    expect(await main(['diff', join(root, 'a'), join(root, 'b'), '--allow-config-change'])).toBe(0);
    // A results file named alone has no summary by choice: nothing to compare, nothing unknown.
    expect(await main(['diff', join(root, 'a', 'results.ndjson'), join(root, 'a')])).toBe(0);
  });

  it('exits 2 on unreadable run folders', async () => {
    const root = await runs();
    expect(await main(['diff', join(root, 'a'), join(root, 'missing')])).toBe(2);
    expect(out).toMatch(/cannot read run folder: .*missing.*ENOENT/);
    const bad = join(root, 'bad');
    await mkdir(bad);
    await writeFile(join(bad, 'results.ndjson'), `${JSON.stringify(RUN_A[0])}\n{"id": 3}\n`);
    out = '';
    expect(await main(['diff', join(root, 'a'), bad])).toBe(2);
    expect(out).toMatch(/results\.ndjson:2: not a result line/);
  });
});
