import { escapeXml } from '../../report/escape.js';

/**
 * Line charts over runs for the trend page, in the style of report.html's charts (plain SVG
 * shapes and text, no script). Every run is one point of every series, a circle whose
 * tooltip names the run and the value.
 */
export interface Series {
  name: string;
  color: string;
  values: number[];
}

const FONT = 'font-family="sans-serif"';
/** One decimal, as a number's shortest text (a year of runs draws tens of thousands of points: toFixed is too slow). */
const n = (x: number) => Math.round(x * 10) / 10;

export function runsChart(title: string, runs: { run: number; label: string }[], series: Series[], unit = ''): string {
  const w = 520;
  const h = 220;
  const left = 56;
  const right = 12;
  const top = 28;
  const bottom = 40;
  let max = 1;
  for (const s of series) for (const v of s.values) if (v > max) max = v;
  const x = (i: number) => (runs.length <= 1 ? left + (w - left - right) / 2 : left + (i * (w - left - right)) / (runs.length - 1));
  const y = (v: number) => top + (1 - v / max) * (h - top - bottom);
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="chart trend" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" data-runs="${runs.length}"><title>${escapeXml(title)}</title>`];
  parts.push(`<text x="${left}" y="16" font-size="13" font-weight="600" ${FONT}>${escapeXml(title)}</text>`);
  parts.push(`<line x1="${left}" y1="${h - bottom}" x2="${w - right}" y2="${h - bottom}" stroke="#444"/><line x1="${left}" y1="${top}" x2="${left}" y2="${h - bottom}" stroke="#444"/>`);
  parts.push(`<text x="${left - 6}" y="${top + 4}" font-size="10" text-anchor="end" ${FONT}>${escapeXml(`${max}${unit}`)}</text><text x="${left - 6}" y="${h - bottom + 4}" font-size="10" text-anchor="end" ${FONT}>0</text>`);
  // What every series shares, worked out once: each run's x and the escaped start of its tooltip.
  const xs = runs.map((_, i) => n(x(i)));
  const tips = runs.map((r) => escapeXml(`run #${r.run} ${r.label}: `));
  const every = Math.max(1, Math.ceil(runs.length / 8));
  runs.forEach((r, i) => {
    if (i % every === 0 || i === runs.length - 1) parts.push(`<text x="${xs[i]}" y="${h - bottom + 16}" font-size="10" text-anchor="middle" ${FONT}>#${r.run}</text>`);
  });
  const tail = escapeXml(unit);
  series.forEach((s, k) => {
    const ys = s.values.map((v) => n(y(v)));
    if (s.values.length > 1) parts.push(`<polyline points="${ys.map((yy, i) => `${xs[i]},${yy}`).join(' ')}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
    const name = escapeXml(s.name);
    // One point per run, its tooltip naming the run and the value; the series' colour on their group.
    let points = `<g fill="${s.color}">`;
    for (let i = 0; i < s.values.length; i++) points += `<circle class="point" cx="${xs[i]}" cy="${ys[i]}" r="3.5"><title>${tips[i]}${name} ${s.values[i]}${tail}</title></circle>`;
    parts.push(`${points}</g>`);
    parts.push(`<rect x="${left + k * 120}" y="${h - 14}" width="12" height="4" fill="${s.color}"/><text x="${left + k * 120 + 16}" y="${h - 9}" font-size="11" ${FONT}>${escapeXml(s.name.length > 16 ? `${s.name.slice(0, 15)}…` : s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

/** Distinct colours for series of dialects (report.html's palette). */
export const PALETTE = ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2', '#b279a2', '#eeca3b', '#9d755d'];
