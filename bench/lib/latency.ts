// Latency distributions (wall ms per request, as a client sees them).
export interface Latency {
  n: number;
  min: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function latency(ms: number[]): Latency {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    n: s.length,
    min: round(s[0] ?? NaN),
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    max: round(s[s.length - 1] ?? NaN),
    mean: round(s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)),
  };
}

export function formatLatency(l: Latency): string {
  return `p50 ${l.p50.toFixed(2)} · p95 ${l.p95.toFixed(2)} · p99 ${l.p99.toFixed(2)} ms (n=${l.n})`;
}

/** A Markdown table, one row per labelled distribution. */
export function latencyTable(title: string, rows: [string, Latency][]): string {
  const lines = [`### ${title}`, '', '| case | n | p50 ms | p95 ms | p99 ms | min ms | max ms |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const [name, l] of rows) lines.push(`| ${name} | ${l.n} | ${l.p50.toFixed(2)} | ${l.p95.toFixed(2)} | ${l.p99.toFixed(2)} | ${l.min.toFixed(2)} | ${l.max.toFixed(2)} |`);
  return lines.join('\n');
}
