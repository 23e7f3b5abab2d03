// Two small SVG chart shapes for the bench results, hand-drawn (no chart
// library): grouped horizontal bars on a log axis, and latency ranges
// (min–p99 line, p50–p95 box, p50 mark) on a log axis.

import { colourOf } from './colours.ts';

const FONT = 'font-family="system-ui, -apple-system, Segoe UI, sans-serif"';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function logScale(
  min: number,
  max: number,
  x0: number,
  x1: number,
  tight = false,
): { x: (v: number) => number; ticks: number[]; lo: number; hi: number } {
  // Bounds on the 1-2-5 ladder when tight (the axis hugs the data), else whole
  // decades (bars start at a decade, so their lengths stay comparable).
  const ladder = (v: number, up: boolean) => {
    const d = Math.pow(10, Math.floor(Math.log10(v)));
    const steps = (tight ? [1, 2, 5, 10] : [1, 10]).map((k) => k * d);
    return up ? steps.find((t) => t >= v * 0.9999)! : [...steps].reverse().find((t) => t <= v * 1.0001)!;
  };
  const lo = ladder(min, false);
  const hi = ladder(max, true);
  const x = (v: number) =>
    x0 + ((Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * (x1 - x0);
  const ticks: number[] = [];
  for (let d = Math.pow(10, Math.floor(Math.log10(lo))); d <= hi; d *= 10)
    for (const k of [1, 2, 5]) if (k * d >= lo * 0.9999 && k * d <= hi * 1.0001) ticks.push(k * d);
  return { x, ticks, lo, hi };
}

function compact(v: number): string {
  if (v >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  if (v >= 1) return `${+v.toFixed(1)}`;
  return `${+v.toFixed(2)}`;
}

export interface BarGroup {
  label: string;
  bars: { series: string; value: number }[];
}

/** Grouped horizontal bars (longer = more ops/s), one colour per series, log x axis. */
export function groupedBars(
  title: string,
  subtitle: string,
  unit: string,
  groups: BarGroup[],
  seriesOrder: string[],
): string {
  // Room for the longest group label (12 px bold: about 7.5 px a character).
  const left = Math.max(120, 28 + Math.ceil(Math.max(...groups.map((g) => g.label.length)) * 7.5));
  const right = 860;
  const barH = 9;
  const gap = 12;
  const top = 70 + Math.ceil(seriesOrder.length / 4) * 18;
  const values = groups.flatMap((g) => g.bars.map((b) => b.value)).filter((v) => v > 0);
  const s = logScale(Math.min(...values), Math.max(...values), left, right - 60);
  let y = top;
  const body: string[] = [];
  for (const g of groups) {
    const h = g.bars.length * barH;
    body.push(
      `<text x="${left - 8}" y="${y + h / 2 + 4}" text-anchor="end" font-size="12" font-weight="600">` +
        `${esc(g.label)}</text>`,
    );
    for (const b of g.bars) {
      const color = colourOf(b.series);
      const w = Math.max(1, s.x(b.value) - left);
      body.push(
        `<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barH - 1}" fill="${color}"><title>` +
          `${esc(`${g.label} · ${b.series}: ${compact(b.value)} ${unit}`)}</title></rect>`,
      );
      body.push(
        `<text x="${(left + w + 3).toFixed(1)}" y="${y + barH - 1.5}" font-size="8" fill="#495057">` +
          `${compact(b.value)}</text>`,
      );
      y += barH;
    }
    y += gap;
  }
  const height = y + 30;
  const grid = s.ticks
    .map(
      (t) =>
        `<line x1="${s.x(t).toFixed(1)}" y1="${top - 6}" x2="${s.x(t).toFixed(1)}" y2="${y - gap + 4}" ` +
        `stroke="#dee2e6"/><text x="${s.x(t).toFixed(1)}" y="${y + 8}" text-anchor="middle" font-size="10" ` +
        `fill="#495057">${compact(t)}</text>`,
    )
    .join('');
  const legend = seriesOrder
    .map((name, i) => {
      const lx = 20 + (i % 4) * 215;
      const ly = 52 + Math.floor(i / 4) * 18;
      return (
        `<rect x="${lx}" y="${ly - 9}" width="10" height="10" fill="${colourOf(name)}"/><text x="${lx + 14}" y="` +
        `${ly}" font-size="11">${esc(name)}</text>`
      );
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${height}" viewBox="0 0 900 ${height}" ${FONT}>
<rect width="100%" height="100%" fill="#fff"/>
<text x="20" y="22" font-size="16" font-weight="700">${esc(title)}</text>
<text x="20" y="38" font-size="11" fill="#495057">${esc(subtitle)}</text>
${legend}
${grid}
${body.join('\n')}
<text x="${(left + right - 60) / 2}" y="${height - 6}" text-anchor="middle" font-size="11" fill="#495057">` +
    `${esc(unit)} (log scale)</text>
</svg>
`
  );
}

export interface RangeRow {
  section: string;
  label: string;
  series: string;
  min: number;
  p50: number;
  p95: number;
  p99: number;
}

/** Latency ranges per row: a min–p99 whisker, a p50–p95 box, the p50 marked; log x axis in ms. */
export function latencyRanges(title: string, subtitle: string, rows: RangeRow[], seriesOrder: string[]): string {
  const left = 330;
  const right = 870;
  const rowH = 16;
  const top = 66;
  const s = logScale(Math.min(...rows.map((r) => r.min)), Math.max(...rows.map((r) => r.p99)), left, right, true);
  const body: string[] = [];
  let y = top;
  let section = '';
  for (const r of rows) {
    if (r.section !== section) {
      section = r.section;
      y += 8;
      body.push(`<text x="20" y="${y + 10}" font-size="12" font-weight="700">${esc(section)}</text>`);
      y += 16;
    }
    const color = colourOf(r.series);
    const mid = y + rowH / 2;
    body.push(`<text x="${left - 8}" y="${mid + 4}" text-anchor="end" font-size="11">${esc(r.label)}</text>`);
    body.push(
      `<line x1="${s.x(r.min).toFixed(1)}" y1="${mid}" x2="${s.x(r.p99).toFixed(1)}" y2="${mid}" stroke="` +
        `${color}" stroke-width="1.5"/>`,
    );
    body.push(
      `<rect x="${s.x(r.p50).toFixed(1)}" y="${mid - 5}" width="` +
        `${Math.max(1.5, s.x(r.p95) - s.x(r.p50)).toFixed(1)}" height="10" fill="${color}" fill-opacity="0.45" ` +
        `stroke="${color}"><title>` +
        `${esc(`${r.label}: min ${r.min} · p50 ${r.p50} · p95 ${r.p95} · p99 ${r.p99} ms`)}</title></rect>`,
    );
    body.push(
      `<line x1="${s.x(r.p50).toFixed(1)}" y1="${mid - 7}" x2="${s.x(r.p50).toFixed(1)}" y2="${mid + 7}" ` +
        `stroke="#212529" stroke-width="2"/>`,
    );
    y += rowH;
  }
  const height = y + 36;
  const grid = s.ticks
    .map(
      (t) =>
        `<line x1="${s.x(t).toFixed(1)}" y1="${top}" x2="${s.x(t).toFixed(1)}" y2="${y + 4}" ` +
        `stroke="#dee2e6"/><text x="${s.x(t).toFixed(1)}" y="${y + 16}" text-anchor="middle" font-size="10" ` +
        `fill="#495057">${compact(t)}</text>`,
    )
    .join('');
  const legend = seriesOrder
    .map(
      (name, i) =>
        `<rect x="${20 + i * 150}" y="${45}" width="10" height="10" fill="${colourOf(name)}"/><text x="` +
        `${34 + i * 150}" y="${54}" font-size="11">${esc(name)}</text>`,
    )
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${height}" viewBox="0 0 900 ${height}" ${FONT}>
<rect width="100%" height="100%" fill="#fff"/>
<text x="20" y="22" font-size="16" font-weight="700">${esc(title)}</text>
<text x="20" y="38" font-size="11" fill="#495057">${esc(subtitle)}</text>
${legend}
${grid}
${body.join('\n')}
<text x="${(left + right) / 2}" y="${height - 6}" text-anchor="middle" font-size="11" fill="#495057">ms per ` +
    `request as the client sees it (log scale). Line: min–p99; box: p50–p95; black mark: p50</text>
</svg>
`
  );
}
