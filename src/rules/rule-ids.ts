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
  'turn.other-piece': "A micro-move is made by another piece than the one the turn's earlier micro-moves moved (one piece a turn).",
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
  'draw.offer-not-allowed': 'A draw offer at a moment the dialect does not allow (e.g. mid-turn), or in a dialect without draws by agreement.',
  'cube.not-allowed': 'A doubling-cube action the dialect or the cube state does not allow.',
  'cube.decline-cost': 'The record states a declined double cost what another cube.declineLoses makes it (a settled amount, a final stake).',
  // Recording faults: the record, not the dialect, is wrong (docs/recording-faults.md). Never a rules divergence.
  'record.side-not-flipped-after-king-capture': 'The position after a king capture still names the capturing side to move.',
  'record.castling-after-king-capture': 'The position after a king capture keeps castling rights of the side whose king was taken.',
  'record.en-passant-not-canonical': 'The en passant field names a target no pawn double-stepped to (a stale or path-dependent target).',
  'record.dice-digits': 'Dice written as digits where the source writes piece letters (old rows).',
  'record.dice-letters': 'Dice written as piece letters where the source writes numbers (old exports).',
  'record.promotion-none': 'A pawn reaches the last rank with the promotion written NONE (the site queens it).',
  'record.no-op-last-turn': 'The last turn rolls and plays nothing because the game ended (draw agreed, abandoned), not a pass.',
  'record.trailing-blocked-dice': 'Trailing states with every die allowed:false after a declined double: not a turn.',
  'record.legacy-termination-unknown': 'The termination is written unknown though the board shows a king captured.',
  'record.turn-boundary-from-dice-case': "A turn's side taken from its dice's case because the position names the other side.",
  'record.stake-zero-tournament': 'A stake of 0: a tournament game, no stake (metadata).',
  'record.negative-id-bot': 'A player with a negative id: a site bot (metadata).',
  'record.rotated-board': 'The recorded board is the 180° image of the position the moves give: the record is rotated, its board cannot be judged.',
  'record.collapsed-states': 'Consecutive states were collapsed into one: the micro-moves between them are lost.',
  'record.partial-turn-side-flipped': 'A last turn cut short with dice left names the opponent to move: the record hides whether it was cut short or ended.',
  'record.no-state-map': 'A dicechess.com game (a bot game) without a state map: nothing to replay.',
} as const;

export type RuleId = keyof typeof RULE_IDS;

/**
 * How the tool handles each recording fault: `normalised` (its intent is certain: the reader
 * repairs it and notes it; never a finding), `metadata` (a site convention read as data),
 * `reported` (it hides information: a finding of the record's own, status `faulty`).
 */
export type FaultHandling = 'normalised' | 'metadata' | 'reported';

export const RECORDING_FAULTS = {
  'record.side-not-flipped-after-king-capture': 'normalised',
  'record.castling-after-king-capture': 'normalised',
  'record.en-passant-not-canonical': 'normalised',
  'record.dice-digits': 'normalised',
  'record.dice-letters': 'normalised',
  'record.promotion-none': 'normalised',
  'record.no-op-last-turn': 'normalised',
  'record.trailing-blocked-dice': 'normalised',
  'record.legacy-termination-unknown': 'normalised',
  'record.turn-boundary-from-dice-case': 'normalised',
  'record.stake-zero-tournament': 'metadata',
  'record.negative-id-bot': 'metadata',
  'record.rotated-board': 'reported',
  'record.collapsed-states': 'reported',
  'record.partial-turn-side-flipped': 'reported',
  'record.no-state-map': 'reported',
} as const satisfies Partial<Record<RuleId, FaultHandling>>;

export type RecordingFaultId = keyof typeof RECORDING_FAULTS;

/** Is this id a recording fault (the record's problem, never the dialect's)? */
export const isRecordingFault = (id: string): id is RecordingFaultId => Object.prototype.hasOwnProperty.call(RECORDING_FAULTS, id);

/** A normalised or metadata fault: repaired by the reader, never counted as diverging. */
export const isNormalisedFault = (id: string): boolean => isRecordingFault(id) && RECORDING_FAULTS[id] !== 'reported';

export const isRuleId = (id: string): id is RuleId => Object.prototype.hasOwnProperty.call(RULE_IDS, id);
