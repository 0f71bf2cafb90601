import type { Finding, GameResultLine } from '../../replay/result.js';
import type { RunInfo } from '../summary-schema.js';
import type { DiceTurn } from '../../run/dice-stats.js';

/** Hand-written result lines: several dialects, classes, an unreadable, conforming ones, and hostile text. */

export const DIALECTS = ['reference', 'dicechess-com', 'wikipedia-two-dice'];
export const HOSTILE = '<script>alert("x")</script>';

function finding(partial: Partial<Finding> & Pick<Finding, 'rule' | 'message'>): Finding {
  return { turn: null, microMove: null, dfen: null, dice: null, recorded: [], allowed: [], location: null, ...partial };
}

function line(id: string, dialect: string, index: number, source: string | null, findings: Finding[], status?: GameResultLine['status']): GameResultLine {
  return { id, dialect, index, source, turns: 12, findings, status: status ?? (findings.length ? 'diverging' : 'conforming') };
}

export const MAX_PNN = finding({
  rule: 'maximum.fewer-dice',
  turn: 7,
  microMove: 0,
  dfen: '8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1 PNN',
  dice: 'PNN',
  recorded: ['e7e8q'],
  allowed: [['e7e8n', 'e8g7']],
  message: 'the turn spends 1 die but 3 can be spent',
  location: 'corpora/a.ndjson:3',
});

export const NOT_ROLLED = finding({
  rule: 'dice.piece-not-rolled',
  turn: 1,
  microMove: 1,
  dfen: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1 NB',
  dice: 'PNB',
  recorded: ['e2e4', 'd1h5', 'f1c4'],
  allowed: [['g1f3', 'f1c4'], ['b1c3', 'f1b5'], ['f1c4', 'g1f3'], ['g1h3', 'f1e2']],
  message: 'no queen die was rolled',
  location: 'corpora/a.ndjson:4',
});

export const HOSTILE_FINDING = finding({
  rule: 'dice.piece-not-rolled',
  turn: 3,
  microMove: 0,
  dfen: 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 KR`$(touch x)',
  dice: 'KR',
  recorded: ['e1g1'],
  allowed: [],
  message: `played ${HOSTILE} & <img src=x onerror=alert(1)> | a "quoted" pipe`,
  location: 'evil|file.csv:9',
});

export function sampleLines(): GameResultLine[] {
  const a = 'corpora/a.ndjson';
  const b = 'corpora/b.csv';
  return [
    line('g1', 'reference', 0, a, []),
    line('g1', 'dicechess-com', 0, a, []),
    line('g1', 'wikipedia-two-dice', 0, a, [finding({ rule: 'check.left-in-check', turn: 2, microMove: 0, dfen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 QK', dice: 'QK', recorded: ['e1e2'], allowed: [['d1h5'], ['d1g4']], message: 'leaves the king attacked' })]),
    line('g2', 'reference', 1, a, [MAX_PNN]),
    line('g2', 'dicechess-com', 1, a, [MAX_PNN]),
    line('g2', 'wikipedia-two-dice', 1, a, []),
    line('g3', 'reference', 2, a, [NOT_ROLLED, finding({ rule: 'end.result-mismatch', recorded: ['1-0'], message: 'the record says 1-0, the replay ends unfinished' })]),
    line('g3', 'dicechess-com', 2, a, [NOT_ROLLED]),
    line('g3', 'wikipedia-two-dice', 2, a, []),
    line(HOSTILE, 'reference', 0, `evil|${HOSTILE}.csv`, [HOSTILE_FINDING]),
    line(HOSTILE, 'dicechess-com', 0, `evil|${HOSTILE}.csv`, []),
    line(HOSTILE, 'wikipedia-two-dice', 0, `evil|${HOSTILE}.csv`, []),
    line('b1', 'reference', 0, b, [finding({ rule: 'record.bad-fen', recorded: ['rnbqkbnr/ppp w'], message: 'expected 4 to 7 space-separated fields, found 2', location: 'corpora/b.csv:2' })], 'unreadable'),
    line('b1', 'dicechess-com', 0, b, [finding({ rule: 'record.bad-fen', recorded: ['rnbqkbnr/ppp w'], message: 'expected 4 to 7 space-separated fields, found 2', location: 'corpora/b.csv:2' })], 'unreadable'),
    line('b1', 'wikipedia-two-dice', 0, b, [finding({ rule: 'record.bad-fen', recorded: ['rnbqkbnr/ppp w'], message: 'expected 4 to 7 space-separated fields, found 2', location: 'corpora/b.csv:2' })], 'unreadable'),
    line('b2', 'reference', 1, b, [finding({ rule: 'end.result-mismatch', recorded: ['0-1'], message: 'the record says 0-1, the replay says 1-0' })]),
    line('b2', 'dicechess-com', 1, b, []),
    line('b2', 'wikipedia-two-dice', 1, b, []),
  ];
}

/** A fixed pseudo-random sequence of recorded turns (no Math.random: the tests must be repeatable). */
export function sampleDiceTurns(count = 600): DiceTurn[] {
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const turns: DiceTurn[] = [];
  for (let i = 0; i < count; i++) {
    const dice = [0, 0, 0].map(() => 1 + Math.floor(next() * 6));
    const opening = i % 40 < 2;
    const passed = opening ? !dice.some((d) => d <= 2) : next() < 1 / 12;
    turns.push({ dice, passed, opening });
  }
  return turns;
}

export const RUN_INFO: RunInfo = {
  tool: 'dice-dialects',
  version: '0.1.0',
  node: 'v20.20.2',
  startedAt: '2025-01-01T00:00:00.000Z',
  durationMs: 1234,
  dialects: {
    reference: { file: 'dialects/reference.json', sha256: 'a'.repeat(64) },
    'dicechess-com': { file: 'dialects/dicechess-com.json', sha256: 'b'.repeat(64) },
    'wikipedia-two-dice': { file: 'dialects/wikipedia-two-dice.json', sha256: 'c'.repeat(64) },
  },
  sources: [
    { source: 'corpora/a.ndjson', sha256: 'd'.repeat(64) },
    { source: 'corpora/b.csv', sha256: null },
  ],
  options: { continueAfterDivergence: true, jobs: 1 },
};
