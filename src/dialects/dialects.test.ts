import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkDialectFile,
  compareDialects,
  comparisonMarkdown,
  DIALECTS_DIR,
  type Dialect,
  findDialect,
  LEAF_PATHS,
  listDialects,
  loadDialect,
  registryProblems,
  terminationsOf,
} from './index.js';
import { tempDir } from '../test-support/temp-dir.js';

const SHIPPED = ['beturanga', 'brainking-one-die', 'chess', 'dicechess-com', 'gollon-count-die', 'gollon-piece-and-count', 'reference', 'vchess-dice', 'vegas-fun-chess', 'wikipedia-two-dice'];

function load(name: string, overrides: string[] = []): Dialect {
  const r = loadDialect(name, overrides);
  if (!r.ok) throw new Error(r.error.map((p) => `${p.path}: ${p.message}`).join('\n'));
  return r.value;
}

const tmp = (): string => tempDir('dialects-test-');
const write = (dir: string, name: string, data: unknown): string => {
  const file = join(dir, name);
  writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
  return file;
};
const reference = (): Record<string, unknown> => JSON.parse(readFileSync(join(DIALECTS_DIR, 'reference.json'), 'utf8'));

describe('registry', () => {
  it('lists every shipped dialect, names matching file names, no clashing aliases', () => {
    expect(listDialects().map((d) => d.name)).toEqual(SHIPPED);
    expect(registryProblems()).toEqual([]);
  });

  it('resolves aliases, any case', () => {
    expect(findDialect('dicechess.com')?.name).toBe('dicechess-com');
    expect(findDialect('fortemate')?.name).toBe('reference');
    expect(findDialect('wikipedia')?.name).toBe('wikipedia-two-dice');
    expect(findDialect('BrainKing')?.name).toBe('brainking-one-die');
    expect(findDialect('beturanga.com')?.name).toBe('beturanga');
    expect(findDialect('nope')).toBeNull();
    expect(load('dicechess.com').name).toBe('dicechess-com');
  });

  it('finds the dialects folder from the package root', () => {
    expect(DIALECTS_DIR.replace(/\\/g, '/')).toMatch(/\/dialects$/);
  });

  it('an unknown name is one problem listing the known ones', () => {
    const r = loadDialect('checkers');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toHaveLength(1);
      expect(r.error[0].code).toBe('dialect.unknown');
      expect(r.error[0].message).toContain('reference');
    }
  });
});

/** The sections (`§2`, `§2.3`) a docs page's headings declare, read from the page itself. */
function docSections(file: string): Set<string> {
  const text = readFileSync(join(DIALECTS_DIR, '..', file), 'utf8');
  return new Set([...text.matchAll(/^#{2,4} (§\d+(?:\.\d+)*) /gm)].map((m) => m[1]));
}

/** Why a cited `source` points nowhere a user's clone can follow, or null: "assumed", an http(s) URL, or an existing docs/ page section. */
function citedSourceProblem(source: string): string | null {
  if (source === 'assumed' || /^https?:\/\/[^\s/]+\.[^\s]+$/.test(source)) return null;
  const doc = /^(docs\/[\w./-]+\.md) (§\d+(?:\.\d+)*)$/.exec(source);
  if (doc === null) return `${source}: neither "assumed", an http(s) URL nor "docs/<page>.md §N"`;
  let sections: Set<string>;
  try {
    sections = docSections(doc[1]);
  } catch {
    return `${source}: no page ${doc[1]}`;
  }
  return sections.has(doc[2]) ? null : `${source}: ${doc[1]} has no heading ${doc[2]}`;
}

describe('citedSourceProblem (the check on every shipped source)', () => {
  it('accepts assumed, URLs and existing docs sections; refuses missing pages, missing sections and local file names', () => {
    expect(citedSourceProblem('assumed')).toBeNull();
    expect(citedSourceProblem('https://en.wikipedia.org/wiki/Dice_chess')).toBeNull();
    expect(citedSourceProblem('docs/rules.md §2.3')).toBeNull();
    expect(citedSourceProblem('docs/rules.md §2')).toBeNull();
    expect(citedSourceProblem('docs/rules.md §99')).toMatch(/no heading §99/);
    expect(citedSourceProblem(`docs/${'no-such-page'}.md §1`)).toMatch(/no page/);
    expect(citedSourceProblem('notes-000.txt')).toMatch(/neither/);
    expect(citedSourceProblem('NOTES.md §1')).toMatch(/neither/);
  });
});

describe('shipped dialects', () => {
  it.each(SHIPPED)('%s loads, every axis with a source', (name) => {
    const d = load(name);
    expect(Object.keys(d.sources)).toEqual([...LEAF_PATHS]);
    for (const [path, s] of Object.entries(d.sources)) {
      expect(citedSourceProblem(s.source), `${name} ${path}`).toBeNull();
      if (s.open) expect(s.note, path).toBeTruthy();
    }
    expect(d.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(checkDialectFile(d.file)).toEqual([]);
  });

  it('reference: three provably fair dice, path maximum, no check, two-dice castling ignoring attacks', () => {
    const r = load('reference').rules;
    expect(r.dice).toEqual({ count: 3, faces: [1, 2, 3, 4, 5, 6], draw: 'provably-fair', facesByDie: null, reads: 'pieces', counts: [1, 2, 3, 4, 5, 6], movableTest: 'allowed-move', whoRolls: 'every-turn' });
    expect(r.turn.structure).toBe('each-die');
    expect(r.maximum).toBe('path');
    expect(r.check).toBe('none');
    expect(r.castling).toEqual({ dice: 'king-and-rook', attacks: 'ignored', chess960: false, notation: 'king-two-squares' });
    expect(r.enPassant.window).toBe('reply-turn');
    expect(r.draws.moveCounterLimit).toBe(100);
    expect(r.draws.turnLimit).toBe(5000);
    expect(r.draws.repetition).toBeNull();
    expect(terminationsOf(r)).not.toContain('checkmate');
  });

  it('dicechess-com inherits movement and adds the cube, GOLD pot, mid-turn offers; open points are marked', () => {
    const d = load('dicechess-com');
    expect(d.extends).toBe('reference');
    expect(d.rules.maximum).toBe('path');
    expect(d.sources.maximum.from).toBe('reference');
    expect(d.rules.cube).toMatchObject({ enabled: true, ownership: 'centered-last-taker', cap: 64 });
    expect(d.rules.stakes).toEqual({ kind: 'pot', currency: 'GOLD', modes: ['classic', 'x2'], zeroStakeIsTournament: true });
    expect(d.rules.draws.midTurnOffers).toBe(true);
    for (const open of ['castling.attacks', 'draws.moveCounterLimit', 'draws.turnLimit', 'clock.increment', 'cube.ownership', 'cube.cap']) {
      expect(d.sources[open].open, open).toBe(true);
    }
    expect(terminationsOf(d.rules)).toEqual(['king-capture', 'resignation', 'timeout', 'draw-agreement', 'double-declined']);
  });

  it('beturanga: Chess960 starts with assumed 960 castling', () => {
    const d = load('beturanga');
    expect(d.rules.start.position).toBe('chess960');
    expect(d.rules.castling.chess960).toBe(true);
    expect(d.sources['castling.chess960'].source).toBe('assumed');
    expect(d.rules.castling.notation).toBe('king-takes-rook');
  });

  it('wikipedia-two-dice: seeds 002/003 rules', () => {
    const d = load('wikipedia');
    const r = d.rules;
    expect(r.dice.count).toBe(2);
    expect(r.turn).toEqual({ structure: 'one-move', doublesAnyMove: true, onePiece: false, firstMoveFree: false });
    expect(r.check).toBe('orthodox');
    expect(r.castling).toMatchObject({ dice: 'king-or-rook', attacks: 'orthodox' });
    expect(r.enPassant.window).toBe('first-micro-move');
    expect(r.promotion.pieces.sort()).toEqual(['b', 'n', 'q', 'r']);
    expect(r.maximum).toBe('none');
    expect(r.draws).toMatchObject({ stalemate: true, repetition: 3, moveCounterLimit: 100, insufficientMaterial: 'cannot-mate' });
    // Issue 11: points the seeds leave open, read as a chess arbiter would read "standard chess rules".
    expect(r.kingCaptureIgnoresCheck).toBe(false);
    expect(r.draws).toMatchObject({ ruleDraws: 'claim', repetitionCountsPasses: true, passAdvancesCounter: false });
    for (const open of ['kingCaptureIgnoresCheck', 'draws.ruleDraws', 'draws.repetitionCountsPasses', 'draws.passAdvancesCounter', 'draws.insufficientMaterial']) {
      expect(d.sources[open].open, open).toBe(true);
      expect(d.sources[open].note, open).toMatch(/literal/);
    }
    expect(r.end).toMatchObject({ checkmate: true, kingCapture: true });
    expect(d.sources['turn.doublesAnyMove'].source).toBe('docs/rules.md §6');
  });

  it('brainking-one-die: one movable-type die, no check, die-piece promotion, open points as options', () => {
    const d = load('brainking');
    const r = d.rules;
    expect(r.dice).toMatchObject({ count: 1, draw: 'movable-types' });
    expect(r.turn.structure).toBe('one-move');
    expect(r.check).toBe('none');
    expect(r.promotion).toMatchObject({ die: 'die-piece', onKingDie: false });
    expect(r.castling).toMatchObject({ dice: 'king', attacks: 'ignored' });
    expect(r.enPassant.window).toBe('first-micro-move');
    expect(d.sources['promotion.onKingDie'].open).toBe(true);
    expect(d.sources['castling.dice'].open).toBe(true);
    expect(d.sources['pass.whenNothingMoves'].open).toBe(true);
  });

  it('chess: the no-dice control', () => {
    const r = load('chess').rules;
    expect(r.dice.count).toBe(0);
    expect(r.turn.structure).toBe('one-move');
    expect(r.check).toBe('orthodox');
    expect(r.castling).toMatchObject({ dice: 'none', attacks: 'orthodox', chess960: true });
  });

  it('the comparison covers every axis of every dialect', () => {
    const all = SHIPPED.map((n) => load(n));
    const c = compareDialects(all);
    expect(c.rows.length).toBe(LEAF_PATHS.length + 1);
    for (const row of c.rows) expect(Object.keys(row.cells).sort()).toEqual([...SHIPPED].sort());
    const md = comparisonMarkdown(c);
    expect(md).toContain('| castling.dice |');
    expect(md).toContain('**open**');
    expect(md.split('\n').filter((l) => l.startsWith('| ')).length).toBe(LEAF_PATHS.length + 3);
  });
});

describe('--set overrides', () => {
  it('apply with source "override", keep the old value in the note', () => {
    const d = load('reference', ['enPassant.window=first-micro-move', 'dice.count=2', 'draws.turnLimit=null']);
    expect(d.rules.enPassant.window).toBe('first-micro-move');
    expect(d.rules.dice.count).toBe(2);
    expect(d.rules.draws.turnLimit).toBeNull();
    expect(d.sources['dice.count']).toMatchObject({ value: 2, source: 'override', from: 'override' });
    expect(d.sources['dice.count'].note).toContain('3');
    expect(d.sha256).not.toBe(load('reference').sha256);
  });

  it('accept a trailing .value and JSON arrays', () => {
    const d = load('reference', ['promotion.pieces.value=["q","n"]']);
    expect(d.rules.promotion.pieces).toEqual(['q', 'n']);
  });

  it('an unknown path is a problem naming it, with a suggestion', () => {
    const r = loadDialect('reference', ['enPassant.windw=first-micro-move']);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error[0]).toMatchObject({ path: 'enPassant.windw', code: 'dialect.override' });
      expect(r.error[0].message).toContain('enPassant.window');
    }
  });

  it('a bad value is a problem at the leaf path', () => {
    const r = loadDialect('reference', ['enPassant.window=sometimes']);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toHaveLength(1);
      expect(r.error[0]).toMatchObject({ path: 'enPassant.window.value', code: 'dialect.override' });
      expect(r.error[0].message).toContain('--set enPassant.window=sometimes');
    }
  });

  it('an inconsistent combination made by --set is reported too', () => {
    const r = loadDialect('reference', ['start.position=chess960']);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.map((p) => p.path)).toEqual(['castling.chess960.value', 'castling.notation.value']);
  });

  it('a missing "=" is a syntax problem', () => {
    const r = loadDialect('reference', ['dice.count']);
    expect(!r.ok && r.error[0].code).toBe('dialect.override');
  });
});

describe('checkDialectFile', () => {
  it('accepts a minimal child file', () => {
    const dir = tmp();
    const file = write(dir, 'mine.json', { name: 'mine', extends: 'reference', dice: { count: { value: 2, source: 'assumed' } } });
    expect(checkDialectFile(file)).toEqual([]);
    const d = loadDialect(file);
    expect(d.ok && d.value.rules.dice.count).toBe(2);
  });

  it('reports unknown keys with their JSON path and a suggestion', () => {
    const dir = tmp();
    const file = write(dir, 'typo.json', {
      name: 'typo',
      extends: 'reference',
      castling: { dice: { value: 'king', source: 'assumed', nota: 'x' }, attack: { value: 'ignored', source: 'assumed' } },
      colour: 'blue',
    });
    const problems = checkDialectFile(file);
    expect(problems.map((p) => [p.path, p.code])).toEqual(
      expect.arrayContaining([
        ['castling.dice.nota', 'dialect.unknown-key'],
        ['castling.attack', 'dialect.unknown-key'],
        ['colour', 'dialect.unknown-key'],
      ]),
    );
    expect(problems.find((p) => p.path === 'castling.attack')?.message).toContain('attacks');
    expect(problems.every((p) => p.file === file)).toBe(true);
  });

  it('reports bad values and bad sources at the leaf', () => {
    const dir = tmp();
    const file = write(dir, 'bad.json', {
      name: 'bad',
      extends: 'reference',
      castling: { dice: { value: 'queen', source: 'assumed' } },
      maximum: { value: 'path', source: 'my uncle' },
      enPassant: { window: { value: 'reply-turn', source: 'assumed', open: true } },
    });
    const byPath = Object.fromEntries(checkDialectFile(file).map((p) => [p.path, p]));
    expect(byPath['castling.dice.value'].code).toBe('dialect.invalid');
    expect(byPath['maximum.source'].code).toBe('dialect.invalid');
    expect(byPath['enPassant.window.note'].code).toBe('dialect.invalid');
  });

  it('reports a bad parent at "extends"', () => {
    const dir = tmp();
    const file = write(dir, 'orphan.json', { name: 'orphan', extends: 'no-such-dialect' });
    expect(checkDialectFile(file)).toMatchObject([{ path: 'extends', code: 'dialect.extends' }]);
    const file2 = write(dir, 'orphan2.json', { name: 'orphan2', extends: './missing.json' });
    expect(checkDialectFile(file2)).toMatchObject([{ path: 'extends', code: 'dialect.extends' }]);
    // Reported alongside the file's own problems.
    const file3 = write(dir, 'orphan3.json', { name: 'orphan3', extends: 'referenc', colour: 'blue' });
    expect(checkDialectFile(file3).map((p) => p.path)).toEqual(['colour', 'extends']);
  });

  it('reports an invalid parent through "extends", naming its path', () => {
    const dir = tmp();
    write(dir, 'base.json', { ...reference(), name: 'base', check: { value: 'sometimes', source: 'assumed' } });
    const file = write(dir, 'child.json', { name: 'child', extends: 'base' });
    const problems = checkDialectFile(file);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: 'extends', code: 'dialect.parent' });
    expect(problems[0].message).toContain('check.value');
  });

  it('detects extends cycles, also through a chain', () => {
    const dir = tmp();
    write(dir, 'a.json', { name: 'a', extends: './b.json' });
    write(dir, 'b.json', { name: 'b', extends: './c.json' });
    const c = write(dir, 'c.json', { name: 'c', extends: './a.json' });
    const problems = checkDialectFile(c);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: 'extends', code: 'dialect.cycle' });
    expect(problems[0].message).toContain('c.json → a.json → b.json → c.json');
    const self = write(dir, 'self.json', { name: 'self', extends: './self.json' });
    expect(checkDialectFile(self)[0].code).toBe('dialect.cycle');
  });

  it('merges chains leaf by leaf', () => {
    const dir = tmp();
    write(dir, 'mid.json', { name: 'mid', extends: 'dicechess-com', cube: { cap: { value: 8, source: 'assumed' } } });
    const leaf = write(dir, 'leaf.json', { name: 'leaf', extends: 'mid', cube: { ownership: { value: 'either', source: 'assumed' } } });
    const r = loadDialect(leaf);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.rules.cube).toMatchObject({ enabled: true, cap: 8, ownership: 'either' });
      expect(r.value.sources['cube.enabled'].from).toBe('dicechess-com');
      expect(r.value.sources['cube.cap'].from).toBe('mid');
      expect(r.value.sources['maximum'].from).toBe('reference');
    }
  });

  it('reports inconsistent combinations at the leaf most likely wrong', () => {
    const dir = tmp();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ start: { position: { value: 'chess960', source: 'assumed' } }, castling: { notation: { value: 'king-takes-rook', source: 'assumed' } } }, 'castling.chess960.value'],
      [{ turn: { structure: { value: 'one-move', source: 'assumed' } } }, 'maximum.value'],
      [{ dice: { count: { value: 0, source: 'assumed' }, draw: { value: 'movable-types', source: 'assumed' } } }, 'dice.draw.value'],
      [{ end: { checkmate: { value: true, source: 'assumed' } } }, 'end.checkmate.value'],
      [{ promotion: { onKingDie: { value: true, source: 'assumed' } } }, 'promotion.onKingDie.value'],
      [{ cube: { enabled: { value: true, source: 'assumed' } } }, 'cube.enabled.value'],
      [{ cube: { cap: { value: 48, source: 'assumed' } } }, 'cube.cap.value'],
      [{ dice: { count: { value: 1, source: 'assumed' } } }, 'castling.dice.value'],
    ];
    for (const [patch, path] of cases) {
      const file = write(dir, 'x.json', { name: 'x', extends: 'reference', ...patch });
      const problems = checkDialectFile(file);
      expect(problems.map((p) => p.path), JSON.stringify(patch)).toContain(path);
      expect(problems.find((p) => p.path === path)?.code).toBe('dialect.inconsistent');
    }
  });

  it('a root file must state every axis; missing ones are named', () => {
    const dir = tmp();
    const full = reference();
    delete (full.castling as Record<string, unknown>).dice;
    delete full.stakes;
    const file = write(dir, 'partial.json', { ...full, name: 'partial' });
    const problems = checkDialectFile(file);
    expect(problems.map((p) => [p.path, p.code])).toEqual([
      ['castling.dice', 'dialect.missing'],
      ['stakes', 'dialect.missing'],
    ]);
  });

  it('reports JSON syntax errors and unreadable files', () => {
    const dir = tmp();
    expect(checkDialectFile(write(dir, 'broken.json', '{ "name": "x", '))[0].code).toBe('dialect.json');
    expect(checkDialectFile(join(dir, 'absent.json'))[0].code).toBe('dialect.read');
  });
});

describe('dialects/COMPARISON.md', () => {
  it('is up to date (regenerate: dice-dialects dialects --compare --format md --out dialects/COMPARISON.md)', () => {
    const fresh = comparisonMarkdown(compareDialects(listDialects().map((d) => load(d.name))));
    expect(readFileSync(join(DIALECTS_DIR, 'COMPARISON.md'), 'utf8')).toBe(fresh);
  });
});
