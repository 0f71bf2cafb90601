import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { KNOWN_COMMIT, KNOWN_ROLLS, KNOWN_SEED } from './test-support/known-answer.js';
import { describe, expect, it } from 'vitest';
import { FairDice, commitOf, fairMessage, makeClientSeed, makeReveal, makeServerSeed, rollFair, verifyRolls } from './fairness.js';
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
          expect(dice).toHaveLength(count);
          expect(dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6)).toBe(true);
          expect(again).toEqual(dice);
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

/** The fairness scheme of docs/rules.md §2.10 spelled out on node:crypto: one createHmac per block (what FairDice did before it had its own SHA-256). */
function referenceRoll(serverSeedHex: string, white: string, black: string, ply: number, count: number): number[] {
  const dice: number[] = [];
  for (let block = 0; dice.length < count; block++) {
    const digest = createHmac('sha256', Buffer.from(serverSeedHex, 'hex')).update(fairMessage(white, black, ply, block)).digest();
    for (const byte of digest) if (byte < 252 && dice.length < count) dice.push((byte % 6) + 1);
  }
  return dice;
}

describe('FairDice (own HMAC-SHA256)', () => {
  it('derives the known rolls', () => {
    const dice = new FairDice(makeReveal(SEED_HEX, 'alice', 'bob'));
    expect(KNOWN.map((_, ply) => dice.roll(ply))).toEqual(KNOWN);
  });

  it('rolls the same dice as the node:crypto derivation (property)', () => {
    // Seeds up to 256 characters of any Unicode (multi-byte UTF-8), so the constant prefix
    // sometimes fills whole blocks and the variable fields straddle block boundaries.
    const seed = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 256 }));
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 100 }),
        seed,
        seed,
        fc.array(fc.oneof(fc.integer({ min: 0, max: 400 }), fc.maxSafeNat()), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 80 }),
        (key, white, black, plies, count) => {
          const serverSeed = Buffer.from(key).toString('hex');
          const dice = new FairDice({ commit: '', serverSeed, clientSeeds: { white, black } }, count);
          for (const ply of plies) expect(dice.roll(ply)).toEqual(referenceRoll(serverSeed, white, black, ply, count));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rolls into a caller-supplied array, replacing what it held', () => {
    const dice = new FairDice(makeReveal(SEED_HEX, 'alice', 'bob'));
    const out = [9, 9, 9, 9, 9];
    expect(dice.rollInto(1, out)).toBe(out);
    expect(out).toEqual(KNOWN[1]);
    expect(dice.rollInto(2, out, 2)).toEqual(KNOWN[2].slice(0, 2));
  });

  it('refuses plies that are not whole numbers from 0 to 2^63 - 1', () => {
    const dice = new FairDice(makeReveal(SEED_HEX, 'alice', 'bob'));
    for (const ply of [-1, 1.5, Number.NaN, 2 ** 63]) expect(() => dice.roll(ply)).toThrow(RangeError);
    expect(dice.roll(2 ** 62)).toEqual(referenceRoll(SEED_HEX, 'alice', 'bob', 2 ** 62, 3));
  });
});

describe('verifyRolls comparing unordered dice', () => {
  const reveal = makeReveal(SEED_HEX, 'alice', 'bob');
  it('compares as multisets', () => {
    // KNOWN[1] is [2, 6, 6]: the repeated face must be matched twice. (A recorded roll of n dice is checked against n derived dice.)
    const rolls = KNOWN.map((r) => [...r].reverse());
    expect(verifyRolls(reveal, rolls, { order: 'unknown' })).toEqual({ ok: true, checked: 6 });
    for (const wrong of [[2, 2, 6], [6, 2, 2.5], [6, 2, 7], [6, 6]]) {
      const v = verifyRolls(reveal, [KNOWN[0], wrong], { order: 'sorted' });
      expect(v.ok, `${wrong}`).toBe(false);
      if (!v.ok) {
        expect(v.index).toBe(1);
        expect(v.actual).toEqual(wrong);
        expect(v.actual).not.toBe(wrong);
        expect(v.expected?.length).toBe(wrong.length);
      }
    }
  });
});
