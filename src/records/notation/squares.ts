/** Squares as the byte-level readers meet them: character codes, never substrings (this runs for every recorded move). */

/** The square (a1 = 0) of a lower-case file letter's and a rank digit's character codes, or -1. */
export function squareOfCodes(file: number, rank: number): number {
  const f = file - 97;
  const r = rank - 49;
  return f >= 0 && f < 8 && r >= 0 && r < 8 ? r * 8 + f : -1;
}
