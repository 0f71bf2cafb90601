import { escapeXml } from './escape-xml.js';

/**
 * An example position as inline SVG: board, pieces as Unicode glyphs, the dice still to
 * play as die faces, recorded moves as red arrows and the dialect's moves as green
 * ones. No ids, no external references, no scripts: many boards can share one page,
 * and the page works offline. The DFEN is read leniently here (the report never
 * re-plays, and an unreadable record's text must still draw something).
 */

const SQ = 40;
const LEFT = 18;
const TOP = 6;
const BOARD = SQ * 8;
const DIE = 30;
const WIDTH = LEFT + BOARD + 6;
const DICE_TOP = TOP + BOARD + 22;
const HEIGHT = DICE_TOP + DIE + 24;

const LIGHT = '#f0d9b5';
const DARK = '#b58863';
const RED = '#d62728';
const GREEN = '#2ca02c';

/** Solid glyphs for both sides (filled white or black), with U+FE0E so no font draws them as emoji. */
const GLYPH: Record<string, string> = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F\uFE0E' };
const OUTLINE: Record<string, string> = { k: '\u2654', q: '\u2655', r: '\u2656', b: '\u2657', n: '\u2658', p: '\u2659\uFE0E' };
const FACE: Record<string, number> = { p: 1, n: 2, b: 3, r: 4, q: 5, k: 6 };
/** Pip positions on a unit die, per face (the explorer's dice buttons draw them too). */
export const PIPS: Record<number, [number, number][]> = {
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
  6: [[0.27, 0.25], [0.73, 0.25], [0.27, 0.5], [0.73, 0.5], [0.27, 0.75], [0.73, 0.75]],
};

/** Board field → 64 piece letters (index = rank*8 + file, a1 = 0), or null when it is not a board. */
export function readBoardField(field: string): (string | null)[] | null {
  const rows = field.split('/');
  if (rows.length !== 8) return null;
  const squares: (string | null)[] = new Array(64).fill(null);
  for (let i = 0; i < 8; i++) {
    let file = 0;
    for (const ch of rows[i]) {
      if (/[1-8]/.test(ch)) file += Number(ch);
      else if (/[pnbrqk]/i.test(ch) && file < 8) squares[(7 - i) * 8 + file++] = ch;
      else return null;
    }
    if (file !== 8) return null;
  }
  return squares;
}

/** "e2e4", "e7e8q", "e1h1" → [from, to] square indices, or null for anything else (e.g. a result). */
export function moveSquares(move: string): [number, number] | null {
  const m = /^([a-h])([1-8])([a-h])([1-8])[qrbnk]?$/i.exec(move.trim());
  if (!m) return null;
  const sq = (f: string, r: string) => (Number(r) - 1) * 8 + (f.toLowerCase().charCodeAt(0) - 97);
  const from = sq(m[1], m[2]);
  const to = sq(m[3], m[4]);
  return from === to ? null : [from, to];
}

function center(sq: number): [number, number] {
  return [LEFT + (sq & 7) * SQ + SQ / 2, TOP + (7 - (sq >> 3)) * SQ + SQ / 2];
}

const n = (x: number) => Number(x.toFixed(1));

function arrow(from: number, to: number, color: string, width: number, opts: { dashed?: boolean; label?: string } = {}): string {
  const [x1, y1] = center(from);
  const [x2, y2] = center(to);
  const len = Math.hypot(x2 - x1, y2 - y1);
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const head = width * 2.6;
  const tipX = x2 - ux * SQ * 0.12;
  const tipY = y2 - uy * SQ * 0.12;
  const baseX = tipX - ux * head;
  const baseY = tipY - uy * head;
  const px = -uy * head * 0.6;
  const py = ux * head * 0.6;
  const dash = opts.dashed ? ` stroke-dasharray="${n(width * 1.6)} ${n(width * 1.2)}"` : '';
  let svg =
    `<g class="arrow" opacity="0.85"><line x1="${n(x1)}" y1="${n(y1)}" x2="${n(baseX)}" y2="${n(baseY)}" stroke="${color}" stroke-width="${width}" stroke-linecap="round"${dash}/>` +
    `<polygon points="${n(tipX)},${n(tipY)} ${n(baseX + px)},${n(baseY + py)} ${n(baseX - px)},${n(baseY - py)}" fill="${color}"/>`;
  if (opts.label) {
    const lx = x1 + ux * SQ * 0.32;
    const ly = y1 + uy * SQ * 0.32;
    svg += `<circle cx="${n(lx)}" cy="${n(ly)}" r="7" fill="${color}" stroke="#fff" stroke-width="1"/><text x="${n(lx)}" y="${n(ly + 3.5)}" font-size="10" font-weight="bold" text-anchor="middle" fill="#fff" font-family="sans-serif">${escapeXml(opts.label)}</text>`;
  }
  return `${svg}</g>`;
}

function die(x: number, letter: string): string {
  const face = FACE[letter.toLowerCase()];
  const white = letter === letter.toUpperCase();
  const fill = white ? '#ffffff' : '#333333';
  const pip = white ? '#222222' : '#ffffff';
  let svg = `<g class="die"><rect x="${x}" y="${DICE_TOP}" width="${DIE}" height="${DIE}" rx="5" fill="${fill}" stroke="#222" stroke-width="1.5"/>`;
  for (const [px, py] of PIPS[face]) svg += `<circle cx="${n(x + px * DIE)}" cy="${n(DICE_TOP + py * DIE)}" r="2.8" fill="${pip}"/>`;
  const at = `x="${x + DIE / 2}" y="${DICE_TOP + DIE + 16}" font-size="16" text-anchor="middle"`;
  const role = letter.toLowerCase();
  svg += white
    ? `<text class="piece-fill" ${at} fill="#fff">${GLYPH[role]}</text><text class="piece" ${at} fill="#000">${OUTLINE[role]}</text></g>`
    : `<text class="piece" ${at} fill="#000">${GLYPH[role]}</text></g>`;
  return svg;
}

export function boardSvg(dfen: string, arrows: { recorded: string[]; allowed: string[][] }): string {
  const fields = dfen.trim().split(/\s+/);
  const squares = readBoardField(fields[0] ?? '');
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img">`,
    `<title>${escapeXml(dfen)}</title>`,
    `<style>.piece,.piece-fill{font-family:"DejaVu Sans","Segoe UI Symbol","Noto Sans Symbols 2","Apple Symbols",sans-serif}</style>`,
  ];
  for (let sq = 0; sq < 64; sq++) {
    const x = LEFT + (sq & 7) * SQ;
    const y = TOP + (7 - (sq >> 3)) * SQ;
    parts.push(`<rect x="${x}" y="${y}" width="${SQ}" height="${SQ}" fill="${((sq & 7) + (sq >> 3)) % 2 === 0 ? DARK : LIGHT}"/>`);
  }
  for (let i = 0; i < 8; i++) {
    parts.push(`<text x="${LEFT + i * SQ + SQ / 2}" y="${TOP + BOARD + 14}" font-size="11" text-anchor="middle" fill="#555" font-family="sans-serif">${'abcdefgh'[i]}</text>`);
    parts.push(`<text x="${LEFT / 2}" y="${TOP + i * SQ + SQ / 2 + 4}" font-size="11" text-anchor="middle" fill="#555" font-family="sans-serif">${8 - i}</text>`);
  }
  if (squares) {
    squares.forEach((p, sq) => {
      if (!p) return;
      const [cx, cy] = center(sq);
      const white = p === p.toUpperCase();
      // White: the solid glyph filled white under the outline glyph, so the piece reads white on any
      // square. Black: the solid glyph alone (a stroke would fill its fine inner contours).
      const at = `x="${cx}" y="${cy + 12}" font-size="34" text-anchor="middle"`;
      const role = p.toLowerCase();
      parts.push(
        white
          ? `<text class="piece-fill" ${at} fill="#ffffff">${GLYPH[role]}</text><text class="piece" ${at} fill="#111111">${OUTLINE[role]}</text>`
          : `<text class="piece" ${at} fill="#111111">${GLYPH[role]}</text>`,
      );
    });
  } else {
    parts.push(`<text x="${LEFT + BOARD / 2}" y="${TOP + BOARD / 2}" font-size="16" text-anchor="middle" fill="#900" font-family="sans-serif">position not readable</text>`);
  }
  parts.push(...allowedArrows(arrows.allowed), ...recordedArrows(arrows.recorded));

  const side = fields[1] === 'b' ? 'black' : fields[1] === 'w' ? 'white' : null;
  const diceField = fields[6] && fields[6] !== '-' && /^[pnbrqk]+$/i.test(fields[6]) ? fields[6].slice(0, 6) : '';
  [...diceField].forEach((letter, i) => parts.push(die(LEFT + i * (DIE + 10), letter)));
  const note = [side ? `${side} to move` : null, diceField ? null : 'no dice'].filter(Boolean).join(', ');
  parts.push(`<text x="${WIDTH - 6}" y="${DICE_TOP + 19}" font-size="12" text-anchor="end" fill="#333" font-family="sans-serif">${escapeXml(note)}</text>`);
  parts.push('</svg>');
  return parts.join('');
}

/** Recorded micro-moves in order, numbered when there are several. */
function recordedArrows(recorded: string[]): string[] {
  const out: string[] = [];
  const many = recorded.length > 1;
  recorded.forEach((m, i) => {
    const sq = moveSquares(m);
    if (sq) out.push(arrow(sq[0], sq[1], RED, 5, { label: many ? String(i + 1) : undefined }));
  });
  return out;
}

/**
 * Allowed continuations: each distinct first micro-move solid, later micro-moves
 * dashed, at most 40 arrows (a wide-open position would be a green blur).
 */
function allowedArrows(allowed: string[][]): string[] {
  const seen = new Set<string>();
  const pick = (moves: string[]): [number, number][] => {
    const out: [number, number][] = [];
    for (const m of moves) {
      const sq = moveSquares(m);
      if (!sq || seen.has(`${sq[0]}-${sq[1]}`)) continue;
      seen.add(`${sq[0]}-${sq[1]}`);
      out.push(sq);
    }
    return out;
  };
  // First moves claim their squares before later ones, so a move that is both is drawn solid.
  const first = pick(allowed.map((t) => t[0]).filter((m): m is string => m !== undefined));
  const later = pick(allowed.flatMap((t) => t.slice(1)));
  return [...later.map((sq) => arrow(sq[0], sq[1], GREEN, 4, { dashed: true })), ...first.map((sq) => arrow(sq[0], sq[1], GREEN, 7))].slice(-40);
}
