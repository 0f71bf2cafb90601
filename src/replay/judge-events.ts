import type { GameRecord } from '../records/model/game-record.js';
import type { RuleId, Rules } from '../rules/index.js';

export interface EventFinding {
  rule: RuleId;
  /** The recorded event, e.g. DOUBLE_OFFER. */
  event: string;
  turn: number;
  microMove: number | null;
  message: string;
}

/**
 * Draw offers and the doubling cube against the dialect: offers where there are no draws
 * by agreement, mid-turn offers, cube use where there is none, offers that are not "before
 * rolling", ownership and the cap.
 */
export function judgeEvents(record: GameRecord, rules: Rules): EventFinding[] {
  const out: EventFinding[] = [];
  let cube = 1;
  let owner: 'w' | 'b' | null = null; // null = centred
  let pendingFrom: 'w' | 'b' | null = null;
  for (const e of record.events) {
    const at = { turn: e.turn, microMove: e.microMove, event: e.type };
    if (e.type === 'DRAW_OFFER' && !rules.draws.agreement) {
      out.push({ rule: 'draw.offer-not-allowed', ...at, message: `a draw offered at turn ${e.turn}; this dialect has no draws by agreement` });
      continue;
    }
    if (e.type === 'DRAW_OFFER' && (e.microMove ?? 0) > 0 && !rules.draws.midTurnOffers) {
      out.push({ rule: 'draw.offer-not-allowed', ...at, message: `a draw offer after micro-move ${e.microMove} of turn ${e.turn}; this dialect takes offers only between turns` });
      continue;
    }
    if (!e.type.startsWith('DOUBLE_')) continue;
    if (!rules.cube.enabled) {
      out.push({ rule: 'cube.not-allowed', ...at, message: `${e.type.toLowerCase().replace('_', ' ')} in a dialect without a doubling cube` });
      break;
    }
    if (e.type === 'DOUBLE_OFFER') {
      if ((e.microMove ?? 0) > 0) {
        out.push({ rule: 'cube.not-allowed', ...at, message: 'a double offered mid-turn; it must be offered before rolling' });
        break;
      }
      if (rules.cube.ownership === 'centered-last-taker' && owner !== null && e.actor !== null && e.actor !== owner) {
        out.push({ rule: 'cube.not-allowed', ...at, message: `${e.actor === 'w' ? 'white' : 'black'} redoubles, but only the last taker (${owner === 'w' ? 'white' : 'black'}) may` });
        break;
      }
      if (rules.cube.cap !== null && cube * 2 > rules.cube.cap) {
        out.push({ rule: 'cube.not-allowed', ...at, message: `a double to ${cube * 2} passes the cube cap of ${rules.cube.cap}` });
        break;
      }
      pendingFrom = e.actor;
    } else if (e.type === 'DOUBLE_ACCEPT') {
      cube *= 2;
      owner = e.actor ?? (pendingFrom === 'w' ? 'b' : pendingFrom === 'b' ? 'w' : null);
      pendingFrom = null;
    }
  }
  if (out.length === 0 && rules.cube.enabled) out.push(...judgeDeclineCost(record, rules));
  return out;
}

type DeclineLoses = Rules['cube']['declineLoses'];
const stakeWords = (v: DeclineLoses): string => (v === 'pre-offer-stake' ? 'pre-offer stake' : 'post-offer stake');

/** What the decline of a game ended by a declined double cost under each value of `cube.declineLoses` (docs/rules.md §4), or null when the record cannot say (no stake, no decline). */
export function declineCosts(record: GameRecord): { decliner: 'w' | 'b'; turn: number; costs: Record<DeclineLoses, number> } | null {
  const stake = record.stakes?.initial ?? null;
  if (record.termination !== 'double_declined' || stake === null || stake <= 0) return null;
  let at = record.events.length - 1;
  while (at >= 0 && record.events[at].type !== 'DOUBLE_DECLINE') at--;
  if (at < 0) return null;
  const decline = record.events[at];
  const decliner = decline.actor ?? (record.result === 'white' ? 'b' : record.result === 'black' ? 'w' : null);
  if (decliner === null) return null;
  const cube = 2 ** record.events.slice(0, at).filter((e) => e.type === 'DOUBLE_ACCEPT').length;
  return { decliner, turn: decline.turn, costs: { 'pre-offer-stake': stake * cube, 'post-offer-stake': stake * cube * 2 } };
}

/**
 * What the record states a decline cost, read as a value of `cube.declineLoses`: the settled
 * amount (the history list's moneyDelta) when it is exactly what one value makes the
 * decliner lose or the winner win (a site fee would make it neither: nothing stated), and a
 * final stake the source states (the ingest wire's final_stake_amount) when it is the
 * post-offer stake, which a declined double leaves no other way to reach. A final stake equal
 * to the pre-offer stake states nothing: it is the cube's stake under either value. Each
 * statement with the words for it.
 */
export function statedDeclineCosts(record: GameRecord, d = declineCosts(record)): Array<{ value: DeclineLoses; words: string }> {
  if (!d) return [];
  const out: Array<{ value: DeclineLoses; words: string }> = [];
  const name = (s: 'w' | 'b'): string => (s === 'w' ? 'white' : 'black');
  const settled = record.stakes?.settled ?? null;
  if (settled) {
    const sign = settled.side === d.decliner ? -1 : 1;
    for (const value of ['pre-offer-stake', 'post-offer-stake'] as const) {
      if (settled.amount === sign * d.costs[value]) out.push({ value, words: `${name(settled.side)}'s money changed by ${settled.amount} (the ${stakeWords(value)} of ${d.costs[value]})` });
    }
  }
  const final = record.stakes?.final ?? null;
  if (record.format === 'ingest-wire' && final !== null && final === d.costs['post-offer-stake']) {
    out.push({ value: 'post-offer-stake', words: `the final stake is ${final}, twice the pre-offer stake of ${d.costs['pre-offer-stake']}` });
  }
  return out;
}

/** A record that states a decline cost other than this dialect's (`cube.declineLoses`). */
function judgeDeclineCost(record: GameRecord, rules: Rules): EventFinding[] {
  const own = rules.cube.declineLoses;
  const d = declineCosts(record);
  const against = statedDeclineCosts(record, d).find((s) => s.value !== own);
  if (!d || !against) return [];
  return [{ rule: 'cube.decline-cost', event: 'DOUBLE_DECLINE', turn: d.turn, microMove: null, message: `${d.decliner === 'w' ? 'white' : 'black'} declined a double and ${against.words}; in this dialect a decline loses the ${stakeWords(own)} (${d.costs[own]})` }];
}
