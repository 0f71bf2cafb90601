import { describe, expect, it } from 'vitest';
import { parseDfen, type Role } from '../core/index.js';
import { TurnEngine } from './turn-engine.js';
import { loadDialect } from '../dialects/index.js';
import type { Rules } from './rules.js';

const dialect = (name: string, ...overrides: string[]): Rules => {
  const d = loadDialect(name, overrides);
  if (!d.ok) throw new Error(JSON.stringify(d.error));
  return d.value.rules;
};
const REFERENCE = dialect('reference');

const setup = (dfen: string, rules = REFERENCE) => {
  const p = parseDfen(dfen);
  if (!p.ok) throw new Error(p.error.message);
  const engine = new TurnEngine(rules);
  return { engine, pos: p.value.pos, dice: p.value.dice as Role[] };
};
const firsts = (dfen: string, rules = REFERENCE) => {
  const { engine, pos, dice } = setup(dfen, rules);
  return engine.legalFirstMicroMoves(pos, dice).map((m) => engine.uci(m)).sort();
};
const turns = (dfen: string, rules = REFERENCE) => {
  const { engine, pos, dice } = setup(dfen, rules);
  return engine.legalTurns(pos, dice).map((t) => t.map((m) => engine.uci(m)));
};

describe('maximum rule readings (the worked positions of docs/rules.md §10.1)', () => {
  it('path accepts e7e8r then e8h8; micro-move rejects e7e8r first', () => {
    const d = '7k/4P3/8/8/8/K4R2/8/8 w - - 0 1 PRQ';
    const { engine, pos, dice } = setup(d);
    expect(engine.judge(pos, dice, ['e7e8r', 'e8h8']).ok).toBe(true);
    const micro = dialect('reference', 'maximum=micro-move');
    const s = setup(d, micro);
    const v = s.engine.judge(s.pos, s.dice, ['e7e8r', 'e8h8']);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.finding).toMatchObject({ rule: 'maximum.fewer-dice', microMove: 0 });
    expect(firsts(d, micro)).not.toContain('e7e8r');
  });
  it('PNN position: the three readings', () => {
    const d = '8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1 PNN';
    expect(turns(d).map((t) => t.join(',')).sort()).toEqual(['a2a3', 'a2a4', 'e7e8b', 'e7e8n,e8g7', 'e7e8q', 'e7e8r'].sort());
    expect(turns(d, dialect('reference', 'maximum=path-all'))).toEqual([['e7e8n', 'e8g7']]);
    expect(firsts(d, dialect('reference', 'maximum=micro-move'))).toEqual(['e7e8n']);
  });
  it('opening roll P,N,B: only bishop-freeing pawn moves and knight moves', () => {
    expect(firsts('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB')).toEqual(
      ['b1a3', 'b1c3', 'b2b3', 'b2b4', 'd2d3', 'd2d4', 'e2e3', 'e2e4', 'g1f3', 'g1h3', 'g2g3', 'g2g4'].sort(),
    );
  });
  it('64 of 216 ordered opening rolls are forced passes', () => {
    const { engine, pos } = setup('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    let passes = 0;
    for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) {
      if (engine.legalFirstMicroMoves(pos, [a, b, c] as Role[]).length === 0) passes++;
    }
    expect(passes).toBe(64);
  });
});
