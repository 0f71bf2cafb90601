import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listDialects, loadDialect } from '../../dialects/index.js';
import { readFileSync } from 'node:fs';
import { analyse } from './analyse.js';
import { DEFAULT_DFEN, type ExplorerState, formatHash, parseHash } from './hash.js';
import { buildPanels, checkOptionLines, parseOptionLines } from './panels.js';

const known = listDialects().map((d) => JSON.parse(readFileSync(d.file, 'utf8')) as unknown);

describe('the explorer state in the URL hash', () => {
  it('reads the contract form: #dfen=<URL-encoded>&turn=uci,uci', () => {
    const s = parseHash(`#dfen=${encodeURIComponent('7k/4P3/8/8/8/K4R2/8/8 w - - 0 1 PRQ')}&turn=e7e8r,e8h8`);
    expect(s).toEqual({ dfen: '7k/4P3/8/8/8/K4R2/8/8 w - - 0 1 PRQ', turn: ['e7e8r', 'e8h8'], step: 0, set: '', focus: '' });
    expect(parseHash('#dfen=8%2F8%2F8%2F8%2F8%2F8%2F8%2FK6k+w+-+-+0+1+K&turn=pass').turn).toEqual([]);
    expect(parseHash('').dfen).toBe(DEFAULT_DFEN);
    expect(parseHash('#turn=&step=9').turn).toBeNull();
    expect(parseHash('#dfen=%E0%A4%A&turn=a2a3&step=5').step).toBe(1);
  });
  it('round-trips any state', () => {
    const state = fc.record({
      dfen: fc.string({ minLength: 1 }).filter((s) => s.trim() === s && s !== ''),
      turn: fc.option(fc.array(fc.stringMatching(/^[a-h][1-8][a-h][1-8][qrbn]?$/), { maxLength: 4 })),
      step: fc.nat(5),
      set: fc.string().map((s) => s.trim()),
      focus: fc.string(),
    });
    fc.assert(
      fc.property(state, (s: ExplorerState) => {
        const norm = { ...s, step: s.turn === null ? 0 : Math.min(s.step, s.turn.length) };
        expect(parseHash(formatHash(norm))).toEqual(norm);
      }),
    );
  });
});

describe('the explorer columns', () => {
  it('one per dialect, per dropped file and per variant line; global lines apply to all', () => {
    const lines = parseOptionLines('maximum=micro-move\nreference+maximum=path-all\n# a comment\n--set enPassant.window=first-micro-move\nnonsense');
    expect(lines).toEqual({
      global: [
        { line: 1, text: 'maximum=micro-move' },
        { line: 4, text: 'enPassant.window=first-micro-move' },
      ],
      variants: [{ line: 2, text: 'reference+maximum=path-all', name: 'reference', overrides: ['maximum=path-all'] }],
      bad: [{ line: 5, text: 'nonsense', reason: expect.stringContaining('path=value') }],
    });
    const panels = buildPanels(known, [{ file: 'house.json', definition: { name: 'house', extends: 'reference', maximum: { value: 'none', source: 'assumed' } } }], lines);
    expect(panels.map((p) => p.key)).toEqual([...listDialects().map((d) => d.name), 'house', 'reference+maximum=path-all']);
    const ref = panels.find((p) => p.key === 'reference')!.dialect!;
    expect([ref.rules.maximum, ref.rules.enPassant.window]).toEqual(['micro-move', 'first-micro-move']);
    // The file's own value loses to a line typed for every column, as --set does.
    expect(panels.find((p) => p.key === 'house')!.dialect!.rules.maximum).toBe('micro-move');
    expect(panels.find((p) => p.key === 'reference+maximum=path-all')!.dialect!.rules.maximum).toBe('path-all');
  });
  it('a global line no dialect accepts is taken out with its reason; the others apply to every column', () => {
    const lines = checkOptionLines(known, parseOptionLines('maximum=sometimes\n\nmaximum=micro-move\nenPassant.windw=first-micro-move'));
    expect(lines.global).toEqual([{ line: 3, text: 'maximum=micro-move' }]);
    expect(lines.bad.map((b) => [b.line, b.text])).toEqual([
      [1, 'maximum=sometimes'],
      [4, 'enPassant.windw=first-micro-move'],
    ]);
    expect(lines.bad[0].reason).toMatch(/^maximum\.value: .*\(got "sometimes"\) \[dialect\.override\]$/);
    expect(lines.bad[1].reason).toMatch(/^enPassant\.windw: "enPassant\.windw" is not a dialect option \(did you mean enPassant\.window\?\) \[dialect\.override\]$/);
    const panels = buildPanels(known, [], lines);
    expect(panels.find((p) => p.key === 'reference')!.dialect!.rules.maximum).toBe('micro-move');
    // A line some dialects refuse stays: their columns say why (a one-move turn has no maximum to read).
    for (const p of panels) expect(p.dialect?.rules.maximum ?? p.problem, p.key).toMatch(/^micro-move$|--set maximum=micro-move: .*must be "none"/);
    expect(panels.filter((p) => p.dialect === null).map((p) => p.key)).toContain('chess');
  });
  it('a dropped file that is not a dialect object, or not JSON, is a column that says why; the others still load', () => {
    const panels = buildPanels(known, [{ file: 'name.json', definition: 'reference' }, { file: 'torn.json', problem: 'not JSON: Unexpected end of JSON input [dialect.json]' }, { file: 'empty.json', definition: {} }], parseOptionLines(''));
    const by = Object.fromEntries(panels.map((p) => [p.key, p]));
    expect(by['name.json'].dialect).toBeNull();
    expect(by['name.json'].problem).toMatch(/holds a string, not a JSON object/);
    expect(by['torn.json'].problem).toMatch(/^not JSON/);
    expect(by['empty.json'].problem).toMatch(/"name" is missing/);
    expect(by.reference.dialect).not.toBeNull();
  });
  it('groups columns by their legal turns and marks what is not legal everywhere (docs/rules.md §3)', () => {
    const panels = buildPanels(known, [], parseOptionLines('reference+maximum=path-all'));
    const a = analyse(panels, '8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1 PNN', ['a2a3'], 0);
    const by = Object.fromEntries(a.answers.map((x) => [x.key, x]));
    expect(a.agree).toBe(false);
    expect(by.reference.group).not.toBe(by['reference+maximum=path-all'].group);
    expect(by.reference.group).toBe(by['dicechess-com'].group);
    expect(by.reference.verdict?.text).toBe('legal');
    expect(by['reference+maximum=path-all'].verdict?.text).toBe('maximum.fewer-dice');
    expect([...a.notEverywhere.firstMoves].sort()).toEqual(['a2a3', 'a2a4', 'e7e8b', 'e7e8q', 'e7e8r']);
    expect(by['wikipedia-two-dice'].error).toMatch(/fen.dice-count/);
    // The file loader and the object loader resolve the same rules.
    expect(by.reference.key).toBe('reference');
    const fromFile = loadDialect('reference');
    expect(fromFile.ok && panels.find((p) => p.key === 'reference')!.dialect!.rules).toEqual(fromFile.ok ? fromFile.value.rules : null);
  });
});
