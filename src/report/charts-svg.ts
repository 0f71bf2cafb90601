import { escapeXml } from './escape.js';
import { FACE_LABELS, pct } from './format.js';
import type { DiceStats, Matrix, Rate } from './summary-schema.js';
import { sourceLabel } from './classes.js';

/**
 * Small inline SVG charts for report.html: plain shapes and text, no script, no ids,
 * so the page stays self-contained and any number of charts can share it.
 */

const FONT = 'font-family="sans-serif"';
const n = (x: number) => Number(x.toFixed(1));

/** Long corpus or dialect names are cut for the picture; the full text stays in a tooltip. */
function label(text: string, max: number): string {
  const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return `${escapeXml(cut)}<title>${escapeXml(text)}</title>`;
}

/** Red (0 % conforming) through amber to green (100 %). */
function heat(rate: number): string {
  // Pastel shades so the dark cell text stays readable on every one of them.
  return `hsl(${Math.round(rate * 120)},60%,72%)`;
}

export function matrixChart(m: Matrix): string {
  const cellW = 110;
  const cellH = 30;
  const left = 170;
  const top = 40;
  const w = left + cellW * m.dialects.length + 10;
  const h = top + cellH * m.sources.length + 10;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img"><title>conformance matrix</title>`];
  m.dialects.forEach((d, j) => {
    parts.push(`<text x="${left + j * cellW + cellW / 2}" y="${top - 12}" font-size="12" text-anchor="middle" ${FONT}>${label(d, 16)}</text>`);
  });
  m.sources.forEach((src, i) => {
    const y = top + i * cellH;
    parts.push(`<text x="${left - 8}" y="${y + cellH / 2 + 4}" font-size="12" text-anchor="end" ${FONT}>${label(sourceLabel(src), 24)}</text>`);
    m.cells[i].forEach((c, j) => {
      const total = c.conforming + c.diverging + c.unreadable + c.faulty;
      const x = left + j * cellW;
      const fill = total === 0 ? '#ddd' : heat(c.conforming / total);
      const text = total === 0 ? '—' : `${pct(c.conforming / total)} (${c.conforming}/${total})`;
      parts.push(
        `<rect x="${x + 1}" y="${y + 1}" width="${cellW - 2}" height="${cellH - 2}" fill="${fill}" rx="3"/>` +
          `<text x="${x + cellW / 2}" y="${y + cellH / 2 + 4}" font-size="11" text-anchor="middle" fill="#111" ${FONT}>${escapeXml(text)}</text>`,
      );
    });
  });
  parts.push('</svg>');
  return parts.join('');
}

/** Face counts as bars, with the uniform expectation as a dashed line. */
export function facesChart(d: DiceStats): string {
  const f = d.faces;
  const w = 480;
  const h = 200;
  const base = 160;
  const barW = 44;
  const gap = 20;
  const left = 40;
  const max = Math.max(1, ...f.counts, f.expectedEach ?? 0);
  const scale = (v: number) => (v / max) * 130;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img"><title>dice face frequencies</title>`];
  parts.push(`<line x1="${left - 6}" y1="${base}" x2="${left + 6 * (barW + gap)}" y2="${base}" stroke="#444"/>`);
  f.counts.forEach((c, i) => {
    const x = left + i * (barW + gap);
    const bh = scale(c);
    parts.push(`<rect x="${x}" y="${n(base - bh)}" width="${barW}" height="${n(bh)}" fill="#4c78a8"/>`);
    // Counts sit at the foot of tall bars, so they never collide with the dashed expectation line.
    const inside = bh > 22;
    parts.push(`<text x="${x + barW / 2}" y="${n(inside ? base - 8 : base - bh - 4)}" font-size="11" text-anchor="middle" fill="${inside ? '#fff' : '#222'}" ${FONT}>${c}</text>`);
    parts.push(`<text x="${x + barW / 2}" y="${base + 16}" font-size="11" text-anchor="middle" ${FONT}>${escapeXml(FACE_LABELS[i])}</text>`);
  });
  if (f.expectedEach !== null) {
    const y = n(base - scale(f.expectedEach));
    parts.push(`<line x1="${left - 6}" y1="${y}" x2="${left + 6 * (barW + gap) - gap + 6}" y2="${y}" stroke="#d62728" stroke-width="2" stroke-dasharray="6 4"/>`);
    parts.push(`<text x="${left + 6 * (barW + gap) - gap + 10}" y="${y + 4}" font-size="11" fill="#d62728" ${FONT}>uniform</text>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

/** Observed vs expected proportions (passes, opening passes, doubles) as paired bars on a 0–100 % scale. */
export function ratesChart(d: DiceStats): string {
  const rows: [string, Rate][] = [
    ['forced passes', d.pass],
    ['opening passes', d.openingPass],
    ['doubles', d.doubles],
  ];
  const w = 420;
  const rowH = 44;
  const left = 110;
  const barMax = 250;
  const h = rows.length * rowH + 30;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img"><title>observed vs expected rates</title>`];
  rows.forEach(([name, r], i) => {
    const y = 10 + i * rowH;
    parts.push(`<text x="${left - 8}" y="${y + 18}" font-size="12" text-anchor="end" ${FONT}>${escapeXml(name)}</text>`);
    const bars: [string, number | null, string][] = [
      ['observed', r.rate, '#4c78a8'],
      ['expected', r.expected, '#bbbbbb'],
    ];
    bars.forEach(([what, v, color], k) => {
      const by = y + k * 16;
      const bw = v === null ? 0 : Math.max(1, v * barMax);
      parts.push(`<rect x="${left}" y="${by}" width="${n(bw)}" height="13" fill="${color}"/>`);
      parts.push(`<text x="${n(left + bw + 4)}" y="${by + 11}" font-size="10" ${FONT}>${escapeXml(`${what} ${pct(v)}`)}</text>`);
    });
  });
  parts.push(`<line x1="${left}" y1="4" x2="${left}" y2="${h - 16}" stroke="#444"/>`);
  parts.push(`<text x="${left}" y="${h - 4}" font-size="10" ${FONT}>0 %</text><text x="${left + barMax}" y="${h - 4}" font-size="10" text-anchor="middle" ${FONT}>100 %</text>`);
  parts.push('</svg>');
  return parts.join('');
}
