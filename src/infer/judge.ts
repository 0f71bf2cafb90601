import { makeDiceLetters, type Role } from '../core/index.js';
import { loadDialect } from '../dialects/load.js';
import type { GameRecord } from '../records/game-record.js';
import type { ReadItem } from '../records/items.js';
import { earnedIncrementMs } from '../replay/clock-rule.js';
import { judgeFairness, type PreparedDialect, prepareDialect, replayGame } from '../replay/replay-game.js';
import type { GameResultLine } from '../replay/result.js';
import type { StatefulJudge } from '../run/batch.js';
import { GameState, type Outcome, type TurnEngine } from '../rules/index.js';
import { opportunityKind, type TurnTestStats, turnOpportunities } from './opportunities/turn-tests.js';
import { emptyTally, EXAMPLES, type Example, type InferTally } from './tally.js';

/** A dialect as a worker finds it again: a file or name, plus `--set` overrides. */
export interface DialectSpec {
  name: string;
  overrides: string[];
}

/**
 * What every worker needs to judge a record: the base dialect, the options with their
 * candidate values (as `--set` texts; `baseIndex` is the base dialect's own value, judged
 * by the base dialect itself), the named dialects, or for the confirmation pass the one
 * dialect with every inferred value.
 */
export interface InferPlan {
  base: DialectSpec;
  options: Array<{ path: string; values: unknown[]; sets: string[]; baseIndex: number }>;
  named: DialectSpec[];
  confirm?: DialectSpec;
}

interface Prepared {
  variants: PreparedDialect[];
  /** [option][value] → variant index. */
  optionVariant: number[][];
  namedVariant: number[];
}

const dialects = new Map<string, PreparedDialect>();
const plans = new Map<string, Prepared>();

/** Loads (once per thread) a dialect the plan names. Failure is a bug: the main thread loaded every one of them. */
function prepared(spec: DialectSpec): PreparedDialect {
  const key = `${spec.name}\u0000${spec.overrides.join('\u0000')}`;
  let d = dialects.get(key);
  if (!d) {
    const loaded = loadDialect(spec.name, spec.overrides);
    if (!loaded.ok) throw new Error(`dialect ${spec.name} ${spec.overrides.join(' ')}: ${loaded.error.map((p) => p.message).join('; ')}`);
    d = prepareDialect(loaded.value.name, loaded.value.rules);
    dialects.set(key, d);
  }
  return d;
}

/** Every distinct dialect variant of a plan, judged once per record; the base is variant 0. */
function prepare(plan: InferPlan): Prepared {
  const key = JSON.stringify(plan);
  const hit = plans.get(key);
  if (hit) return hit;
  const specs: DialectSpec[] = [];
  const indexOf = (spec: DialectSpec): number => {
    const k = JSON.stringify(spec);
    const i = specs.findIndex((s) => JSON.stringify(s) === k);
    if (i >= 0) return i;
    specs.push(spec);
    return specs.length - 1;
  };
  indexOf(plan.base);
  const optionVariant = plan.options.map((o) =>
    o.sets.map((set, j) => (j === o.baseIndex ? 0 : indexOf({ name: plan.base.name, overrides: [...plan.base.overrides, set] }))),
  );
  const namedVariant = plan.named.map(indexOf);
  const p = { variants: specs.map(prepared), optionVariant, namedVariant };
  plans.set(key, p);
  return p;
}

const now = (): number => performance.now();

/**
 * The infer judge for the run pipeline (`runCorpus`, in worker threads or this one):
 * every record once per variant, in the same task, and opportunities for the values each
 * game conforms under. It emits no result lines: its outcome is the batch's InferTally,
 * handed over per batch and merged in input order with `mergeTally`.
 */
export function createJudge(plan: InferPlan): StatefulJudge<InferTally> {
  const fresh = (): InferTally => emptyTally(plan.named.length, plan.options.map((o) => o.values.length));
  let tally = fresh();
  const confirm = plan.confirm ? prepared(plan.confirm) : null;
  const p = confirm ? null : prepare(plan);
  const judgeItem = (item: ReadItem, _emit: unknown, corpus: string | null): void => {
    if (item.kind === 'unreadable') {
      tally.unreadable++;
      tally.unreadableCodes[item.code] = (tally.unreadableCodes[item.code] ?? 0) + 1;
      if (tally.unreadableExamples.length < EXAMPLES) tally.unreadableExamples.push({ index: item.index, location: item.location ?? item.source, code: item.code, message: item.message });
      return;
    }
    tally.games++;
    if (confirm) {
      const t0 = now();
      if (judgedClean(replayGame(item.record, confirm, item.index))) tally.confirmation++;
      tally.judgeMs += now() - t0;
      return;
    }
    judgeRecord(item.record, item.index, corpus ?? '(unknown)', plan, p!, tally);
  };
  return {
    judge: judgeItem,
    takeState: () => {
      const t = tally;
      tally = fresh();
      return t;
    },
  };
}

function judgeRecord(record: GameRecord, index: number, corpus: string, plan: InferPlan, p: Prepared, tally: InferTally): void {
  const t0 = now();
  // The fairness reveal does not depend on the dialect: verified once.
  const opts = { fairness: judgeFairness(record) };
  const lines = p.variants.map((v) => replayGame(record, v, index, opts));
  const ok = lines.map(judgedClean);
  if (ok[0]) tally.baseConforming++;
  p.namedVariant.forEach((v, n) => ok[v] && tally.named[n]++);
  const conforming = p.optionVariant.map((vs) => vs.map((v) => ok[v]));
  conforming.forEach((conf, i) => {
    const count = conf.filter(Boolean).length;
    conf.forEach((c, j) => {
      const t = tally.options[i][j];
      const line = lines[p.optionVariant[i][j]];
      const byCorpus = (t.byCorpus[corpus] ??= [0, 0]);
      if (c) {
        t.conforming++;
        byCorpus[0]++;
      } else {
        t.diverging++;
        const rule = line.findings[0]?.rule ?? 'unknown';
        t.rules[rule] = (t.rules[rule] ?? 0) + 1;
        if (t.divergingExample === null) t.divergingExample = exampleOf(record, index, 'diverging', j, line, p.variants[p.optionVariant[i][j]]);
      }
      if (c && count === 1) {
        t.decisive++;
        byCorpus[1]++;
        if (t.decisiveExamples.length < EXAMPLES) {
          // The rival that parts first shows the difference best.
          const rival = conf.map((_, k) => k).filter((k) => k !== j).sort((a, b) => firstTurn(lines[p.optionVariant[i][a]]) - firstTurn(lines[p.optionVariant[i][b]]))[0];
          tally.options[i][j].decisiveExamples.push(exampleOf(record, index, 'decisive', rival, lines[p.optionVariant[i][rival]], p.variants[p.optionVariant[i][j]]));
        }
      }
    });
  });
  const t1 = now();
  tally.judgeMs += t1 - t0;
  countOpportunities(record, plan, p, ok, conforming, tally);
  tally.opportunityMs += now() - t1;
}

/**
 * No rule divergence under this value: conforming, or faulty (a recording fault hides the play
 * from some point; up to it the record conforms). A recording fault is never evidence against a
 * value; normalised faults were repaired by the reader before any value judged the record.
 */
const judgedClean = (line: GameResultLine): boolean => line.status === 'conforming' || line.status === 'faulty';

const firstTurn = (line: GameResultLine): number => line.findings[0]?.turn ?? Infinity;

/**
 * The evidence of one finding, at the start of its turn when `check` can judge that turn
 * alone: the game is walked to that turn under `walker` (a value it conforms under up
 * to there).
 */
function exampleOf(record: GameRecord, index: number, kind: Example['kind'], findingValue: number, line: GameResultLine, walker: PreparedDialect): Example {
  const f = line.findings[0];
  const base: Example = {
    id: record.id,
    index,
    location: f?.location ?? record.location,
    kind,
    findingValue,
    rule: f?.rule ?? 'unknown',
    message: f?.message ?? '',
    turn: f?.turn ?? null,
    dfen: f?.dfen ?? null,
    dice: f?.dice ?? null,
    recorded: f?.recorded ?? [],
    checkable: false,
  };
  if (!f || f.turn === null || f.microMove === null || f.turn > record.turns.length) return base;
  const start = turnStart(record, walker.engine, f.turn);
  if (start === null) return base;
  const turn = record.turns[f.turn - 1];
  return { ...base, dfen: start, dice: makeDiceLetters(turn.dice as Role[], turn.side === 'w' ? 0 : 1), recorded: turn.moves.slice(), checkable: true };
}

/** The DFEN before turn `n` (1-based), with its dice; null when an earlier turn cannot be played. */
function turnStart(record: GameRecord, engine: TurnEngine, n: number): string | null {
  const started = GameState.start(engine, record.startFen);
  if (!started.ok) return null;
  const game = started.value;
  for (let t = 0; t < n - 1; t++) {
    const turn = record.turns[t];
    const v = game.playRecorded(turn.dice as Role[], turn.moves, false);
    if (!v.ok) return null;
    game.completeTurn(v);
  }
  return game.dfen(record.turns[n - 1].dice as Role[]);
}

const PARTIAL_ENDS = new Set(['timeout', 'resign', 'draw_agreement', 'unknown']);

const sameOutcome = (a: Outcome | null, b: Outcome | null): boolean => (a === null ? b === null : b !== null && a.result === b.result && a.reason === b.reason);

/**
 * Walks a game once (its turns are legal under every value it conforms under, so the
 * positions are the same under all of them) and counts, per option, the turns at which a
 * rival value would have allowed what a conforming value forbids.
 */
function countOpportunities(record: GameRecord, plan: InferPlan, p: Prepared, ok: boolean[], conforming: boolean[][], tally: InferTally): void {
  const counted = plan.options.map((o, i) => (conforming[i].some(Boolean) ? opportunityKind(o.path) : 'none'));
  if (counted.every((k) => k === 'none')) return;
  const walkerIndex = ok[0] ? 0 : p.optionVariant.flat().find((v) => ok[v]);
  if (walkerIndex === undefined) return;
  const started = GameState.start(p.variants[walkerIndex].engine, record.startFen);
  if (!started.ok) return;
  const game = started.value;
  const engines = p.optionVariant.map((vs) => vs.map((v) => p.variants[v].engine));
  const out = plan.options.map((o) => o.values.map(() => new Array<number>(o.values.length).fill(0)));
  const stats: TurnTestStats = { cheap: 0, exact: 0 };
  // Outcome options: one game state per value, playing the same moves, to see where each would end the game.
  const states = counted.map((kind, i) => (kind === 'outcome' ? engines[i].map((e) => GameState.start(e, record.startFen)) : null));
  const ended = states.map((s) => (s ? s.map(() => false) : null));
  const tc = record.timeControl;
  const clockUsable = tc !== null && (tc.kind === 'fischer' || tc.kind === 'sudden-death') && tc.initialMs !== null;
  const increment = tc?.incrementMs ?? 0;

  for (let t = 0; t < record.turns.length; t++) {
    if (game.outcome) break;
    const turn = record.turns[t];
    const dice = turn.dice as Role[];
    const partial = t === record.turns.length - 1 && PARTIAL_ENDS.has(record.termination) && record.format !== 'opening-book';
    counted.forEach((kind, i) => {
      const conf = conforming[i];
      if (kind === 'turn' && !partial) turnOpportunities(plan.options[i].path, plan.options[i].values, engines[i], game.pos, dice, turn.moves, conf, out[i], stats);
      if (kind === 'clock' && clockUsable && turn.thinkingMs !== null && turn.clockMs?.[turn.side] != null) {
        const rules = engines[i].map((e) => e.rules);
        const earned = rules.map((r) => earnedIncrementMs(r, turn, partial, increment));
        const pass = turn.moves.length === 0 && !partial;
        conf.forEach((c, j) => {
          if (!c) return;
          rules.forEach((r, k) => {
            if (k !== j && (earned[j] !== earned[k] || (pass && rules[j].clock.passesFree && !r.clock.passesFree))) out[i][j][k]++;
          });
        });
      }
    });
    const verdict = game.playRecorded(dice, turn.moves, partial);
    if (!verdict.ok) break;
    game.completeTurn(verdict);
    if (!verdict.complete) break;
    states.forEach((s, i) => {
      if (!s) return;
      const done = ended[i]!;
      s.forEach((r) => {
        if (r.ok) r.value.play(verdict.moves);
      });
      const outcome = s.map((r) => (r.ok ? r.value.outcome : null));
      conforming[i].forEach((c, j) => {
        if (!c || done[j]) return;
        outcome.forEach((o, k) => {
          if (k !== j && !done[k] && !sameOutcome(outcome[j], o)) out[i][j][k]++;
        });
      });
      outcome.forEach((o, k) => o !== null && (done[k] = true));
    });
  }
  out.forEach((matrix, i) => matrix.forEach((row, j) => row.forEach((n, k) => (tally.options[i][j].opportunities[k] += n))));
  tally.cheapTurns += stats.cheap;
  tally.exactTurns += stats.exact;
}
