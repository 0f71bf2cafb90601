import { createHash, createHmac } from 'node:crypto';
import { HmacSha256Key, PrefixedHmac } from './hmac-sha256.js';
import type { Prng } from './prng.js';
import { digestByte } from './sha256.js';

/**
 * The provably-fair dice scheme (docs/rules.md §2.10, all dialects that reveal seeds):
 *
 * - before the game the server publishes `commit = SHA-256(serverSeed bytes)`;
 * - each player contributes a client seed (a player who never submits one is
 *   represented by their external id);
 * - the roll for ply n (0 = first turn; passes consume a ply, draw and doubling
 *   decisions do not) comes from HMAC-SHA256(key = serverSeed bytes,
 *   msg = u32be(len W) ‖ W ‖ u32be(len B) ‖ B ‖ i64be(n) ‖ i32be(block)) for
 *   block = 0, 1, …: digest bytes ≥ 252 are skipped, each kept byte b is the die
 *   b % 6 + 1, until `count` dice. Dice are kept in roll order.
 */

/** What a finished game reveals (the shape of GameRecord.fairness). */
export interface FairnessReveal {
  /** SHA-256 of the server seed bytes, hex. */
  commit: string;
  /** The server seed, hex. */
  serverSeed: string;
  clientSeeds: { white: string; black: string };
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/** Is `text` a non-empty even-length hex string? */
export const isHex = (text: string): boolean => HEX.test(text);

/**
 * SHA-256 of the bytes a hex seed encodes, as lower-case hex. Throws on text that is not hex.
 * Once per game, so node:crypto (measured a little faster than sha256.ts for one short hash).
 */
export function commitOf(serverSeedHex: string): string {
  if (!isHex(serverSeedHex)) throw new TypeError(`server seed must be hex bytes, not "${serverSeedHex.slice(0, 20)}"`);
  return createHash('sha256').update(Buffer.from(serverSeedHex, 'hex')).digest('hex');
}

/** The HMAC message for (W, B, ply, block). Seeds are encoded as UTF-8; lengths count bytes. */
export function fairMessage(white: string, black: string, ply: number, block: number): Buffer {
  const w = Buffer.from(white, 'utf8');
  const b = Buffer.from(black, 'utf8');
  const msg = Buffer.alloc(4 + w.length + 4 + b.length + 8 + 4);
  let o = msg.writeUInt32BE(w.length, 0);
  o += w.copy(msg, o);
  o = msg.writeUInt32BE(b.length, o);
  o += b.copy(msg, o);
  o = msg.writeBigInt64BE(BigInt(ply), o);
  msg.writeInt32BE(block, o);
  return msg;
}

/**
 * The dice of ply `ply` (faces 1–6, roll order): the scheme written plainly on node:crypto.
 * For one roll under a fresh key this is faster than FairDice's setup; use FairDice for a game's rolls.
 */
export function rollFair(serverSeed: Buffer, white: string, black: string, ply: number, count = 3): number[] {
  if (!Number.isInteger(ply) || ply < 0) throw new RangeError(`ply must be a whole number ≥ 0, not ${ply}`);
  const dice: number[] = [];
  for (let block = 0; dice.length < count; block++) {
    const digest = createHmac('sha256', serverSeed).update(fairMessage(white, black, ply, block)).digest();
    for (let i = 0; i < digest.length && dice.length < count; i++) {
      const byte = digest[i];
      if (byte < 252) dice.push((byte % 6) + 1);
    }
  }
  return dice;
}

/** A fresh 32-byte server seed from a seeded generator (deterministic corpora), as hex. */
export function makeServerSeed(prng: Prng): string {
  return prng.bytes(32).toString('hex');
}

const SEED_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A client seed of `length` (16–256) alphanumeric characters. */
export function makeClientSeed(prng: Prng, length = 24): string {
  if (length < 16 || length > 256) throw new RangeError(`client seeds are 16–256 characters, not ${length}`);
  let s = '';
  for (let i = 0; i < length; i++) s += SEED_ALPHABET[prng.nextInt(SEED_ALPHABET.length)];
  return s;
}

/** Plies are written as i64be, so they stay below 2^63. */
const PLY_LIMIT = 2 ** 63;

/**
 * Draws the dice of consecutive plies of one game, the same dice as rollFair. The key's
 * HMAC pads and the message prefix (both seeds) are hashed once (hmac-sha256.ts); each
 * roll writes ply and block into the message's padded last block and compresses what is
 * left, with no hashing objects or buffers per roll.
 */
export class FairDice {
  private readonly hmac: PrefixedHmac;
  /** Over the HMAC's message tail, for the i64be(ply) ‖ i32be(block) fields. */
  private readonly fields: DataView;
  private readonly at: number;
  constructor(
    readonly reveal: FairnessReveal,
    readonly count = 3,
  ) {
    const msg = fairMessage(reveal.clientSeeds.white, reveal.clientSeeds.black, 0, 0);
    const key = new HmacSha256Key(Buffer.from(reveal.serverSeed, 'hex'));
    this.hmac = new PrefixedHmac(key, msg.subarray(0, msg.length - 12), 12);
    const tail = this.hmac.tail;
    this.fields = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
    this.at = this.hmac.variableOffset;
  }

  roll(ply: number, count = this.count): number[] {
    return this.rollInto(ply, [], count);
  }

  /** The dice of ply `ply` into `out`, replacing its contents; returns `out`. Lets a caller reuse one array. */
  rollInto(ply: number, out: number[], count = this.count): number[] {
    if (!Number.isInteger(ply) || ply < 0 || ply >= PLY_LIMIT) throw new RangeError(`ply must be a whole number from 0 to 2^63 - 1, not ${ply}`);
    // i64be(ply) as two 32-bit halves: no BigInt per roll.
    this.fields.setUint32(this.at, Math.floor(ply / 0x100000000));
    this.fields.setUint32(this.at + 4, ply >>> 0);
    let n = 0;
    for (let block = 0; n < count; block++) {
      this.fields.setInt32(this.at + 8, block);
      const digest = this.hmac.mac();
      for (let i = 0; i < 32 && n < count; i++) {
        const byte = digestByte(digest, i);
        if (byte < 252) out[n++] = (byte % 6) + 1;
      }
    }
    out.length = n;
    return out;
  }
}

/** A complete reveal from a server seed and two client seeds. */
export function makeReveal(serverSeedHex: string, white: string, black: string): FairnessReveal {
  return { commit: commitOf(serverSeedHex), serverSeed: serverSeedHex.toLowerCase(), clientSeeds: { white, black } };
}

/** Problem codes, named as the rule ids of src/rules/rule-ids.ts. A seed that is not hex cannot match its commit. */
export type FairnessProblemCode = 'dice.commit-mismatch' | 'dice.not-derived-from-seeds';

export type FairnessVerdict =
  | { ok: true; checked: number }
  | {
      ok: false;
      code: FairnessProblemCode;
      message: string;
      /** 0-based index into the rolls list (the turn index when rolls start at ply 0), for dice problems. */
      index: number | null;
      ply: number | null;
      expected: number[] | null;
      actual: number[] | null;
    };

export interface VerifyOptions {
  /**
   * `roll` (default): the recorded dice must equal the derived ones in order.
   * `sorted` / `unknown`: the source re-ordered them, so compare as multisets.
   */
  order?: 'roll' | 'sorted' | 'unknown';
  /** Ply of the first entry of `rolls` (default 0). */
  firstPly?: number;
}

/**
 * Checks a reveal: the seed matches the commit, and every recorded roll (one entry per
 * ply, passes included) equals the dice derived from the seeds. Stops at the first problem.
 */
export function verifyRolls(reveal: FairnessReveal, rolls: ReadonlyArray<readonly number[]>, options: VerifyOptions = {}): FairnessVerdict {
  const fail = (code: FairnessProblemCode, message: string, index: number | null = null, ply: number | null = null, expected: number[] | null = null, actual: number[] | null = null): FairnessVerdict => ({
    ok: false,
    code,
    message,
    index,
    ply,
    expected,
    actual,
  });
  if (!isHex(reveal.serverSeed)) return fail('dice.commit-mismatch', `the revealed server seed is not hex bytes, so it cannot match the commit`);
  const commit = commitOf(reveal.serverSeed);
  if (commit !== reveal.commit.toLowerCase()) {
    return fail('dice.commit-mismatch', `SHA-256 of the revealed server seed is ${commit}, but the commit was ${reveal.commit}`);
  }
  const order = options.order ?? 'roll';
  const first = options.firstPly ?? 0;
  const dice = new FairDice(reveal);
  // One array for every ply's derived dice, and one tally for unordered comparisons; copies only for a finding.
  const expected: number[] = [];
  const tally = new Int32Array(7);
  for (let i = 0; i < rolls.length; i++) {
    const actual = rolls[i];
    const ply = first + i;
    dice.rollInto(ply, expected, actual.length || 3);
    const same = order === 'roll' ? sameList(expected, actual) : sameFaces(expected, actual, tally);
    if (!same || actual.length === 0) {
      return fail(
        'dice.not-derived-from-seeds',
        `ply ${ply}: recorded dice [${actual.join(',')}] but the seeds give [${expected.join(',')}]${order === 'roll' ? '' : ' (compared unordered)'}`,
        i,
        ply,
        [...expected],
        [...actual],
      );
    }
  }
  return { ok: true, checked: rolls.length };
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Equal as multisets? `derived` holds faces 1–6; `tally` (7 counters) is scratch. Sorting copies would allocate per ply. */
function sameFaces(derived: readonly number[], recorded: readonly number[], tally: Int32Array): boolean {
  if (derived.length !== recorded.length) return false;
  tally.fill(0);
  for (let i = 0; i < derived.length; i++) tally[derived[i]]++;
  for (let i = 0; i < recorded.length; i++) {
    const face = recorded[i];
    if (!Number.isInteger(face) || face < 1 || face > 6 || tally[face]-- === 0) return false;
  }
  return true;
}
