import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The oracle's own reading of a dialect file: it resolves `extends` itself (leaf by leaf,
 * the child winning) and keeps only the values, as a flat map from leaf path
 * ("enPassant.window") to value. Nothing from src/dialects is used.
 */
export type Options = Record<string, unknown>;

const DIR = fileURLToPath(new URL('../../../dialects/', import.meta.url));
const META = new Set(['name', 'title', 'aliases', 'description', 'extends']);

function leaves(node: unknown, prefix: string, out: Options): void {
  if (node !== null && typeof node === 'object' && 'value' in node && 'source' in node) {
    out[prefix] = (node as { value: unknown }).value;
    return;
  }
  for (const [k, v] of Object.entries(node as object)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
}

/** The options of a shipped dialect, `extends` resolved, then `overrides` applied. */
export function dialectOptions(dialect: string, overrides: Options = {}): Options {
  const file = JSON.parse(readFileSync(`${DIR}${dialect}.json`, 'utf8')) as Record<string, unknown>;
  const own: Options = {};
  for (const [k, v] of Object.entries(file)) if (!META.has(k)) leaves(v, k, own);
  const parent = typeof file.extends === 'string' ? dialectOptions(file.extends) : {};
  return { ...parent, ...own, ...overrides };
}

/** The turn-relevant options, typed. */
export interface TurnOptions {
  diceCount: number;
  eachDie: boolean;
  doublesAnyMove: boolean;
  maximum: 'path' | 'path-all' | 'micro-move' | 'none';
  /** §3: a line's count is its dice, or its micro-moves. */
  maximumCounts: 'dice' | 'moves';
  kingCaptureExempt: boolean;
  check: 'none' | 'orthodox';
  kingCaptureIgnoresCheck: boolean;
  castlingDice: 'king-and-rook' | 'king' | 'rook' | 'king-or-rook' | 'none';
  castlingOrthodox: boolean;
  castlingNotation: 'king-two-squares' | 'king-takes-rook';
  enPassantWindow: 'reply-turn' | 'first-micro-move';
  enPassantDie: 'pawn' | 'any';
  /** §1: does a target survive a piece standing on it? */
  targetSurvives: boolean;
  promotionPieces: Array<'q' | 'r' | 'b' | 'n'>;
  promotionDie: 'pawn' | 'die-piece';
  promotionOnKingDie: boolean;
  /** §13: a pawn a king die moves to the last rank becomes a king. */
  promotionKing: boolean;
  passVoluntary: boolean;
  movableTypes: boolean;
  /** §13: "can move" is vchess's step test, not an allowed micro-move. */
  stepTest: boolean;
  castlingCounts: number;
  /** §14: one piece makes every micro-move of a turn. */
  onePiece: boolean;
  /** How a roll reads (§14, §15): faces, faces per die, count dice; who rolls. */
  faces: number[];
  facesByDie: Array<Array<number | 'any'>> | null;
  reads: 'pieces' | 'count' | 'piece-and-count';
  counts: number[];
  freeFirstMove: boolean;
  noRollInCheck: boolean;
  passOnFreeChoice: boolean;
}

export function turnOptions(o: Options): TurnOptions {
  return {
    diceCount: o['dice.count'] as number,
    eachDie: o['turn.structure'] === 'each-die' && (o['dice.count'] as number) > 0,
    doublesAnyMove: o['turn.doublesAnyMove'] as boolean,
    maximum: o.maximum as TurnOptions['maximum'],
    maximumCounts: o.maximumCounts as TurnOptions['maximumCounts'],
    kingCaptureExempt: o.kingCaptureExempt as boolean,
    check: o.check as TurnOptions['check'],
    kingCaptureIgnoresCheck: o.kingCaptureIgnoresCheck as boolean,
    castlingDice: o['castling.dice'] as TurnOptions['castlingDice'],
    castlingOrthodox: o['castling.attacks'] === 'orthodox',
    castlingNotation: o['castling.notation'] as TurnOptions['castlingNotation'],
    enPassantWindow: o['enPassant.window'] as TurnOptions['enPassantWindow'],
    enPassantDie: o['enPassant.die'] as TurnOptions['enPassantDie'],
    targetSurvives: o['enPassant.targetUnderPiece'] === 'survives',
    promotionPieces: o['promotion.pieces'] as TurnOptions['promotionPieces'],
    promotionDie: o['promotion.die'] as TurnOptions['promotionDie'],
    promotionOnKingDie: o['promotion.onKingDie'] as boolean,
    promotionKing: o['promotion.onKingDieBecomes'] === 'king',
    passVoluntary: o['pass.voluntary'] as boolean,
    movableTypes: o['dice.draw'] === 'movable-types',
    stepTest: o['dice.movableTest'] === 'step',
    castlingCounts: o['draws.castlingCounts'] as number,
    onePiece: o['turn.onePiece'] as boolean,
    faces: o['dice.faces'] as number[],
    facesByDie: o['dice.facesByDie'] as TurnOptions['facesByDie'],
    reads: o['dice.reads'] as TurnOptions['reads'],
    counts: o['dice.counts'] as number[],
    freeFirstMove: o['turn.firstMoveFree'] as boolean,
    noRollInCheck: o['dice.whoRolls'] === 'not-in-or-after-check',
    passOnFreeChoice: o['pass.onFreeChoice'] as boolean,
  };
}
