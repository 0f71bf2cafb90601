import { castlingPlanter } from './castling-planters.js';
import { allowedFlag, commitMismatch, notDerived, pieceNotRolled } from './dice-planters.js';
import { moveAfterKingCapture, resultMismatch } from './end-planters.js';
import { fewerDice, notPseudoLegal, passNotAllowed } from './move-planters.js';
import { enPassantWindow, promotionNotAllowed } from './pawn-planters.js';
import type { PlanterDef } from './planter.js';

/** Every plantable rule id. */
export const PLANTERS: Readonly<Record<string, PlanterDef>> = Object.fromEntries(
  [
    enPassantWindow,
    castlingPlanter('castling.needs-king-and-rook-dice'),
    castlingPlanter('castling.dice'),
    fewerDice,
    moveAfterKingCapture,
    promotionNotAllowed,
    notDerived,
    commitMismatch,
    allowedFlag,
    resultMismatch,
    passNotAllowed,
    pieceNotRolled,
    notPseudoLegal,
  ].map((p) => [p.rule, p]),
);
