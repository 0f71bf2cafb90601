/**
 * The resolved rules a dialect hands the core: plain values, no sources. The dialect
 * files (`dialects/*.json`) carry the same axes with a `source` on every value; the
 * loader in `src/dialects` validates them and strips the sources into this shape.
 */
export type MaximumReading = 'path' | 'path-all' | 'micro-move' | 'none';
export type CastlingDice = 'king-and-rook' | 'king' | 'rook' | 'king-or-rook' | 'none';
export type PromotionPiece = 'n' | 'b' | 'r' | 'q';
/** A die face (1–6) as the piece role it stands for (1 pawn … 6 king). */
export type DieRole = 1 | 2 | 3 | 4 | 5 | 6;
/** A face of a die with faces of its own: a piece role, or any legal move. */
export type DieFace = DieRole | 'any';
export type StakeMode = 'classic' | 'x2';

export interface Rules {
  dice: {
    /** Dice rolled per turn; 0 = no dice (plain chess). */
    count: 0 | 1 | 2 | 3;
    /** The piece each face 1–6 stands for, in face order (every known dialect: 1 pawn … 6 king). */
    faces: DieRole[];
    /** How a roll is drawn: fair d6, only piece types that can move (BrainKing), or the provably-fair HMAC scheme. */
    draw: 'fair' | 'movable-types' | 'provably-fair';
    /**
     * Dice with faces of their own (Vegas Fun Chess): per die, in roll order, what each face
     * 1–6 shows, a piece (1 pawn … 6 king) or `any` (any legal move). Null: every die reads
     * `faces`.
     */
    facesByDie: DieFace[][] | null;
    /**
     * What a roll says. `pieces`: each die names a piece type. `count` (one die): the face
     * is a number of micro-moves of any piece, `counts[face - 1]`. `piece-and-count` (two
     * dice): the first names the piece type, the second how many micro-moves it makes.
     */
    reads: 'pieces' | 'count' | 'piece-and-count';
    /** Micro-moves per face 1–6 of a count die (`reads` `count` or `piece-and-count`). */
    counts: number[];
    /**
     * With `draw: "movable-types"`, what "can move" means. `allowed-move`: the type has an
     * allowed micro-move on a one-die roll of it. `step` (vchess.club): a pawn has the square
     * ahead empty or an enemy piece diagonally ahead; another piece has one of its steps
     * (a knight's jump, a bishop's, rook's, queen's or king's one-square step) onto an
     * empty square or an enemy piece.
     */
    movableTest: 'allowed-move' | 'step';
    /** `every-turn`, or `not-in-or-after-check` (Vegas Fun Chess): a player in check, or whose last turn gave check, does not roll and may make any legal move. */
    whoRolls: 'every-turn' | 'not-in-or-after-check';
  };
  turn: {
    /** `each-die`: every die pays one micro-move of its piece type. `one-move`: one move by a piece of any rolled type. */
    structure: 'each-die' | 'one-move';
    /** With `one-move`: doubles allow any legal move. */
    doublesAnyMove: boolean;
    /** With `each-die`: every micro-move of a turn is made by the piece the first one moved (castling moves the king). */
    onePiece: boolean;
    /** White's first turn rolls nothing and may make any legal move (vchess.club). */
    firstMoveFree: boolean;
  };
  /** How "spend as many dice as the position allows" is read (`none`: no maximum rule). */
  maximum: MaximumReading;
  /**
   * What the maximum counts: `dice` (castling on a king die and a rook die counts 2) or
   * `moves` (every micro-move counts 1, castling too). Only castling on two dice tells them apart.
   */
  maximumCounts: 'dice' | 'moves';
  /** A micro-move that captures the king is legal whatever the maximum rule says and ends the game at once (leftover dice ignored). */
  kingCaptureExempt: boolean;
  /** `none`: no check, the king is captured; `orthodox`: a move may not leave one's own king attacked. */
  check: 'none' | 'orthodox';
  /**
   * Check-based dialects: a king capture is legal even when it leaves the capturer's own
   * king attacked (the game ends on the capture, so nothing after it is played). False: a
   * king capture obeys the check rule like any move (`check.leaves-king-attacked`).
   */
  kingCaptureIgnoresCheck: boolean;
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
    /** The die an en passant capture needs: a pawn die (with `turn.doublesAnyMove`, doubles too), or any die. */
    die: 'pawn' | 'any';
    /**
     * A piece landing on a target square: `dies` kills the target; `survives` keeps it, so
     * once that piece is captured or moves away in the same turn a pawn may still take it.
     */
    targetUnderPiece: 'dies' | 'survives';
  };
  promotion: {
    pieces: PromotionPiece[];
    /** `pawn`: promotion spends the pawn die. `die-piece`: a pawn reaching the last rank may move on any die and becomes the die's piece (a pawn die = free choice). */
    die: 'pawn' | 'die-piece';
    /** With `die-piece`: may a king die move a pawn to the last rank? */
    onKingDie: boolean;
    /** With `onKingDie`: what the pawn a king die moves becomes: the usual free choice, or a king (a second king; vchess.club's Dice). */
    onKingDieBecomes: 'choice' | 'king';
  };
  pass: {
    /** May a player pass a turn that has a playable micro-move? */
    voluntary: boolean;
    /** When no piece of the side to move can move at all (not a dice problem): the turn passes, or the game is drawn or lost. Orthodox stalemate and mate are judged first (`draws.stalemate`, `end.checkmate`). */
    whenNothingMoves: 'pass' | 'draw' | 'loss';
    /** May a player pass when a die shows `any`, or on a turn not rolled after giving check (not when in check)? */
    onFreeChoice: boolean;
    /** A player whose last turn gave check and who is in check now (the reply checked back): may pass (the giving-check rule), or must get out of check (the in-check rule)? */
    whenCheckedBack: boolean;
  };
  draws: {
    agreement: boolean;
    /** Draw offers may arrive between micro-moves, mid-turn. */
    midTurnOffers: boolean;
    /** Automatic draw when a turn ends with the half-move counter at this value or more; null = none. */
    moveCounterLimit: number | null;
    /** Half-moves one castling adds to the counter. */
    castlingCounts: 1 | 2;
    /** Does a passed turn add one half-move to the counter (it plays no move)? */
    passAdvancesCounter: boolean;
    /** Draw at the end of this turn number (passes counted); null = none. */
    turnLimit: number | null;
    /** Draw on this many repetitions of a position; null = none. */
    repetition: number | null;
    /** Do positions reached by a passed turn count toward the repetition? */
    repetitionCountsPasses: boolean;
    /**
     * How the repetition and move-counter draws happen. `automatic`: the game ends when a
     * turn reaches `repetition` or `moveCounterLimit`. `claim` (FIDE 9.2, 9.3): reaching
     * them lets a player claim the draw (a record may end there by `draw_rule`, or go on);
     * the game ends by itself only at fivefold repetition and 150 half-moves (FIDE 9.6), or
     * at the claim limits when those are higher.
     */
    ruleDraws: 'automatic' | 'claim';
    stalemate: boolean;
    /**
     * The draw by material. `none`: no such draw. `cannot-mate`: FIDE's dead position by
     * material, neither side can ever mate (bare kings, a single minor piece, bishops all on
     * one colour). `cannot-win`: neither side can ever win, by mate or by capturing the king:
     * where a king in check may lose its turn to the dice, any piece beside the king can
     * still win (K+B v K is not drawn), so in check-based dialects only bare kings are;
     * without check even a lone king can take the other. The same test decides
     * `end.flagFall: "loss-unless-insufficient"`.
     */
    insufficientMaterial: 'none' | 'cannot-mate' | 'cannot-win';
  };
  end: {
    kingCapture: boolean;
    checkmate: boolean;
    /** A player may resign at any time. */
    resignation: boolean;
    /** A fallen flag: always a loss, or a loss unless the opponent cannot mate (then a draw, as FIDE; "cannot win" with `draws.insufficientMaterial: "cannot-win"`). */
    flagFall: 'loss' | 'loss-unless-insufficient';
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
    /** Time controls offered, as "base+increment" in seconds (e.g. "180+2"); [] = none documented. */
    controls: string[];
    /** Seconds a disconnected player has to come back before forfeiting; null = not documented. */
    disconnectGraceSeconds: number | null;
  };
  cube: {
    enabled: boolean;
    /** `centered-last-taker`: cube starts centred, only the last taker may redouble. `either`: anyone may double before rolling. */
    ownership: 'centered-last-taker' | 'either';
    /** Highest cube value; null = no cap. */
    cap: number | null;
    /** A declined (or timed-out) double loses the stake as it was before the offer, or as it would have been after it. */
    declineLoses: 'pre-offer-stake' | 'post-offer-stake';
    /** Letting a double offer time out counts as declining it. */
    timeoutIsDecline: boolean;
  };
  stakes: {
    /** `none`: no stakes; `pot`: both players pay into a bank, the winner takes it; `unmodelled`: the site has betting formats this project does not model. */
    kind: 'none' | 'pot' | 'unmodelled';
    /** Currency of the bank (e.g. "GOLD"); null = none. */
    currency: string | null;
    /** Game modes: `classic` (fixed stake), `x2` (with the doubling cube). */
    modes: StakeMode[];
    /** A stake of 0 marks a tournament game. */
    zeroStakeIsTournament: boolean;
  };
}
