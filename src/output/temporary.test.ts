import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir.js';
import { createTemporary, PARKED, removeStaleTemporaries, removeStaleTemporariesIn, TMP_MARKER } from './temporary.js';

const deadPid = 2 ** 22 + 12345; // above Linux's pid_max default: no such process

describe('temporaries', () => {
  it('a stale temporary holding a parked original puts it back when the output is missing (killed between the two renames)', () => {
    const dir = tempDir('dice-tmp-');
    const stale = join(dir, '.run.tmp-abc123');
    mkdirSync(join(stale, PARKED), { recursive: true });
    writeFileSync(join(stale, TMP_MARKER), JSON.stringify({ tool: 'dice-dialects', pid: deadPid }));
    writeFileSync(join(stale, PARKED, 'summary.json'), 'the previous run');
    expect(removeStaleTemporaries(join(dir, 'run'))).toEqual([stale]);
    expect(readdirSync(dir)).toEqual(['run']);
    expect(readFileSync(join(dir, 'run/summary.json'), 'utf8')).toBe('the previous run');
  });

  it('a temporary killed before its marker was whole (empty, or a torn marker alone) is removed; one holding anything else is kept', () => {
    const dir = tempDir('dice-tmp-');
    mkdirSync(join(dir, '.a.json.tmp-aaaaaa'));
    mkdirSync(join(dir, '.b.json.tmp-bbbbbb'));
    writeFileSync(join(dir, '.b.json.tmp-bbbbbb', TMP_MARKER), '{"tool":"dice-di');
    mkdirSync(join(dir, '.c.json.tmp-cccccc'));
    writeFileSync(join(dir, '.c.json.tmp-cccccc', 'c.json'), 'someone else\'s');
    expect(removeStaleTemporariesIn(dir).sort()).toEqual([join(dir, '.a.json.tmp-aaaaaa'), join(dir, '.b.json.tmp-bbbbbb')]);
    expect(readdirSync(dir)).toEqual(['.c.json.tmp-cccccc']);
    expect(readFileSync(join(dir, '.c.json.tmp-cccccc', 'c.json'), 'utf8')).toBe("someone else's");
  });

  it('a new temporary is marked with this process and leaves no trace when removed', () => {
    const dir = tempDir('dice-tmp-');
    const t = createTemporary(join(dir, 'out.ndjson'));
    expect(t.dir).toMatch(/\/\.out\.ndjson\.tmp-[A-Za-z0-9]{6}$/);
    expect(JSON.parse(readFileSync(join(t.dir, TMP_MARKER), 'utf8')).pid).toBe(process.pid);
    // Live: a second writer of the same output does not take it for stale.
    expect(removeStaleTemporaries(join(dir, 'out.ndjson'))).toEqual([]);
    t.remove();
    expect(existsSync(t.dir)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
