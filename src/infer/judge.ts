import { makeDiceLetters, type Role } from '../core/index.js';
import type { GameRecord } from '../records/model/game-record.js';
import type { ReadItem } from '../records/items.js';
import type { DialectSpec } from '../replay/judge-record.js';
import { judgeFairness, type PreparedDialect, prepareDialect, replayGame } from '../replay/replay-game.js';
import type { GameResultLine } from '../replay/result.js';
import type { StatefulJudge } from '../run/batch.js';
import { GameState, type TurnEngine } from '../rules/index.js';
import { walkGame, type WalkOption } from './opportunities/game-walk.js';
import { opportunityKind } from './opportunities/turn-tests.js';
import { emptyGroup, emptyTally, EXAMPLES, type Example, type GroupTally, type InferTally } from './tally.js';

/**
 * What every worker needs to judge a record: the base dialect, the options with their
 * candidate values (each value's dialect as the main thread resolved it, `dialects[baseIndex]`
 * being the base dialect itself, judged as the base), the named dialects, or for the
 * confirmation pass the one dialect with every inferred value.
 */
export interface InferPlan {
  base: DialectSpec;
  options: Array<{ path: string; values: unknown[]; dialects: DialectSpec[]; baseIndex: number }>;
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

/** A dialect the plan names, ready to judge (one turn engine per thread for each). */
function prepared(spec: DialectSpec): PreparedDialect {
  const key = `${spec.name}\u0000${spec.overrides.join('\u0000')}`;
  let d = dialects.get(key);
  if (!d) {
    d = prepareDialect(spec.label, spec.rules);
    dialects.set(key, d);
  }
  return d;
}

/** Every distinct dialect variant of a plan (told apart by file and overrides), judged once per record; the base is variant 0. */
function prepare(plan: InferPlan): Prepared {
  const key = JSON.stringify(plan);
  const hit = plans.get(key);
  if (hit) return hit;
  const specs: DialectSpec[] = [];
  const indexOf = (spec: DialectSpec): number => {
    const i = specs.findIndex((s) => s.name === spec.name && s.overrides.length === spec.overrides.length && s.overrides.every((o, k) => o === spec.overrides[k]));
    if (i >= 0) return i;
    specs.push(spec);
    return specs.length - 1;
  };
  indexOf(plan.base);
  const optionVariant = plan.options.map((o) => o.dialects.map((spec, j) => (j === o.baseIndex ? 0 : indexOf(spec))));
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
  const sizes = plan.options.map((o) => o.values.length);
  const groups = [`source ${corpus}`, `month ${monthOf(record)}`].map((key) => (tally.groups[key] ??= emptyGroup(sizes)));
  for (const g of groups) g.games++;
  conforming.forEach((conf, i) => {
    const count = conf.filter(Boolean).length;
    conf.forEach((c, j) => {
      const t = tally.options[i][j];
      if (c) for (const g of groups) g.options[i][j].conforming++;
      if (c && count === 1) for (const g of groups) g.options[i][j].decisive++;
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
  countOpportunities(record, index, plan, p, ok, conforming, tally, groups);
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
    if (!game.playRecorded(turn.dice as Role[], turn.moves).ok) return null;
  }
  return game.dfen(record.turns[n - 1].dice as Role[]);
}

/** The month a game started in (YYYY-MM), or "unknown". */
export function monthOf(record: GameRecord): string {
  const m = /^(\d{4})-(\d{2})/.exec(record.startedAt ?? '');
  return m ? `${m[1]}-${m[2]}` : 'unknown';
}

/**
 * Counts, per option, the turns at which a rival value would have allowed what a
 * conforming value forbids (see walkGame), adds them to the option's values and to the
 * game's groups (its corpus file and its month), with the first example of each pair.
 */
function countOpportunities(record: GameRecord, index: number, plan: InferPlan, p: Prepared, ok: boolean[], conforming: boolean[][], tally: InferTally, groups: GroupTally[]): void {
  const kinds = plan.options.map((o, i) => (conforming[i].some(Boolean) ? opportunityKind(o.path) : 'none'));
  if (kinds.every((k) => k === 'none')) return;
  const walkerIndex = ok[0] ? 0 : p.optionVariant.flat().find((v) => ok[v]);
  if (walkerIndex === undefined) return;
  const options: WalkOption[] = plan.options.map((o, i) => ({
    path: o.path,
    values: o.values,
    kind: kinds[i],
    engines: p.optionVariant[i].map((v) => p.variants[v].engine),
    conforming: conforming[i],
    wantExample: tally.options[i].map((t) => t.opportunityExamples.map((e) => e === null)),
  }));
  const found = walkGame(record, p.variants[walkerIndex].engine, index, options);
  if (!found) return;
  found.turns.forEach((matrix, i) =>
    matrix.forEach((row, j) =>
      row.forEach((n, k) => {
        if (n === 0) return;
        const t = tally.options[i][j];
        const sum = found.chance[i][j]?.[k] ?? 0;
        const max = found.chanceMax[i][j]?.[k] ?? 0;
        t.opportunities[k] += n;
        t.opportunityGames[k]++;
        t.chance[k] += sum;
        t.chancePerGame[k] += max;
        for (const g of groups) {
          const gv = g.options[i][j];
          gv.opportunities[k] += n;
          gv.opportunityGames[k]++;
          gv.chance[k] += sum;
          gv.chancePerGame[k] += max;
        }
        const ex = found.examples[i][j][k];
        if (ex && t.opportunityExamples[k] === null) t.opportunityExamples[k] = ex;
      }),
    ),
  );
  tally.cheapTurns += found.stats.cheap;
  tally.exactTurns += found.stats.exact;
}
