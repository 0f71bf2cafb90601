/**
 * The dice one micro-move spends, packed in one number so the searches allocate nothing
 * per move: how many (0–2) in bits 0–1, then each die's role (1–6) in 3 bits.
 */
export type DiceCost = number;

export const NO_DICE: DiceCost = 0;

/** One die of this role. */
export const oneDie = (role: number): DiceCost => 1 | (role << 2);

/** Two dice (castling on a king die and a rook die). */
export const twoDice = (a: number, b: number): DiceCost => 2 | (a << 2) | (b << 5);

/** How many dice. */
export const diceIn = (c: DiceCost): number => c & 3;

/** The role of the i-th die (i < diceIn(c)). */
export const dieRole = (c: DiceCost, i: number): number => (c >> (2 + 3 * i)) & 7;
