import { z } from 'zod';
import type { Rules } from '../rules/rules.js';

/**
 * The axes every dialect states (docs/rules.md), one zod schema per leaf value. The same
 * table builds the file schema (every leaf wrapped as `{ value, source, note?, open? }`,
 * all optional because a file may inherit through `extends`), the resolved schema (all
 * required, with the cross-field checks), the list of option paths for `--set`, and
 * the rows of the comparison table. Order here is the order of the table. Each leaf's schema is
 * built when first asked for (`leaf`): the table's shape (its paths, its keys) costs nothing as
 * the module loads, and a run of the shipped dialects builds no schema at all (load.ts).
 */
/** A leaf of the axes table: its zod schema, built once, when first called. */
function leaf<T extends z.ZodType>(build: () => T): () => T {
  let schema: T | undefined;
  return () => (schema ??= build());
}

export const AXES = {
  dice: {
    count: leaf(() => z.literal([0, 1, 2, 3])),
    faces: leaf(() => z.array(z.literal([1, 2, 3, 4, 5, 6])).length(6)),
    draw: leaf(() => z.enum(['fair', 'movable-types', 'provably-fair'])),
    facesByDie: leaf(() => z.array(z.array(z.union([z.literal([1, 2, 3, 4, 5, 6]), z.literal('any')])).length(6)).min(1).nullable()),
    reads: leaf(() => z.enum(['pieces', 'count', 'piece-and-count'])),
    counts: leaf(() => z.array(z.number().int().min(1).max(6)).length(6)),
    movableTest: leaf(() => z.enum(['allowed-move', 'step'])),
    whoRolls: leaf(() => z.enum(['every-turn', 'not-in-or-after-check'])),
  },
  turn: {
    structure: leaf(() => z.enum(['each-die', 'one-move'])),
    doublesAnyMove: leaf(() => z.boolean()),
    onePiece: leaf(() => z.boolean()),
    firstMoveFree: leaf(() => z.boolean()),
  },
  maximum: leaf(() => z.enum(['path', 'path-all', 'micro-move', 'none'])),
  maximumCounts: leaf(() => z.enum(['dice', 'moves'])),
  kingCaptureExempt: leaf(() => z.boolean()),
  check: leaf(() => z.enum(['none', 'orthodox'])),
  kingCaptureIgnoresCheck: leaf(() => z.boolean()),
  castling: {
    dice: leaf(() => z.enum(['king-and-rook', 'king', 'rook', 'king-or-rook', 'none'])),
    attacks: leaf(() => z.enum(['ignored', 'orthodox'])),
    chess960: leaf(() => z.boolean()),
    notation: leaf(() => z.enum(['king-two-squares', 'king-takes-rook'])),
  },
  enPassant: {
    window: leaf(() => z.enum(['reply-turn', 'first-micro-move'])),
    die: leaf(() => z.enum(['pawn', 'any'])),
    targetUnderPiece: leaf(() => z.enum(['dies', 'survives'])),
  },
  promotion: {
    pieces: leaf(() => z.array(z.enum(['n', 'b', 'r', 'q'])).min(1)),
    die: leaf(() => z.enum(['pawn', 'die-piece'])),
    onKingDie: leaf(() => z.boolean()),
    onKingDieBecomes: leaf(() => z.enum(['choice', 'king'])),
  },
  pass: {
    voluntary: leaf(() => z.boolean()),
    whenNothingMoves: leaf(() => z.enum(['pass', 'draw', 'loss'])),
    onFreeChoice: leaf(() => z.boolean()),
    whenCheckedBack: leaf(() => z.boolean()),
  },
  draws: {
    agreement: leaf(() => z.boolean()),
    midTurnOffers: leaf(() => z.boolean()),
    moveCounterLimit: leaf(() => z.number().int().positive().nullable()),
    castlingCounts: leaf(() => z.literal([1, 2])),
    passAdvancesCounter: leaf(() => z.boolean()),
    turnLimit: leaf(() => z.number().int().positive().nullable()),
    repetition: leaf(() => z.number().int().min(2).nullable()),
    repetitionCountsPasses: leaf(() => z.boolean()),
    ruleDraws: leaf(() => z.enum(['automatic', 'claim'])),
    stalemate: leaf(() => z.boolean()),
    insufficientMaterial: leaf(() => z.enum(['none', 'cannot-mate', 'cannot-win'])),
  },
  end: {
    kingCapture: leaf(() => z.boolean()),
    checkmate: leaf(() => z.boolean()),
    resignation: leaf(() => z.boolean()),
    flagFall: leaf(() => z.enum(['loss', 'loss-unless-insufficient'])),
  },
  start: {
    position: leaf(() => z.enum(['standard', 'chess960'])),
  },
  clock: {
    increment: leaf(() => z.enum(['per-turn', 'per-micro-move'])),
    passesFree: leaf(() => z.boolean()),
    passEarnsIncrement: leaf(() => z.boolean()),
    controls: leaf(() => z.array(z.string().regex(/^\d+\+\d+$/, 'a time control is "base+increment" in seconds, like "180+2"'))),
    disconnectGraceSeconds: leaf(() => z.number().int().nonnegative().nullable()),
  },
  cube: {
    enabled: leaf(() => z.boolean()),
    ownership: leaf(() => z.enum(['centered-last-taker', 'either'])),
    cap: leaf(() => z.number().int().min(2).nullable()),
    declineLoses: leaf(() => z.enum(['pre-offer-stake', 'post-offer-stake'])),
    timeoutIsDecline: leaf(() => z.boolean()),
  },
  stakes: {
    kind: leaf(() => z.enum(['none', 'pot', 'unmodelled'])),
    currency: leaf(() => z.string().min(1).nullable()),
    modes: leaf(() => z.array(z.enum(['classic', 'x2']))),
    zeroStakeIsTournament: leaf(() => z.boolean()),
  },
} as const;

type AxisSpec = { readonly [key: string]: (() => z.ZodType) | AxisSpec };
type Resolved<T> = { -readonly [K in keyof T]: T[K] extends () => infer S ? (S extends z.ZodType ? z.infer<S> : never) : Resolved<T[K]> };

/** Compile-time proof that the axes table and the `Rules` interface say the same thing. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const AXES_MATCH_RULES: Same<Resolved<typeof AXES>, Rules> = true;
void AXES_MATCH_RULES;

/** Every option path (`castling.dice`, `maximum`, …), in table order. */
export const LEAF_PATHS: readonly string[] = (() => {
  const out: string[] = [];
  const walk = (spec: AxisSpec, prefix: string): void => {
    for (const [k, v] of Object.entries(spec)) {
      if (typeof v === 'function') out.push(prefix + k);
      else walk(v, `${prefix}${k}.`);
    }
  };
  walk(AXES, '');
  return out;
})();

/** Each option path's schema, built when first called. */
export const LEAF_SCHEMAS: ReadonlyMap<string, () => z.ZodType> = (() => {
  const out = new Map<string, () => z.ZodType>();
  const walk = (spec: AxisSpec, prefix: string): void => {
    for (const [k, v] of Object.entries(spec)) {
      if (typeof v === 'function') out.set(prefix + k, v);
      else walk(v, `${prefix}${k}.`);
    }
  };
  walk(AXES, '');
  return out;
})();

/** Top-level keys of a file that are axis groups or axis leaves (everything but the metadata). */
export const AXIS_KEYS: readonly string[] = Object.keys(AXES);

/** A section of a page of this repository's docs, like `docs/rules.md §2.3`. */
export const DOC_SECTION = /^docs\/[\w./-]+\.md §\d+(?:\.\d+)*$/;
const URL_SOURCE = /^https?:\/\/[^\s/]+\.[^\s]+$/;

/** Is this a valid `source`: a docs section (`docs/rules.md §2.3`), a URL, "assumed", "inferred" (by `infer`, from a corpus) (and "override" for --set values)? */
export function isSource(text: string, allowOverride: boolean): boolean {
  return DOC_SECTION.test(text) || URL_SOURCE.test(text) || text === 'assumed' || text === 'inferred' || (allowOverride && text === 'override');
}

function leafSchema(value: z.ZodType, allowOverride: boolean) {
  return z
    .object({
      value,
      source: z.string().refine((s) => isSource(s, allowOverride), {
        message: 'source must be a docs section (like docs/rules.md §2.3), a URL (https://…), "assumed" or "inferred"',
      }),
      note: z.string().min(1).optional(),
      /** The sources leave this point open: the value is a documented default, not a fact. */
      open: z.boolean().optional(),
    })
    .strict()
    .superRefine((leaf, ctx) => {
      if (leaf.open === true && leaf.note === undefined) {
        ctx.addIssue({ code: 'custom', path: ['note'], message: 'an open point needs a note saying what is open and why this default' });
      }
    });
}

function groupSchema(spec: AxisSpec, partial: boolean, allowOverride: boolean): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(spec)) {
    const s = typeof v === 'function' ? leafSchema(v(), allowOverride) : groupSchema(v, partial, allowOverride);
    shape[k] = partial ? s.optional() : s;
  }
  return z.object(shape).strict();
}

const buildMetaShape = () => {
  const NAME = z.string().regex(/^[a-z0-9][a-z0-9.-]*$/, 'a dialect name is lower-case letters, digits, "-" and "."');
  return {
    name: NAME,
    title: z.string().min(1).optional(),
    aliases: z.array(NAME).optional(),
    description: z.string().optional(),
    extends: z.string().min(1).nullable().optional(),
  };
};
let metaShape: ReturnType<typeof buildMetaShape> | undefined;
/** Metadata keys of a dialect file (plain values, not inherited); built when first asked for. */
export const META_SHAPE = (): ReturnType<typeof buildMetaShape> => (metaShape ??= buildMetaShape());

const buildFileSchema = () => z.object({ ...META_SHAPE(), ...groupSchema(AXES, true, false).shape }).strict();
let fileSchema: ReturnType<typeof buildFileSchema> | undefined;
/**
 * One dialect file as written: metadata plus any subset of the axes (the rest comes from
 * `extends`). Built when first asked for: a run of the shipped dialects needs none (load.ts).
 */
export const dialectFileSchema = (): ReturnType<typeof buildFileSchema> => (fileSchema ??= buildFileSchema());
export type DialectFile = z.infer<ReturnType<typeof buildFileSchema>>;

export interface SourcedValue {
  value: unknown;
  source: string;
  note?: string;
  open?: boolean;
}

const buildResolvedSchema = () =>
  groupSchema(AXES, false, true).superRefine((tree, ctx) => {
    crossCheck(stripSources(tree) as Rules, ctx);
  });
let resolvedSchema: ReturnType<typeof buildResolvedSchema> | undefined;
/** The axes after `extends` and `--set`: every leaf present, sources kept, cross-field checks applied. Built when first asked for. */
export const resolvedAxesSchema = (): ReturnType<typeof buildResolvedSchema> => (resolvedSchema ??= buildResolvedSchema());

/** `{ dice: { count: { value: 3, source } } }` → `{ dice: { count: 3 } }`. */
export function stripSources(tree: unknown): unknown {
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree)) return tree;
  const o = tree as Record<string, unknown>;
  if ('value' in o && 'source' in o) return o.value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = stripSources(v);
  return out;
}

/** The roll options (how faces read, who rolls, free moves): each one the form of the game it was made for. */
function crossCheckRolls(r: Rules, bad: (path: string, message: string) => void): void {
  const byDie = r.dice.facesByDie;
  if (byDie !== null && byDie.length !== r.dice.count) bad('dice.facesByDie', `${byDie.length} dice have faces listed, but dice.count is ${r.dice.count}`);
  if (byDie !== null && r.turn.structure !== 'one-move' && byDie.some((d) => d.includes('any'))) {
    bad('dice.facesByDie', 'an "any" face (any legal move) is a one-move rule: turn.structure must be "one-move"');
  }
  if (byDie !== null && r.dice.reads !== 'pieces') bad('dice.facesByDie', `faces per die name pieces: dice.reads must be "pieces", not "${r.dice.reads}"`);
  if (r.dice.reads === 'count' && (r.dice.count !== 1 || r.turn.structure !== 'each-die')) {
    bad('dice.reads', 'a count die is one die giving the number of micro-moves: dice.count 1 and turn.structure "each-die"');
  }
  if (r.dice.reads === 'piece-and-count' && (r.dice.count !== 2 || r.turn.structure !== 'each-die')) {
    bad('dice.reads', 'a piece die and a count die are two dice paying micro-moves one by one: dice.count 2 and turn.structure "each-die"');
  }
  if (r.dice.reads !== 'pieces' && r.dice.draw !== 'fair') bad('dice.draw', `dice.reads "${r.dice.reads}" rolls plain dice: dice.draw must be "fair"`);
  if (r.dice.movableTest === 'step' && r.dice.draw !== 'movable-types') bad('dice.movableTest', 'the test of which types can move is part of dice.draw "movable-types"');
  if (r.turn.onePiece && r.turn.structure !== 'each-die') bad('turn.onePiece', 'one piece making every micro-move of a turn needs turn.structure "each-die"');
  if (r.turn.firstMoveFree && (r.turn.structure !== 'one-move' || r.dice.count === 0)) bad('turn.firstMoveFree', 'a free first move is a one-move rule of a dialect with dice: turn.structure "one-move"');
  if (r.pass.whenCheckedBack && (r.dice.whoRolls !== 'not-in-or-after-check' || !r.pass.onFreeChoice)) {
    bad('pass.whenCheckedBack', 'a pass in check after giving check is the free turn\'s pass: dice.whoRolls "not-in-or-after-check" and pass.onFreeChoice true');
  }
  if (r.dice.whoRolls !== 'every-turn' && (r.check !== 'orthodox' || r.turn.structure !== 'one-move')) {
    bad('dice.whoRolls', 'not rolling in or after check needs a check rule and one move a turn: check "orthodox", turn.structure "one-move"');
  }
}

interface IssueSink {
  addIssue(issue: { code: 'custom'; path: (string | number)[]; message: string }): void;
}

/**
 * Combinations that no core could play. Each problem is reported on the leaf whose
 * value is most likely the mistake.
 */
export function crossCheck(r: Rules, ctx: IssueSink): void {
  const bad = (path: string, message: string): void => ctx.addIssue({ code: 'custom', path: [...path.split('.'), 'value'], message });
  const noDice = r.dice.count === 0;

  if (r.start.position === 'chess960' && !r.castling.chess960) {
    bad('castling.chess960', 'a Chess960 start needs 960-capable castling (castling.chess960 = true)');
  }
  if (r.start.position === 'chess960' && r.castling.notation !== 'king-takes-rook') {
    bad('castling.notation', 'Chess960 castling must be written king-takes-rook (the two-square form is ambiguous there)');
  }
  if (noDice && r.dice.draw !== 'fair') {
    bad('dice.draw', `with dice.count 0 nothing is rolled: dice.draw "${r.dice.draw}" needs dice (leave it "fair")`);
  }
  if (noDice && r.turn.structure !== 'one-move') {
    bad('turn.structure', 'with dice.count 0 a turn is one move: turn.structure must be "one-move"');
  }
  if (noDice && r.castling.dice !== 'none') {
    bad('castling.dice', 'with dice.count 0 castling needs no dice: castling.dice must be "none"');
  }
  if (!noDice && r.castling.dice === 'none') {
    bad('castling.dice', `dice.count ${r.dice.count} rolls dice: say which die castling needs (castling.dice "none" is for dice-less chess)`);
  }
  if (r.castling.dice === 'king-and-rook' && r.dice.count < 2) {
    bad('castling.dice', `castling on a king die and a rook die needs at least 2 dice, dice.count is ${r.dice.count}`);
  }
  if (r.turn.structure === 'one-move' && r.maximum !== 'none') {
    bad('maximum', `a one-move turn spends no dice one by one: maximum must be "none", not "${r.maximum}"`);
  }
  if (r.turn.structure === 'each-die' && r.turn.doublesAnyMove) {
    bad('turn.doublesAnyMove', 'doublesAnyMove is a one-move rule; with each-die every die pays one micro-move of its own type');
  }
  if (r.turn.doublesAnyMove && r.dice.count < 2) {
    bad('turn.doublesAnyMove', `doubles need at least 2 dice, dice.count is ${r.dice.count}`);
  }
  if (r.dice.draw === 'movable-types' && r.dice.count > 1) {
    bad('dice.draw', `a die drawn from the movable piece types is a one-die rule (BrainKing), dice.count is ${r.dice.count}`);
  }
  const faces = r.dice.faces;
  if (new Set(faces).size !== faces.length) bad('dice.faces', 'each face must stand for a different piece');
  crossCheckRolls(r, bad);

  if (r.check === 'none' && r.end.checkmate) bad('end.checkmate', 'checkmate needs a check model: check is "none"');
  if (r.check === 'none' && r.draws.stalemate) bad('draws.stalemate', 'stalemate needs a check model: check is "none"');
  if (!r.end.kingCapture && !r.end.checkmate) bad('end.kingCapture', 'no way to win on the board: neither end.kingCapture nor end.checkmate');
  if (r.check === 'none' && !r.end.kingCapture) bad('end.kingCapture', 'with no check the game is won by capturing the king: end.kingCapture must be true');
  if (r.kingCaptureExempt && !r.end.kingCapture) bad('kingCaptureExempt', 'the king-capture exemption needs end.kingCapture = true');

  const pieces = r.promotion.pieces;
  if (new Set(pieces).size !== pieces.length) bad('promotion.pieces', 'a promotion piece is listed twice');
  if (r.promotion.die === 'die-piece' && pieces.length !== 4) {
    bad('promotion.pieces', 'the die-piece rule maps dice 2–5 to N, B, R, Q: all four must be promotion pieces');
  }
  if (r.promotion.die === 'die-piece' && noDice) bad('promotion.die', 'the die-piece promotion rule needs dice (dice.count is 0)');
  if (r.promotion.onKingDie && r.promotion.die !== 'die-piece') {
    bad('promotion.onKingDie', 'onKingDie is part of the die-piece promotion rule; promotion.die is "pawn"');
  }
  if (r.promotion.onKingDieBecomes === 'king' && !r.promotion.onKingDie) {
    bad('promotion.onKingDieBecomes', 'a pawn becomes a king on a king die only where a king die may move it: promotion.onKingDie must be true');
  }
  if (r.promotion.onKingDieBecomes === 'king' && r.check !== 'none') {
    bad('promotion.onKingDieBecomes', 'a second king is a rule of a game without check (which of two kings would be in check?): check must be "none"');
  }

  if (r.cube.enabled && r.stakes.kind !== 'pot') bad('cube.enabled', 'a doubling cube doubles a bank: stakes.kind must be "pot"');
  if (r.cube.enabled !== r.stakes.modes.includes('x2')) {
    bad('stakes.modes', r.cube.enabled ? 'the cube is played in mode "x2": list it in stakes.modes' : 'mode "x2" is the doubling-cube mode but cube.enabled is false');
  }
  if (r.cube.cap !== null && (r.cube.cap & (r.cube.cap - 1)) !== 0) bad('cube.cap', `the cube doubles from 1: its cap must be a power of two, not ${r.cube.cap}`);
  if (r.stakes.kind === 'none' && (r.stakes.currency !== null || r.stakes.modes.length > 0 || r.stakes.zeroStakeIsTournament)) {
    bad('stakes.kind', 'stakes.kind is "none" but a currency, modes or zeroStakeIsTournament are given');
  }
  if (r.draws.midTurnOffers && !r.draws.agreement) bad('draws.midTurnOffers', 'mid-turn draw offers need draws.agreement = true');
  if (r.draws.castlingCounts === 2 && r.castling.dice !== 'king-and-rook') {
    bad('draws.castlingCounts', 'castling counts as two moves only where it spends two dice (castling.dice "king-and-rook")');
  }
  if (new Set(r.clock.controls).size !== r.clock.controls.length) bad('clock.controls', 'a time control is listed twice');
}
