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
  return out;
}
