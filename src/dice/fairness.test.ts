import fc from 'fast-check';
import { KNOWN_COMMIT, KNOWN_ROLLS, KNOWN_SEED } from './test-support/known-answer.js';
import { describe, expect, it } from 'vitest';
import { commitOf, fairMessage, makeClientSeed, makeReveal, makeServerSeed, rollFair, verifyRolls } from './fairness.js';
import { Prng } from './prng.js';

const SEED = KNOWN_SEED;
const SEED_HEX = SEED.toString('hex');
const KNOWN = KNOWN_ROLLS;

describe('provably-fair dice (known answers)', () => {
  it('commits to the server seed bytes', () => {
    expect(commitOf(SEED_HEX)).toBe(KNOWN_COMMIT);
  });

  it('derives the known rolls for plies 0..5', () => {
    expect(KNOWN.map((_, ply) => rollFair(SEED, 'alice', 'bob', ply))).toEqual(KNOWN);
  });

  it('builds the message as u32be len ‖ W ‖ u32be len ‖ B ‖ i64be ply ‖ i32be block', () => {
    expect(fairMessage('alice', 'bob', 5, 1).toString('hex')).toBe(
      '00000005' + Buffer.from('alice').toString('hex') + '00000003' + Buffer.from('bob').toString('hex') + '0000000000000005' + '00000001',
    );
  });

  it('verifies the known game and finds a tampered roll', () => {
    const reveal = makeReveal(SEED_HEX, 'alice', 'bob');
    expect(verifyRolls(reveal, KNOWN)).toEqual({ ok: true, checked: 6 });
    const bad = KNOWN.map((r) => [...r]);
    bad[3] = [5, 3, 4];
    const v = verifyRolls(reveal, bad);
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.code).toBe('dice.not-derived-from-seeds');
      expect(v.index).toBe(3);
      expect(v.expected).toEqual([5, 4, 3]);
    }
    // Same dice re-sorted by the source are accepted when the order is not the roll order.
    expect(verifyRolls(reveal, bad, { order: 'sorted' }).ok).toBe(true);
  });

  it('finds a seed that does not match the commit', () => {
    const reveal = { ...makeReveal(SEED_HEX, 'alice', 'bob'), commit: '00'.repeat(32) };
    const v = verifyRolls(reveal, KNOWN);
    expect(!v.ok && v.code).toBe('dice.commit-mismatch');
    expect(!verifyRolls({ ...reveal, serverSeed: 'xyz' }, KNOWN).ok).toBe(true);
  });

  it('dice are 1..6, the count is right, and rolls are deterministic (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 80 }),
        (key, w, b, ply, count) => {
          const dice = rollFair(Buffer.from(key), w, b, ply, count);
          const again = rollFair(Buffer.from(key), w, b, ply, count);
          return dice.length === count && dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6) && dice.join() === again.join();
        },
      ),
      { numRuns: 200 },
    );
  });

  it('generated seeds are well-formed and verify', () => {
    const prng = new Prng('seeds');
    const server = makeServerSeed(prng);
    expect(server).toMatch(/^[0-9a-f]{64}$/);
    const w = makeClientSeed(prng);
    expect(w.length).toBe(24);
    expect(() => makeClientSeed(prng, 8)).toThrow(RangeError);
    const reveal = makeReveal(server, w, 'player-17');
    const rolls = [0, 1, 2].map((p) => rollFair(Buffer.from(server, 'hex'), w, 'player-17', p));
    expect(verifyRolls(reveal, rolls).ok).toBe(true);
  });
});
