#!/usr/bin/env node
// Perft speed: our core (dist/, built with `npx tsc -p tsconfig.build.json`) against
// chessops (a GPL dev dependency, used only here, never by src/) on the docs/rules.md §10.5 perft
// positions, in the same process, alternating engines, best of N rounds each.
// Prints nodes/s for both, the ratio (ours / chessops; target >= 1.0) and the load
// average, because these machines are shared and noisy.
//
//   node scripts/bench-perft.mjs [--rounds 3] [--quick] [--json]
import { existsSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const distCore = join(root, 'dist', 'core', 'index.js');
if (!existsSync(distCore)) {
  console.error('dist/ is missing: build first with  npx tsc -p tsconfig.build.json');
  process.exit(2);
}
const core = await import(pathToFileURL(distCore).href);
const { Chess } = await import('chessops/chess');
const { parseFen } = await import('chessops/fen');
const { perft: chessopsPerft } = await import('chessops/debug');

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const rounds = Math.max(1, Number(option('--rounds', flag('--quick') ? '1' : '3')));
const quick = flag('--quick');

// [name, FEN, depth, expected nodes] — the perft numbers of docs/rules.md §10.5 (null: beyond the published depths there;
// then only ours = chessops is checked).
const POSITIONS = [
  ['start', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 5, 4865609],
  ['kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 4, 4085603],
  ['position 3', '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 5, 674624],
  ['position 4', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', 4, 422333],
  ['position 5', 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', 4, null],
  ['position 6', 'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10', 4, null],
].map(([name, fen, depth, nodes]) => (quick && depth > 3 ? [name, fen, depth - 1, null] : [name, fen, depth, nodes]));

function ours(fen, depth) {
  const r = core.parseDfen(fen);
  if (!r.ok) throw new Error(`${fen}: ${r.error.message}`);
  return core.perft(r.value.pos, depth);
}

function theirs(fen, depth) {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  return chessopsPerft(pos, depth, false);
}

function time(fn) {
  const t = process.hrtime.bigint();
  const nodes = fn();
  return { nodes, ms: Number(process.hrtime.bigint() - t) / 1e6 };
}

const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const loadBefore = load();
// Warm both up so the JIT has seen the hot paths before timing.
for (const [, fen] of POSITIONS.slice(0, 2)) {
  ours(fen, 3);
  theirs(fen, 3);
}

const rows = [];
let oursMs = 0;
let theirsMs = 0;
let totalNodes = 0;
for (const [name, fen, depth, expected] of POSITIONS) {
  let bestOurs = Infinity;
  let bestTheirs = Infinity;
  let nodesOurs = 0;
  let nodesTheirs = 0;
  for (let i = 0; i < rounds; i++) {
    const a = time(() => ours(fen, depth));
    const b = time(() => theirs(fen, depth));
    bestOurs = Math.min(bestOurs, a.ms);
    bestTheirs = Math.min(bestTheirs, b.ms);
    nodesOurs = a.nodes;
    nodesTheirs = b.nodes;
  }
  if (nodesOurs !== nodesTheirs || (expected !== null && nodesOurs !== expected)) {
    console.error(`${name} depth ${depth}: node counts differ: ours ${nodesOurs}, chessops ${nodesTheirs}, expected ${expected}`);
    process.exitCode = 1;
  }
  oursMs += bestOurs;
  theirsMs += bestTheirs;
  totalNodes += nodesOurs;
  rows.push({
    name,
    depth,
    nodes: nodesOurs,
    oursMs: bestOurs,
    oursNps: (nodesOurs / bestOurs) * 1000,
    chessopsMs: bestTheirs,
    chessopsNps: (nodesTheirs / bestTheirs) * 1000,
    ratio: bestTheirs / bestOurs,
  });
}
const loadAfter = load();
const summary = {
  nodes: totalNodes,
  oursNps: (totalNodes / oursMs) * 1000,
  chessopsNps: (totalNodes / theirsMs) * 1000,
  ratio: theirsMs / oursMs,
  rounds,
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  loadBefore,
  loadAfter,
};

if (flag('--json')) {
  process.stdout.write(`${JSON.stringify({ rows, summary }, null, 2)}\n`);
} else {
  const M = (nps) => `${(nps / 1e6).toFixed(2)} M/s`;
  const pad = (s, n) => String(s).padStart(n);
  console.log(`perft: dice-dialects core vs chessops, best of ${rounds} round(s), ${summary.node}, ${summary.cpu}`);
  console.log(`load average before: ${loadBefore}`);
  console.log(`${'position'.padEnd(12)}${pad('depth', 6)}${pad('nodes', 10)}${pad('ours ms', 10)}${pad('ours', 12)}${pad('chessops ms', 13)}${pad('chessops', 12)}${pad('ratio', 8)}`);
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(12)}${pad(r.depth, 6)}${pad(r.nodes, 10)}${pad(r.oursMs.toFixed(0), 10)}${pad(M(r.oursNps), 12)}${pad(r.chessopsMs.toFixed(0), 13)}${pad(M(r.chessopsNps), 12)}${pad(r.ratio.toFixed(2), 8)}`,
    );
  }
  console.log(`${'all'.padEnd(12)}${pad('', 6)}${pad(totalNodes, 10)}${pad(oursMs.toFixed(0), 10)}${pad(M(summary.oursNps), 12)}${pad(theirsMs.toFixed(0), 13)}${pad(M(summary.chessopsNps), 12)}${pad(summary.ratio.toFixed(2), 8)}`);
  console.log(`ratio = chessops time / our time (ours is faster when > 1.0; target >= 1.0): ${summary.ratio.toFixed(2)}`);
  console.log(`load average after: ${loadAfter}`);
}
