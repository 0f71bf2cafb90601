import type { GameRecord } from '../records/model/game-record.js';
import type { Position } from '../core/index.js';
import { canWin, type Outcome, type RuleId, type Rules, TERMINATION_OF } from '../rules/index.js';

export interface EndFinding {
  rule: RuleId;
  message: string;
}

const BOARD_ENDS = new Set(['king_captured', 'checkmate', 'draw_rule', 'stalemate']);

const winnerText = (r: GameRecord['result']): string => (r === null ? 'no result' : r === 'draw' ? 'a draw' : `${r} winning`);

/**
 * Does the recorded result and termination follow from the board and the dialect?
 * `outcome` is what the dialect decided after the last recorded turn (null: the game
 * was still going, so only a non-board ending can explain its end); `claim` is the draw
 * a player could claim there (`draws.ruleDraws: "claim"`).
 */
export function judgeEnd(record: GameRecord, rules: Rules, outcome: Outcome | null, pos: Position, claim: Outcome | null = null): EndFinding | null {
  const term = record.termination;
  const result = record.result;
  if (outcome) {
    const want = TERMINATION_OF[outcome.reason];
    if (result !== outcome.result) {
      return { rule: 'end.result-mismatch', message: `the board ends the game in ${outcome.reason.replace(/[-_]/g, ' ')} (${winnerText(outcome.result)}), but the record says ${winnerText(result)}` };
    }
    if (term !== want && term !== 'unknown') {
      if (outcome.result === 'draw' && !BOARD_ENDS.has(term)) {
        return { rule: 'end.automatic-draw-missing', message: `the dialect draws the game automatically (${outcome.reason.replace(/[-_]/g, ' ')}), but the record ends by ${term}` };
      }
      return { rule: 'end.result-mismatch', message: `the board ends the game by ${outcome.reason.replace(/[-_]/g, ' ')}, but the record's termination is ${term}` };
    }
    return null;
  }
  // The dialect did not end the game: only an outside event can have.
  switch (term) {
    case 'king_captured':
    case 'checkmate':
      return { rule: 'end.result-mismatch', message: `the record ends by ${term.replace('_', ' ')}, but no such thing happened on the board` };
    case 'draw_rule':
      if (claim) {
        return result === 'draw' ? null : { rule: 'end.result-mismatch', message: `a draw claimed by ${claim.reason.replace(/[-_]/g, ' ')}, but the record says ${winnerText(result)}` };
      }
      if (rules.draws.ruleDraws === 'claim' && (rules.draws.repetition !== null || rules.draws.moveCounterLimit !== null)) {
        return { rule: 'end.unknown-draw', message: 'the record ends in a draw by rule, but in this position neither a repetition nor the move counter lets a player claim one' };
      }
      return { rule: 'end.unknown-draw', message: `the record ends in an automatic draw (${term.replace('_', ' ')}) that this dialect does not reach in this position` };
    case 'stalemate':
      return { rule: 'end.unknown-draw', message: `the record ends in an automatic draw (${term.replace('_', ' ')}) that this dialect does not reach in this position` };
    case 'draw_agreement':
      if (!rules.draws.agreement) return { rule: 'end.unknown-draw', message: 'the record ends in an agreed draw, which this dialect does not have' };
      if (result !== 'draw') return { rule: 'end.result-mismatch', message: `an agreed draw, but the record says ${winnerText(result)}` };
      return null;
    case 'timeout': {
      if (rules.end.flagFall === 'loss') {
        return result === 'draw' ? { rule: 'end.result-mismatch', message: 'a flag fall is always a loss in this dialect, but the record says a draw' } : null;
      }
      if (result === null || result === 'draw') return null;
      // Loss unless the opponent cannot mate (or win at all): a win for a side without the material should have been a draw.
      return canWin(pos, result === 'white' ? 0 : 1, rules) ? null : { rule: 'end.result-mismatch', message: `${result} wins on time without ${rules.draws.insufficientMaterial === 'cannot-win' ? 'winning' : 'mating'} material; this dialect scores that a draw` };
    }
    case 'resign':
      if (!rules.end.resignation) return { rule: 'end.result-mismatch', message: 'the record ends by resignation, which this dialect does not have' };
      if (result === 'draw') return { rule: 'end.result-mismatch', message: 'a resignation cannot be a draw' };
      return null;
    case 'double_declined':
      return judgeDeclinedDouble(record, rules);
    default:
      return null;
  }
}

function judgeDeclinedDouble(record: GameRecord, rules: Rules): EndFinding | null {
  if (!rules.cube.enabled) return { rule: 'end.double-declined', message: 'the record ends by a declined double, but this dialect has no doubling cube' };
  const decline = [...record.events].reverse().find((e) => e.type === 'DOUBLE_DECLINE');
  if (!decline || decline.actor === null) return null;
  const winner = decline.actor === 'w' ? 'black' : 'white';
  if (record.result !== winner) {
    return { rule: 'end.double-declined', message: `${decline.actor === 'w' ? 'white' : 'black'} declined the double and so loses, but the record says ${winnerText(record.result)}` };
  }
  return null;
}
