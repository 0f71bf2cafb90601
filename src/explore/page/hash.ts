import { splitTurn } from '../../core/uci.js';

/**
 * The explorer's state in the URL hash, so a link reproduces it:
 * `#dfen=<DFEN, URL-encoded>&turn=<uci,uci,…>&step=N&set=<option lines>&focus=<dialect>`.
 */
export interface ExplorerState {
  dfen: string;
  /** Typed micro-moves; null = no turn typed ("pass" is []). */
  turn: string[] | null;
  /** How many micro-moves of the turn the boards show played. */
  step: number;
  /** The options box: `path=value` or `name+path=value` lines. */
  set: string;
  /** A column to bring forward (the report links name the dialect of the reproduction). */
  focus: string;
}

export const DEFAULT_DFEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB';

const decode = (v: string): string => {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
};

export function parseHash(hash: string): ExplorerState {
  const state: ExplorerState = { dfen: DEFAULT_DFEN, turn: null, step: 0, set: '', focus: '' };
  for (const part of hash.replace(/^#/, '').split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = part.slice(0, eq);
    const raw = part.slice(eq + 1);
    // A DFEN has no "+": form-encoded spaces are read as spaces.
    if (key === 'dfen') state.dfen = decode(raw.replace(/\+/g, ' ')).trim() || DEFAULT_DFEN;
    else if (key === 'turn') state.turn = raw === '' ? null : splitTurn(decode(raw));
    else if (key === 'step') state.step = Math.max(0, Number.parseInt(raw, 10) || 0);
    else if (key === 'set') state.set = decode(raw);
    else if (key === 'focus') state.focus = decode(raw);
  }
  if (state.turn === null) state.step = 0;
  else state.step = Math.min(state.step, state.turn.length);
  return state;
}

const enc = (v: string): string => encodeURIComponent(v).replace(/%2C/g, ',');

export function formatHash(s: ExplorerState): string {
  const parts = [`dfen=${encodeURIComponent(s.dfen)}`];
  if (s.turn !== null) parts.push(`turn=${s.turn.length === 0 ? 'pass' : enc(s.turn.join(','))}`);
  if (s.turn !== null && s.step > 0) parts.push(`step=${s.step}`);
  if (s.set.trim() !== '') parts.push(`set=${encodeURIComponent(s.set.trim())}`);
  if (s.focus !== '') parts.push(`focus=${encodeURIComponent(s.focus)}`);
  return `#${parts.join('&')}`;
}
