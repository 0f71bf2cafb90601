import { parseDfen, parseDiceLetters, type Role } from '../core/index.js';
import { GameState, poolFits, type Rules, TurnEngine } from '../rules/index.js';
import type { ConformanceCase, Expectation } from './case-schema.js';
import { diePerft } from './die-perft.js';

/** What a dialect answers for a case: only the parts the case asks about. */
export interface CaseAnswer {
  applicable: boolean;
  reason?: string;
  firstMicroMoves?: string[];
  turns?: string[][];
  turnCount?: number;
  verdict?: 'legal' | { rule: string; microMove: number | null };
  outcome?: 'playing' | { result: string; reason: string };
  claim?: string | null;
  nodes?: number;
  passes?: number;
  allowedFlags?: boolean[];
}

const TURN_CAP = 5000;

export function answerCase(c: ConformanceCase, rules: Rules, wants: Expectation | undefined): CaseAnswer {
  // The case's DFEN may hold fewer dice than the dialect rolls (mid-turn), never more: checked below per kind.
  const parsed = parseDfen(c.dfen, { epUnderPiece: rules.enPassant.targetUnderPiece === 'survives' });
  if (!parsed.ok) return { applicable: false, reason: `${parsed.error.code}: ${parsed.error.message}` };
  const { pos, dice } = parsed.value;
  pos.castleHalfmoves = rules.draws.castlingCounts;
  pos.trackLanding = rules.turn.onePiece;
  const engine = new TurnEngine(rules);

  if (c.kind === 'die-perft') return { applicable: true, nodes: diePerft(pos, c.die ?? 1, c.depth ?? 1) };

  if (c.kind === 'roll-census') {
    if (rules.dice.count === 0) return { applicable: false, reason: 'the dialect rolls no dice' };
    let passes = 0;
    const roll: Role[] = [];
    const visit = (k: number): void => {
      if (k === rules.dice.count) {
        if (engine.legalFirstMicroMoves(pos, roll).length === 0) passes++;
        return;
      }
      for (let face = 1; face <= 6; face++) {
        roll.push(face as Role);
        visit(k + 1);
        roll.pop();
      }
    };
    visit(0);
    return { applicable: true, passes };
  }

  if (c.kind === 'game') {
    const game = GameState.start(engine, c.dfen);
    if (!game.ok) return { applicable: false, reason: game.error.message };
    for (const [i, t] of (c.turns ?? []).entries()) {
      const turnDice = t.dice === '-' ? { ok: true as const, value: [] as Role[] } : parseDiceLetters(t.dice);
      if (!turnDice.ok || turnDice.value.length !== rules.dice.count) {
        return { applicable: false, reason: `turn ${i + 1} rolls ${t.dice}; the dialect rolls ${rules.dice.count} dice` };
      }
      if (game.value.outcome) return { applicable: true, outcome: game.value.outcome, verdict: { rule: 'end.move-after-game-end', microMove: null } };
      const v = game.value.playRecorded(turnDice.value, t.moves);
      if (!v.ok) return { applicable: true, verdict: { rule: v.finding.rule, microMove: v.finding.microMove }, outcome: 'playing' };
    }
    return { applicable: true, verdict: 'legal', outcome: game.value.outcome ?? 'playing', claim: game.value.drawClaim?.reason ?? null };
  }

  // position
  const roll = dice ?? [];
  // Each-die dialects read the 7th field as the dice still to play (mid-turn allowed); others need a whole roll.
  // A roll may give the turn other dice than were rolled (a count die's moves, a piece die's count).
  if (!poolFits(rules, roll)) return { applicable: false, reason: `the case rolls ${roll.length} dice; the dialect rolls ${rules.dice.count}${rules.dice.reads === 'pieces' ? '' : `, read as ${rules.dice.reads}`}` };
  const answer: CaseAnswer = { applicable: true };
  const uci = (m: number) => engine.uci(m);
  if (!wants || wants.firstMicroMoves) answer.firstMicroMoves = engine.legalFirstMicroMoves(pos, roll).map(uci).sort();
  if (wants?.turns || wants?.turnCount !== undefined) {
    const turns = engine.legalTurns(pos, roll, TURN_CAP).map((t) => t.map(uci));
    answer.turns = sortTurns(turns);
    answer.turnCount = turns.length;
  }
  if (wants?.allowedFlags) {
    // The k-th die of a role is playable when some legal turn spends at least k dice of that role.
    const spendable = engine.spendableDice(pos, roll);
    const seen = new Int8Array(7);
    answer.allowedFlags = roll.map((face) => seen[face]++ < spendable[face]);
  }
  if (c.turn) {
    const v = engine.judge(pos, roll, c.turn);
    answer.verdict = v.ok ? 'legal' : { rule: v.finding.rule, microMove: v.finding.microMove };
  }
  return answer;
}

export const sortTurns = (turns: string[][]): string[][] => [...turns].sort((a, b) => (a.join(',') < b.join(',') ? -1 : a.join(',') > b.join(',') ? 1 : 0));

export type CaseStatus = 'pass' | 'fail' | 'unexpected-pass' | 'known-failure' | 'n/a';

/** Compares an answer with an expectation; returns the status and what differed. */
export function compare(answer: CaseAnswer, e: Expectation): { status: CaseStatus; diffs: string[] } {
  if (!answer.applicable) return { status: 'fail', diffs: [`not applicable: ${answer.reason}`] };
  const diffs: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (e.firstMicroMoves && !same(answer.firstMicroMoves, [...e.firstMicroMoves].sort())) {
    diffs.push(`first micro-moves: expected [${[...e.firstMicroMoves].sort().join(' ')}], got [${answer.firstMicroMoves?.join(' ')}]`);
  }
  if (e.turns && !same(answer.turns, sortTurns(e.turns))) {
    diffs.push(`turns: expected ${fmtTurns(sortTurns(e.turns))}, got ${fmtTurns(answer.turns ?? [])}`);
  }
  if (e.turnCount !== undefined && answer.turnCount !== e.turnCount) diffs.push(`turn count: expected ${e.turnCount}, got ${answer.turnCount}`);
  if (e.verdict !== undefined && !same(answer.verdict, e.verdict)) diffs.push(`verdict: expected ${fmtVerdict(e.verdict)}, got ${fmtVerdict(answer.verdict)}`);
  if (e.outcome !== undefined && !same(answer.outcome, e.outcome)) diffs.push(`outcome: expected ${JSON.stringify(e.outcome)}, got ${JSON.stringify(answer.outcome)}`);
  if (e.claim !== undefined && (answer.claim ?? null) !== e.claim) diffs.push(`draw claim: expected ${e.claim ?? 'none'}, got ${answer.claim ?? 'none'}`);
  if (e.nodes !== undefined && answer.nodes !== e.nodes) diffs.push(`nodes: expected ${e.nodes}, got ${answer.nodes}`);
  if (e.passes !== undefined && answer.passes !== e.passes) diffs.push(`passes: expected ${e.passes}, got ${answer.passes}`);
  if (e.allowedFlags && !same(answer.allowedFlags, e.allowedFlags)) diffs.push(`allowed flags: expected [${e.allowedFlags.join(',')}], got [${answer.allowedFlags?.join(',')}]`);
  if (e.knownFailure !== undefined) {
    return diffs.length === 0 ? { status: 'unexpected-pass', diffs: [`expected to fail (${e.knownFailure}) but passed`] } : { status: 'known-failure', diffs };
  }
  return { status: diffs.length === 0 ? 'pass' : 'fail', diffs };
}

const fmtTurns = (t: string[][]): string => `[${t.map((x) => (x.length ? x.join(',') : 'pass')).join(' | ')}]`;

export function fmtVerdict(v: CaseAnswer['verdict']): string {
  if (v === undefined) return '—';
  if (v === 'legal') return 'legal';
  return v.microMove === null ? v.rule : `${v.rule}@${v.microMove}`;
}

/** One short cell text for the matrix: what the dialect says about this case. */
export function summarise(a: CaseAnswer): string {
  if (!a.applicable) return 'n/a';
  if (a.nodes !== undefined) return `${a.nodes} nodes`;
  if (a.passes !== undefined) return `${a.passes} passes`;
  if (a.outcome !== undefined && a.outcome !== 'playing') return `${a.outcome.result} (${a.outcome.reason})`;
  if (a.verdict !== undefined) return a.claim ? `${fmtVerdict(a.verdict)}, ${a.claim} claimable` : fmtVerdict(a.verdict);
  if (a.allowedFlags) return `allowed ${a.allowedFlags.map((f) => (f ? 'y' : 'n')).join('')}`;
  if (a.outcome === 'playing') return 'playing';
  if (a.firstMicroMoves) return a.firstMicroMoves.length === 0 ? 'pass' : `${a.firstMicroMoves.length} first moves`;
  return '—';
}
