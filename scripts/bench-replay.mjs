#!/usr/bin/env node
// Benchmark of the main job (not a test). Method:
//  1. a fixed generated corpus (`dice-dialects generate`, seeded, so the same bytes every
//     time) of N reference games in NDJSON, made once under corpora/generated/bench/;
//  2. the whole replay (read → judge with every check → results.ndjson + reports) under
//     `reference`, in process (--jobs 1) and with worker threads (--jobs 2), wall time;
//  3. memory: the same file streamed R times (N×R records) with 2 workers, peak RSS of
//     the process (main thread + workers) from process.resourceUsage().maxRSS;
//  4. the `chess` control against chessops (dev dependency) on the same standard chess
//     games, in memory, same run: our replayGame() vs a chessops loop making the same
//     checks (legal move, board after each turn, no move after the end, the ending).
// Figures are printed with the load average: the machines are shared, compare ratios.
// Run: npm run build && node scripts/bench-replay.mjs [games=50000] [repeat=20] [chessGames=20000]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDialect } from '../dist/dialects/index.js';
import { readRecords } from '../dist/records/index.js';
import { prepareDialect, replayGame } from '../dist/replay/replay-game.js';
import { runReplay } from '../dist/run/replay.js';

const GAMES = Number(process.argv[2] ?? 50000);
const REPEAT = Number(process.argv[3] ?? 20);
const CHESS_GAMES = Number(process.argv[4] ?? 20000);
const dir = 'corpora/generated/bench';
mkdirSync(dir, { recursive: true });
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

function generate(dialect, games, seed, format, out) {
  if (existsSync(out)) return;
  const t = performance.now();
  const r = spawnSync('node', ['bin/dice-dialects.js', 'generate', '--dialect', dialect, '--games', String(games), '--seed', seed, '--format', format, '--out', out], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`generate failed for ${out}`);
  console.log(`generated ${fmt(games)} ${dialect} games (${format}) in ${((performance.now() - t) / 1000).toFixed(1)} s → ${out}`);
}

const corpus = join(dir, `reference-${GAMES}.ndjson`);
generate('reference', GAMES, 'bench-replay', 'ndjson', corpus);
const reference = loadDialect('reference');
const chess = loadDialect('chess');
if (!reference.ok || !chess.ok) throw new Error('dialects');

async function timedReplay(sources, jobs, label) {
  const out = join(tmpdir(), `bench-replay-${process.pid}-${jobs}`);
  const t = performance.now();
  const r = await runReplay({ sources, dialects: [{ dialect: reference.value, overrides: [] }], out, jobs });
  const sec = (performance.now() - t) / 1000;
  rmSync(out, { recursive: true, force: true });
  console.log(`${label}: ${fmt(r.progress.records)} games in ${sec.toFixed(1)} s = ${fmt(r.progress.records / sec)} games/s (diverging ${r.summary.totals.diverging}); load ${load()}`);
  return r.progress.records / sec;
}

console.log(`node ${process.version}; load average ${load()}`);
const one = await timedReplay([corpus], 1, 'replay reference, --jobs 1');
const two = await timedReplay([corpus], 2, 'replay reference, --jobs 2');
console.log(`worker speed-up: ${(two / one).toFixed(2)}× (target ≥ 10,000 games/s with --jobs 2)`);

if (REPEAT > 0) {
  const sources = Array.from({ length: REPEAT }, () => corpus);
  await timedReplay(sources, 2, `streamed ${REPEAT}× the corpus`);
  console.log(`peak RSS (process, all threads): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (target < 300 MB)`);
}

// Chess control vs chessops on the same standard games, judged in memory.
if (CHESS_GAMES > 0) {
  const chessCorpus = join(dir, `chess-${CHESS_GAMES}.ndjson`);
  generate('chess', CHESS_GAMES, 'bench-chess', 'ingest-wire', chessCorpus);
  const records = [];
  for await (const item of readRecords([chessCorpus])) if (item.kind === 'record') records.push(item.record);
  const moves = records.reduce((n, r) => n + r.turns.length, 0);
  const { Chess } = await import('chessops/chess');
  const { parseFen } = await import('chessops/fen');
  const { parseUci } = await import('chessops/util');
  const { makeBoardFen } = await import('chessops/fen');
  const prepared = prepareDialect('chess', chess.value.rules);
  const ours = () => {
    let diverging = 0;
    for (let i = 0; i < records.length; i++) if (replayGame(records[i], prepared, i).status !== 'conforming') diverging++;
    return diverging;
  };
  // The same checks our replayer makes on these records, written the chessops way:
  // each move legal, the recorded board after it, no move after the game's end, the ending.
  const theirs = () => {
    let diverging = 0;
    for (const r of records) {
      const pos = Chess.fromSetup(parseFen(r.startFen).unwrap()).unwrap();
      let bad = false;
      for (let i = 0; i < r.turns.length && !bad; i++) {
        const t = r.turns[i];
        if (t.moves.length === 0) break; // a pass: no move in orthodox chess (the game had ended)
        const m = parseUci(t.moves[0]);
        if (!m || pos.isEnd() || !pos.isLegal(m)) bad = true;
        else {
          pos.play(m);
          if (t.fenAfter && makeBoardFen(pos.board) !== t.fenAfter.split(' ')[0]) bad = true;
        }
      }
      if (!bad && pos.isCheckmate() !== (r.termination === 'checkmate')) bad = true;
      if (bad) diverging++;
    }
    return diverging;
  };
  // For scale only: chessops' bare legality loop, without the board compare and the ending.
  const bare = () => {
    let diverging = 0;
    for (const r of records) {
      const pos = Chess.fromSetup(parseFen(r.startFen).unwrap()).unwrap();
      for (const t of r.turns) {
        if (t.moves.length === 0) break;
        const m = parseUci(t.moves[0]);
        if (!m || !pos.isLegal(m)) {
          diverging++;
          break;
        }
        pos.play(m);
      }
    }
    return diverging;
  };
  ours();
  theirs(); // warm-up both
  bare();
  const best = (f) => {
    let bestSec = Infinity;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      f();
      bestSec = Math.min(bestSec, (performance.now() - t) / 1000);
    }
    return bestSec;
  };
  const a = best(ours);
  const b = best(theirs);
  const c = best(bare);
  console.log(`chess control: ${fmt(records.length)} standard games, ${fmt(moves)} moves; ours ${fmt(records.length / a)} games/s (${fmt(moves / a)} moves/s), chessops ${fmt(records.length / b)} games/s (${fmt(moves / b)} moves/s); ratio ${(b / a).toFixed(2)} (target ≥ 1.0); load ${load()}`);
  console.log(`  for scale: chessops' bare legality loop (no board compare, no ending) ${fmt(records.length / c)} games/s; ratio ${(c / a).toFixed(2)}`);
}
