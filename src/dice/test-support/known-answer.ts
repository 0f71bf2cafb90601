/** The fairness known answer of docs/rules.md §10.4: server seed bytes 0x00…0x1f, W = alice, B = bob, plies 0–5. */
export const KNOWN_SEED = Buffer.from(Array.from({ length: 32 }, (_, i) => i));
export const KNOWN_COMMIT = '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd';
export const KNOWN_ROLLS = [
  [1, 2, 3],
  [2, 6, 6],
  [3, 1, 6],
  [5, 4, 3],
  [4, 5, 6],
  [6, 2, 4],
];
