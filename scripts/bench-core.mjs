#!/usr/bin/env node
// Benchmark of the rules core (not a test): judged recorded turns per second on one
// thread, and legal-full-turn enumeration under every roll. Method: a fixed, seeded set
// of random legal games is generated first (not timed); then every recorded turn of
// every game is judged through GameState.playRecorded exactly as the replayer does;
// then, for a sample of their positions, legal turns are enumerated for all 216 rolls.
// Run: npm run bench   (or: node scripts/bench-core.mjs [games] [seed])
import { loadavg } from 'node:os';
import { STANDARD_FEN } from '../dist/core/index.js';
import { makePrng } from '../dist/dice/index.js';
import { loadDialect } from '../dist/dialects/index.js';
import { GameState, TurnEngine } from '../dist/rules/index.js';

const GAMES = Number(process.argv[2] ?? 2000);
const SEED = process.argv[3] ?? 'bench-core';
const dialect = loadDialect('reference');
if (!dialect.ok) throw new Error('reference dialect');
const rules = dialect.value.rules;
const engine = new TurnEngine(rules);
const prng = makePrng(SEED);

function start() {
  const g = GameState.start(engine, STANDARD_FEN);
  if (!g.ok) throw new Error(g.error.message);
  return g.value;
}

// 1. Generate games (untimed): random legal turn each turn.
const games = [];
const samplePositions = [];
for (let i = 0; i < GAMES; i++) {
  const game = start();
  const turns = [];
  while (!game.outcome && game.turnNumber < 300) {
    const dice = [1 + prng.nextInt(6), 1 + prng.nextInt(6), 1 + prng.nextInt(6)];
    const legal = game.legalTurns(dice, 400);
    const pick = legal[prng.nextInt(legal.length)];
    turns.push({ dice, moves: pick.map((m) => game.uci(m)) });
    if (i % 20 === 0 && game.turnNumber % 10 === 5) samplePositions.push(game.dfen());
    game.play(pick);
  }
  games.push(turns);
}
const totalTurns = games.reduce((n, g) => n + g.length, 0);

// 2. Judge every recorded turn (timed), as the replayer does.
function judgeAll() {
  let judged = 0;
  for (const turns of games) {
    const game = start();
    for (const t of turns) {
      const v = game.playRecorded(t.dice, t.moves);
      if (!v.ok) throw new Error(`unexpected divergence: ${v.finding.message}`);
      judged++;
    }
  }
  return judged;
}
judgeAll(); // warm-up
const t0 = performance.now();
const judged = judgeAll();
const judgeSec = (performance.now() - t0) / 1000;

// 3. Enumerate every legal full turn for every ordered roll of each sampled position (timed).
const rolls = [];
for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) rolls.push([a, b, c]);
const t1 = performance.now();
let enumerated = 0;
let positionRolls = 0;
for (const dfen of samplePositions) {
  const g = GameState.start(engine, dfen);
  if (!g.ok) continue;
  for (const roll of rolls) {
    enumerated += g.value.legalTurns(roll).length;
    positionRolls++;
  }
}
const enumSec = (performance.now() - t1) / 1000;

const fmt = (n) => Math.round(n).toLocaleString('en-US');
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}, node ${process.version}`);
console.log(`corpus: ${GAMES} seeded random games (seed "${SEED}"), ${fmt(totalTurns)} turns, mean ${(totalTurns / GAMES).toFixed(1)} turns/game`);
console.log(`judge: ${fmt(judged)} recorded turns in ${judgeSec.toFixed(2)} s = ${fmt(judged / judgeSec)} turns/s (one thread, target ≥ 100,000)`);
console.log(`enumerate: ${samplePositions.length} positions × 216 rolls = ${fmt(positionRolls)} (position, roll) pairs, ${fmt(enumerated)} legal turns in ${enumSec.toFixed(2)} s = ${fmt(positionRolls / enumSec)} pairs/s, ${fmt(enumerated / enumSec)} turns/s`);
