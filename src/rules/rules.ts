/**
 * The resolved rules a dialect hands the core: plain values, no sources. The dialect
 * files (`dialects/*.json`) carry the same axes with a `source` on every value; the
 * loader in `src/dialects` validates them and strips the sources into this shape.
 */
export type MaximumReading = 'path' | 'path-all' | 'micro-move' | 'none';
export type CastlingDice = 'king-and-rook' | 'king' | 'rook' | 'king-or-rook' | 'none';
export type PromotionPiece = 'n' | 'b' | 'r' | 'q';

export interface Rules {
  dice: {
    /** Dice rolled per turn; 0 = no dice (plain chess). */
    count: 0 | 1 | 2 | 3;
    /** How a roll is drawn: fair d6, only piece types that can move (BrainKing), or the provably-fair HMAC scheme. */
    draw: 'fair' | 'movable-types' | 'provably-fair';
  };
  turn: {
    /** `each-die`: every die pays one micro-move of its piece type. `one-move`: one move by a piece of any rolled type. */
    structure: 'each-die' | 'one-move';
    /** With `one-move`: doubles allow any legal move. */
    doublesAnyMove: boolean;
  };
  /** How "spend as many dice as the position allows" is read (`none`: no maximum rule). */
  maximum: MaximumReading;
  /** `none`: no check, the king is captured; `orthodox`: a move may not leave one's own king attacked. */
  check: 'none' | 'orthodox';
  castling: {
    /** Which dice castling needs: both king and rook (spends both), a king, a rook, either, or no dice. */
    dice: CastlingDice;
    /** `ignored`: castling out of, through or into attack is legal; `orthodox`: chess conditions. */
    attacks: 'ignored' | 'orthodox';
    /** Castling from Chess960 starts (king and rook to the FIDE end squares). */
    chess960: boolean;
    /** How castling is written in output; both forms are always read. */
    notation: 'king-two-squares' | 'king-takes-rook';
  };
  enPassant: {
    /** A target is capturable on every micro-move of the reply turn, or only its first. */
    window: 'reply-turn' | 'first-micro-move';
  };
  promotion: {
    pieces: PromotionPiece[];
    /** `pawn`: promotion spends the pawn die. `die-piece`: a pawn reaching the last rank may move on any die and becomes the die's piece (a pawn die = free choice). */
    die: 'pawn' | 'die-piece';
    /** With `die-piece`: may a king die move a pawn to the last rank (free choice)? */
    onKingDie: boolean;
  };
  draws: {
    agreement: boolean;
    /** Draw offers may arrive between micro-moves, mid-turn. */
    midTurnOffers: boolean;
    /** Automatic draw when a turn ends with the half-move counter at this value or more; null = none. */
    moveCounterLimit: number | null;
    /** Half-moves one castling adds to the counter. */
    castlingCounts: 1 | 2;
    /** Draw at the end of this turn number (passes counted); null = none. */
    turnLimit: number | null;
    /** Draw on this many repetitions of a position; null = none. */
    repetition: number | null;
    stalemate: boolean;
    insufficientMaterial: boolean;
  };
  end: {
    kingCapture: boolean;
    checkmate: boolean;
  };
  start: {
    position: 'standard' | 'chess960';
  };
  clock: {
    increment: 'per-turn' | 'per-micro-move';
    /** A forced pass takes no clock time. */
    passesFree: boolean;
    /** Does a forced pass earn the increment? */
    passEarnsIncrement: boolean;
  };
  cube: {
    enabled: boolean;
    /** `centered-last-taker`: cube starts centred, only the last taker may redouble. `either`: anyone may double before rolling. */
    ownership: 'centered-last-taker' | 'either';
    /** Highest cube value; null = no cap. */
    cap: number | null;
  };
}
