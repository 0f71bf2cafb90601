/**
 * The registry of rule ids. Every finding, conformance case and report names one of
 * these; a case or finding with an unknown id is an error.
 */
export const RULE_IDS = {
  // Start
  'start.position': 'The game starts from a position the dialect does not play (e.g. a Chess960 start in a classic-only dialect).',
  // Dice
  'dice.count': 'The turn was rolled with a number of dice the dialect does not roll.',
  'dice.face': 'A die shows a face outside 1–6.',
  'dice.piece-not-rolled': 'A micro-move moves a piece type for which no unspent die remains.',
  'dice.unmovable-type-rolled': 'The roll shows a piece type that cannot move, though the dialect only rolls movable types.',
  'dice.commit-mismatch': 'The revealed server seed does not hash to the published commitment.',
  'dice.not-derived-from-seeds': 'A recorded roll differs from the roll derived from the revealed seeds.',
  'dice.allowed-flag': "The site's per-die `allowed` flag disagrees with the dice the dialect says are playable.",
  // Movement
  'move.not-pseudo-legal': 'The piece cannot make that move on this board (wrong geometry, blocked, own piece, empty square, or wrong colour).',
  'move.notation': 'The recorded move is not readable notation.',
  'check.leaves-king-attacked': "The move leaves the mover's own king attacked (check-based dialects).",
  // Maximum rule
  'maximum.fewer-dice': 'The turn spends fewer dice than the position allows (the maximum rule).',
  // Castling
  'castling.needs-king-and-rook-dice': 'Castling needs a king die and a rook die and spends both.',
  'castling.dice': 'Castling needs a die the roll does not show (king, rook, either, or doubles by dialect).',
  'castling.rights': 'Castling without the right, with king or rook off their home squares, or with a piece in the way.',
  'castling.through-attack': 'Castling out of, through or into an attacked square where the dialect forbids it.',
  // En passant
  'en-passant.window': 'An en passant capture outside the window in which the target is capturable.',
  // Promotion
  'promotion.not-allowed': 'A promotion piece or a promotion die the dialect does not allow.',
  'promotion.missing': 'A pawn reached the last rank without a promotion piece.',
  // Passing
  'pass.not-allowed': 'The turn was passed although a micro-move was playable.',
  'pass.required': 'A move was recorded although the dialect forces a pass.',
  'turn.too-many-moves': 'More micro-moves than the dice allow in one turn.',
  'turn.side': 'The turn is recorded for the wrong side.',
  // Game end
  'end.move-after-king-capture': 'A move was recorded after the king was captured (the game was over).',
  'end.move-after-game-end': 'The game goes on after the dialect ended it (mate, stalemate, automatic draw, turn limit).',
  'end.result-mismatch': 'The recorded result or termination does not follow from the board and the dialect.',
  'end.automatic-draw-missing': 'The dialect ends the game in an automatic draw that the record does not show.',
  'end.unknown-draw': 'The record shows an automatic draw the dialect does not have.',
  'end.double-declined': 'A declined double that does not match the recorded result, or a double the dialect does not allow.',
  // Recorded side information
  'record.fen-after-mismatch': 'The recorded position after a turn differs from the position the moves produce.',
  'clock.mismatch': 'The recorded clocks do not follow from the time control (increment, passes free, flag fall).',
  'draw.offer-not-allowed': 'A draw offer at a moment the dialect does not allow (e.g. mid-turn).',
  'cube.not-allowed': 'A doubling-cube action the dialect or the cube state does not allow.',
} as const;

export type RuleId = keyof typeof RULE_IDS;

export const isRuleId = (id: string): id is RuleId => Object.prototype.hasOwnProperty.call(RULE_IDS, id);
