// Draws the charts from the results JSON (bench/results/, or results/smoke/ in
// smoke runs): ops/s per library per algorithm in Node and in workerd, the
// README's headline (a few algorithms, both runtimes), and the isolate bench's
// cold/warm latency ranges. Missing results are skipped. Each library keeps one
// colour in every chart (bench/lib/colours.ts).
// Run: node bench/charts.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { smoke, type Sample } from './lib/harness.ts';
import type { Latency } from './lib/latency.ts';
import { groupedBars, latencyRanges, type RangeRow } from './lib/svg.ts';

export const resultsDir = fileURLToPath(new URL(smoke ? './results/smoke/' : './results/', import.meta.url));
const read = <T>(name: string): T | undefined =>
  existsSync(join(resultsDir, `${name}.json`))
    ? (JSON.parse(readFileSync(join(resultsDir, `${name}.json`), 'utf8')) as T)
    : undefined;
const written: string[] = [];
const write = (name: string, svg: string) => {
  writeFileSync(join(resultsDir, name), svg);
  written.push(join(resultsDir, name));
};

interface Table {
  env: Record<string, string>;
  variants: Record<string, Sample[]>;
}

const SERIES = [
  'edgejwt',
  'edgejwt verifySync',
  'edgejwt verify (async)',
  'edgejwt verify',
  'jose',
  'fast-jwt',
  'jsonwebtoken',
  'hono/jwt',
  '@tsndr/cloudflare-worker-jwt',
  'node:crypto (bare)',
  'crypto.subtle (bare)',
];

function opsChart(t: Table, where: string, oneEdgejwt = false): string {
  // Inside workerd edgejwt has one row per variant (verifySync for the Wasm
  // algorithms, verify for WebCrypto ones): draw it as one series.
  const rename = (name: string) => (oneEdgejwt && name.startsWith('edgejwt') ? 'edgejwt' : name);
  const groups = Object.entries(t.variants).map(([label, rows]) => ({
    label,
    bars: rows
      .map((r) => ({ ...r, name: rename(r.name) }))
      .filter((r) => SERIES.includes(r.name) && Number.isFinite(r.opsPerSec) && r.opsPerSec > 0)
      .sort((a, b) => SERIES.indexOf(a.name) - SERIES.indexOf(b.name))
      .map((r) => ({ series: r.name, value: r.opsPerSec })),
  }));
  const present = SERIES.filter((s) => groups.some((g) => g.bars.some((b) => b.series === s)));
  return groupedBars(
    `Full JWT verify, ops/s per library — ${where}`,
    `${t.env.machine}; ${t.env.date?.slice(0, 10)}; medians. Caches off` +
      `${oneEdgejwt ? '' : " (fast-jwt's cache hit is in the tables, not here)"}. Longer is faster.`,
    'verifies per second',
    groups,
    present,
  );
}

const node = read<Table>('algorithms-node');
if (node) write('ops-node.svg', opsChart(node, `Node ${node.env.node}`));
const workerd = read<Table>('algorithms-workerd');
if (workerd) write('ops-workerd.svg', opsChart(workerd, `workerd ${workerd.env.workerd} (Miniflare)`, true));

// The README's chart: a few algorithms, Node and workerd side by side, edgejwt
// (its sync path: what a guard calls for HS/EdDSA) beside the most used peers.
const HEADLINE_ALGS = ['HS256', 'EdDSA', 'RS256-2048', 'ES256'];
const HEADLINE_SERIES = ['edgejwt', 'jose', 'fast-jwt', 'hono/jwt'];
if (node && workerd) {
  const groups = HEADLINE_ALGS.flatMap((alg) =>
    (
      [
        ['Node', node],
        ['workerd', workerd],
      ] as const
    ).map(([where, t]) => ({
      label: `${alg.replace(/-2048$/, '')} · ${where}`,
      bars: HEADLINE_SERIES.flatMap((series) => {
        const name = series === 'edgejwt' ? 'edgejwt verifySync' : series;
        const r = (t.variants[alg] ?? []).find(
          (row) => row.name === name || (series === 'edgejwt' && row.name === 'edgejwt verify'),
        );
        return r && Number.isFinite(r.opsPerSec) && r.opsPerSec > 0 ? [{ series, value: r.opsPerSec }] : [];
      }),
    })),
  );
  write(
    'headline.svg',
    groupedBars(
      'Full JWT verify, ops/s: edgejwt beside its peers, in Node and inside workerd',
      `${node.env.machine}; Node ${node.env.node}, workerd ${workerd.env.workerd}; ` +
        `${node.env.date?.slice(0, 10)}; medians, caches off. Longer is faster.`,
      'verifies per second',
      groups,
      HEADLINE_SERIES.filter((s) => groups.some((g) => g.bars.some((b) => b.series === s))),
    ),
  );
}

interface ColdCell {
  first: Record<string, Latency>;
}
interface Isolate {
  env: Record<string, string>;
  n: Record<string, number>;
  processCold: Record<string, ColdCell>;
  isolateCold: Record<string, ColdCell>;
  warm: Record<string, Record<string, Latency>>;
  l2: Record<string, Record<string, Latency>>;
  jwks: Record<string, Latency | number>;
}

const KIND_SERIES: Record<string, string> = {
  noop: 'no-op Worker',
  lib: 'edgejwt library only',
  guard: 'edgejwt guard',
  compiled: 'edgejwt guard, only its stages',
  base: 'edgejwt guard (variant)',
  jose: 'jose guard',
};
const iso = read<Isolate>('isolate');
if (iso) {
  const rows: RangeRow[] = [];
  const add = (section: string, label: string, series: string, l: Latency) =>
    rows.push({ section, label, series, min: l.min, p50: l.p50, p95: l.p95, p99: l.p99 });
  for (const [title, cells, n] of [
    ['Fresh workerd process: first request', iso.processCold, iso.n.processes],
    ['Fresh isolate (Worker Loader, new id): first request', iso.isolateCold, iso.n.isolates],
  ] as const) {
    for (const [alg, c] of Object.entries(cells ?? {}))
      for (const [kind, l] of Object.entries(c.first ?? {}))
        add(
          `${title} (n=${n} each)`,
          `${alg} · ${KIND_SERIES[kind] ?? `edgejwt ${kind} (baseline)`}`,
          KIND_SERIES[kind] ?? 'edgejwt guard (variant)',
          l,
        );
  }
  for (const [alg, byKind] of Object.entries(iso.warm)) {
    for (const [name, l] of Object.entries(byKind)) {
      const series = KIND_SERIES[name] ?? 'edgejwt guard (variant)';
      const label = KIND_SERIES[name] ?? (name === 'guard-l1-off' ? 'edgejwt guard, L1 off' : 'edgejwt guard, L1 hit');
      add(`Warm, ${alg} (n=${iso.n.warm} each, distinct tokens)`, label, series, l);
    }
  }
  for (const [alg, byCase] of Object.entries(iso.l2)) {
    for (const [name, l] of Object.entries(byCase))
      if (name !== 'tiers') add(`KV verify cache, ${alg} (n=${iso.n.l2} each)`, name, 'edgejwt guard (variant)', l);
  }
  for (const [name, l] of Object.entries(iso.jwks))
    if (typeof l === 'object')
      add(`JWKS on a fresh isolate (n=${iso.n.jwksIsolates} each)`, name, 'edgejwt guard (variant)', l);
  write(
    'latency-isolate.svg',
    latencyRanges(
      'Request latency through workerd: cold and warm',
      `Miniflare ${iso.env.miniflare}, workerd ${iso.env.workerd}; ${iso.env.machine}; ` +
        `${iso.env.date?.slice(0, 10)}. Includes the local HTTP hop (see the no-op Worker).`,
      rows,
      [
        'no-op Worker',
        'edgejwt library only',
        'edgejwt guard',
        'edgejwt guard, only its stages',
        'jose guard',
        'edgejwt guard (variant)',
      ],
    ),
  );
}
for (const w of written) console.log(`wrote ${w}`);
if (written.length === 0) console.log(`no results in ${resultsDir} to draw`);
