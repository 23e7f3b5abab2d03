// Latency distributions (wall ms per request, as a client sees them), and the
// paired differences the cold benches read: samples taken round by round with
// every kind in the same round, so drift on a shared machine hits all alike.
export interface Latency {
  n: number;
  min: number;
  p25: number;
  p50: number;
  p75: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export function latency(ms: number[]): Latency {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
  return {
    n: s.length,
    min: round3(s[0] ?? NaN),
    p25: round3(at(0.25)),
    p50: round3(at(0.5)),
    p75: round3(at(0.75)),
    p90: round3(at(0.9)),
    p95: round3(at(0.95)),
    p99: round3(at(0.99)),
    max: round3(s[s.length - 1] ?? NaN),
    mean: round3(s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)),
  };
}

/** Per-round differences a[i] − b[i] of two series sampled in the same rounds. */
export function paired(a: number[], b: number[]): Latency {
  if (a.length !== b.length) throw new Error(`paired: ${a.length} vs ${b.length} samples`);
  return latency(a.map((x, i) => x - b[i]!));
}

export function formatLatency(l: Latency): string {
  return `p50 ${l.p50.toFixed(2)} · p95 ${l.p95.toFixed(2)} · p99 ${l.p99.toFixed(2)} ms (n=${l.n})`;
}

/** "p50 [p25–p75]": the median with its interquartile range as the spread. */
export function withSpread(l: Latency, digits = 1): string {
  return `${l.p50.toFixed(digits)} [${(l.p25 ?? NaN).toFixed(digits)}–${(l.p75 ?? NaN).toFixed(digits)}]`;
}

/** A Markdown table, one row per labelled distribution. */
export function latencyTable(title: string, rows: [string, Latency][]): string {
  const lines = [
    `### ${title}`,
    '',
    '| case | n | p50 ms | p25–p75 ms | p90 ms | p95 ms | p99 ms | min ms | max ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const f = (x: number | undefined) => (x ?? NaN).toFixed(2);
  for (const [name, l] of rows)
    lines.push(
      `| ${name} | ${l.n} | ${f(l.p50)} | ${f(l.p25)}–${f(l.p75)} | ${f(l.p90)} | ${f(l.p95)} | ${f(l.p99)} | ` +
        `${f(l.min)} | ${f(l.max)} |`,
    );
  return lines.join('\n');
}
