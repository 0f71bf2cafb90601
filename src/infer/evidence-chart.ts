import { escapeXml } from '../report/escape.js';
import type { OptionDoc } from './document.js';
import { valueText } from './options.js';

/**
 * One small inline SVG per option for report.html, in the run report's chart style (plain
 * shapes and text, no script, no ids): conforming games per value on the left, and the
 * evidence by absence per pair of consistent values (log10 LR) on the right, with the
 * threshold that disfavours as a dashed line.
 */
const FONT = 'font-family="sans-serif"';
const n = (x: number) => Number(x.toFixed(1));
const cut = (t: string, max: number) => `${escapeXml(t.length > max ? `${t.slice(0, max - 1)}…` : t)}<title>${escapeXml(t)}</title>`;

export function evidenceChart(o: OptionDoc, games: number, threshold: number): string {
  const rowH = 22;
  const labelW = 120;
  const barW = 200;
  const gap = 40;
  const pairs = o.pairs;
  const rows = Math.max(o.values.length, pairs.length, 1);
  const top = 28;
  const h = top + rows * rowH + 24;
  const rightX = labelW + barW + gap + 170;
  const w = rightX + barW + 70;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img"><title>${escapeXml(`${o.path}: conforming games per value; evidence by absence per pair`)}</title>`];
  parts.push(`<text x="0" y="14" font-size="12" font-weight="bold" ${FONT}>conforming games (of ${games})</text>`);
  o.values.forEach((v, i) => {
    const y = top + i * rowH;
    const share = games === 0 ? 0 : v.conforming / games;
    const favoured = o.favoured.some((f) => valueText(f) === valueText(v.value));
    parts.push(`<text x="${labelW - 6}" y="${y + 14}" font-size="11" text-anchor="end" ${FONT}>${cut(valueText(v.value), 18)}</text>`);
    parts.push(`<rect x="${labelW}" y="${y + 3}" width="${n(barW * share)}" height="${rowH - 6}" fill="${favoured ? '#2ca02c' : '#4c78a8'}"/>`);
    parts.push(`<text x="${n(labelW + barW * share + 4)}" y="${y + 14}" font-size="11" ${FONT}>${v.conforming}${v.decisive ? ` (${v.decisive} decisive)` : ''}</text>`);
  });
  const left = labelW + barW + gap;
  parts.push(`<text x="${left}" y="14" font-size="12" font-weight="bold" ${FONT}>evidence by absence (log10 LR)</text>`);
  if (o.opportunitiesCounted === 'none') parts.push(`<text x="${left}" y="${top + 14}" font-size="11" fill="#666" ${FONT}>opportunities not counted for this option</text>`);
  else if (pairs.length === 0) parts.push(`<text x="${left}" y="${top + 14}" font-size="11" fill="#666" ${FONT}>no opportunity between consistent values</text>`);
  const max = Math.max(threshold * 2, ...pairs.map((p) => p.log10LR));
  const scale = (x: number) => (Math.min(x, max) / max) * barW;
  pairs.forEach((p, i) => {
    const y = top + i * rowH;
    const strong = p.log10LR >= threshold;
    parts.push(`<text x="${rightX - 6}" y="${y + 14}" font-size="11" text-anchor="end" ${FONT}>${cut(`${valueText(p.value)} vs ${valueText(p.rival)}`, 28)}</text>`);
    parts.push(`<rect x="${rightX}" y="${y + 3}" width="${n(Math.max(1, scale(p.log10LR)))}" height="${rowH - 6}" fill="${strong ? '#d62728' : '#bbb'}"/>`);
    parts.push(`<text x="${n(rightX + Math.max(1, scale(p.log10LR)) + 4)}" y="${y + 14}" font-size="11" ${FONT}>${p.log10LR.toFixed(1)}</text>`);
  });
  if (pairs.length) {
    const x = n(rightX + scale(threshold));
    parts.push(`<line x1="${x}" y1="${top}" x2="${x}" y2="${top + pairs.length * rowH}" stroke="#d62728" stroke-width="1.5" stroke-dasharray="4 3"/>`);
    parts.push(`<text x="${x}" y="${top + pairs.length * rowH + 14}" font-size="10" text-anchor="middle" fill="#d62728" ${FONT}>${threshold}</text>`);
  }
  parts.push('</svg>');
  return parts.join('');
}
