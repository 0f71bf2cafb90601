import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazily } from './lazily.js';

describe('lazily', () => {
  it('builds the value once, on its first use, and is the value for every property, method and instanceof', () => {
    class Counter {
      n = 0;
      add(k: number): number {
        return (this.n += k);
      }
    }
    let builds = 0;
    const counter = lazily(() => {
      builds++;
      return new Counter();
    });
    expect(builds).toBe(0);
    expect(counter.add(2)).toBe(2);
    expect(counter.add(3)).toBe(5);
    expect(counter.n).toBe(5);
    expect(counter instanceof Counter).toBe(true);
    expect(builds).toBe(1);
    const list = lazily(() => [1, 2, 3]);
    expect([...list]).toEqual([1, 2, 3]);
    expect(Object.keys(list)).toEqual(['0', '1', '2']);
    expect('length' in list).toBe(true);
    list.push(4);
    expect(list.length).toBe(4);
  });

  it('a schema built of stand-ins parses, refuses, defaults and describes itself as the schema built at once', () => {
    const build = (count: z.ZodNumber) => z.object({ n: count, tags: z.array(z.string()).default([]), inner: z.object({ k: count }).strict() }).strict();
    const eager = build(z.number().int().min(0));
    const count = lazily(() => z.number().int().min(0));
    const lazy = lazily(() => build(count));
    for (const input of [{ n: 1, inner: { k: 2 } }, { n: -1, inner: { k: 2 } }, { n: 1, inner: { k: 2, x: 1 } }, { n: 1.5 }, null, 'text']) {
      const a = eager.safeParse(input);
      const b = lazy.safeParse(input);
      expect(b.success).toBe(a.success);
      expect(b.success ? b.data : b.error.issues).toEqual(a.success ? a.data : a.error.issues);
    }
    expect(z.toJSONSchema(lazy)).toEqual(z.toJSONSchema(eager));
  });
});
