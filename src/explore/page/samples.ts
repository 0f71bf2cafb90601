/** Sample positions offered by the explorer: where the dialects (or the readings of one) part ways. */
export interface Sample {
  label: string;
  dfen: string;
  turn?: string;
  /** Option lines for the box (variants side by side). */
  set?: string;
}

const MAXIMUM_READINGS = 'reference+maximum=path-all\nreference+maximum=micro-move';

export const SAMPLES: readonly Sample[] = [
  { label: 'Opening roll P, N, B', dfen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB' },
  { label: 'Maximum rule: promote to a rook, then capture (RULES.md §1)', dfen: '7k/4P3/8/8/8/K4R2/8/8 w - - 0 1 PRQ', turn: 'e7e8r,e8h8', set: MAXIMUM_READINGS },
  { label: 'Maximum rule: three readings (RULES.md §1)', dfen: '8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1 PNN', turn: 'a2a3', set: MAXIMUM_READINGS },
  { label: 'Opening roll P, B: one die only', dfen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PB', turn: 'a2a3' },
  { label: 'En passant on the second micro-move', dfen: 'rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3 NP', turn: 'g1f3,e5d6', set: 'reference+enPassant.window=first-micro-move' },
  { label: 'Castling with king and rook dice', dfen: 'r3k2r/pppq1ppp/2n1bn2/4p3/4P3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 8 KR', turn: 'e1g1' },
  { label: 'Two dice, check (wikipedia-two-dice)', dfen: 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3 PK' },
];
