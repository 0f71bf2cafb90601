import type { Player, TimeControl } from '../records/model/game-record.js';
import type { Prng } from '../dice/index.js';
import type { Rules } from '../rules/index.js';
import type { BotStyle } from './bots.js';

/**
 * Game-level metadata of generated records: ids, start times, players, time controls,
 * stakes. Everything is drawn from the game's own generator, so a game's metadata
 * depends only on the corpus seed and its index.
 */

/** Corpora start on this instant; game i starts about i × 45 s later. */
export const CORPUS_EPOCH_MS = Date.UTC(2026, 0, 1, 0, 0, 0);
const GREGORIAN_OFFSET_MS = 12_219_292_800_000n;

/** A UUID version 1 for a creation time (ms), with clock sequence and node drawn from `prng`. */
export function uuidV1(timeMs: number, prng: Prng): string {
  const t = (BigInt(timeMs) + GREGORIAN_OFFSET_MS) * 10_000n + BigInt(prng.nextInt(10_000));
  const timeLow = t & 0xffff_ffffn;
  const timeMid = (t >> 32n) & 0xffffn;
  const timeHi = ((t >> 48n) & 0x0fffn) | 0x1000n;
  const clockSeq = 0x8000 | prng.nextInt(0x4000);
  const node = prng.bytes(6);
  node[0] |= 0x01; // multicast bit: a random node, not a MAC address (RFC 4122 §4.5)
  const hex = (v: bigint | number, width: number): string => v.toString(16).padStart(width, '0');
  return `${hex(timeLow, 8)}-${hex(timeMid, 4)}-${hex(timeHi, 4)}-${hex(clockSeq, 4)}-${node.toString('hex')}`;
}

/** ISO-8601 UTC without milliseconds, as the sources write it. */
export const isoSeconds = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export function startTimeMs(index: number, prng: Prng): number {
  return CORPUS_EPOCH_MS + index * 45_000 + prng.nextInt(45_000);
}

const NAMES = [
  'alice', 'bob', 'carmen', 'dmitri', 'eve', 'farid', 'greta', 'hiro', 'ines', 'jonas', 'kemal', 'lena', 'mateo', 'nadia',
  'oskar', 'priya', 'quinn', 'rosa', 'sven', 'tariq', 'ursula', 'viktor', 'wen', 'ximena', 'yusuf', 'zoe',
];

const BOT_RATING: Record<BotStyle, number> = { random: 850, greedy: 1450 };

/** A player: a house bot (negative id, named after its style) or a human (positive id, sometimes anonymous). */
export function makePlayer(style: BotStyle, prng: Prng): Player {
  if (prng.chance(0.3)) {
    return { id: String(-(1 + prng.nextInt(60))), name: `house ${style}`, kind: 'bot', rating: BOT_RATING[style] + prng.nextInt(5) * 10 };
  }
  const name = prng.chance(0.1) ? null : `${prng.pick(NAMES)}${prng.nextInt(1000)}`;
  // Roughly normal ratings around 1500 (sum of three uniforms).
  const rating = Math.round(900 + (prng.next() + prng.next() + prng.next()) * 400);
  return { id: String(1 + prng.nextInt(99_999)), name, kind: 'human', rating };
}

/** Parses "180+2" (seconds). */
export function parseControl(text: string): { initialMs: number; incrementMs: number } | null {
  const m = /^(\d+)\+(\d+)$/.exec(text.trim());
  return m ? { initialMs: Number(m[1]) * 1000, incrementMs: Number(m[2]) * 1000 } : null;
}

/** One of the dialect's time controls, or unlimited when it documents none. */
export function pickTimeControl(rules: Rules, prng: Prng): TimeControl {
  const controls = rules.clock.controls.map(parseControl).filter((c): c is { initialMs: number; incrementMs: number } => c !== null);
  if (controls.length === 0) return { kind: 'unlimited', initialMs: null, incrementMs: null, perMoveMs: null };
  const c = prng.pick(controls);
  return c.incrementMs > 0
    ? { kind: 'fischer', initialMs: c.initialMs, incrementMs: c.incrementMs, perMoveMs: null }
    : { kind: 'sudden-death', initialMs: c.initialMs, incrementMs: 0, perMoveMs: null };
}

const STAKES = [0, 5, 10, 10, 25, 50, 100, 250];

/** Each player's stake (the bank is twice that); 0 = a tournament game. */
export const pickStake = (prng: Prng): number => prng.pick(STAKES);

/** The site a dialect's games come from, as records name it. */
export function siteOf(dialect: string): string | null {
  switch (dialect) {
    case 'dicechess-com':
      return 'dicechess.com';
    case 'reference':
      return 'fortemate';
    case 'beturanga':
      return 'beturanga.com';
    case 'brainking-one-die':
      return 'brainking.com';
    default:
      return null;
  }
}
