// The cold cells of the isolate bench: per algorithm, the first request of each
// kind of Worker (no-op, library only, guard, jose guard), the per-round deltas
// and the cold-start targets. Shared by isolate.ts (which measures) and
// summary.ts (which publishes).
import { latency, paired, withSpread, type Latency } from './latency.ts';

/**
 * `base` / `libbase`: an optional baseline guard / library-only Worker (another checkout's src/ and core) sampled in
 * the same rounds; `compiled`: the guard given only the stages its config uses (createGuard with those stages);
 * `compiledbase`: the baseline's compiled entry (BENCH_COMPILED_BASE=1, with this checkout's core).
 */
export type Kind = 'noop' | 'lib' | 'guard' | 'jose' | 'base' | 'libbase' | 'compiled' | 'compiledbase';
/** Per algorithm, per kind: the first and second request of each round, ms. */
export type Rounds = Record<string, Record<Kind, { first: number[]; second: number[] }>>;

export interface ColdCell {
  first: Record<Kind, Latency>;
  second: Record<Kind, Latency>;
  /** Per-round differences (same round, same algorithm): their median is the delta read. */
  deltas: Record<'guard − noop' | 'lib − noop' | 'jose − noop' | 'guard − jose', Latency> & {
    'guard − base'?: Latency;
    'lib − libbase'?: Latency;
    'compiled − jose'?: Latency;
    'compiled − guard'?: Latency;
    'compiled − compiledbase'?: Latency;
  };
  /** Per-round ratios (same round, same algorithm) of first requests (issue 34's targets: coldTable). */
  ratios?: Record<string, Latency>;
  targets: Record<'guard ≤ jose' | 'guard ≤ noop + 2 ms' | 'lib ≤ noop + 1 ms', boolean>;
}

export function coldSummary(r: Rounds, algs: readonly string[], kinds: readonly Kind[]): Record<string, ColdCell> {
  const out: Record<string, ColdCell> = {};
  for (const alg of algs) {
    const c = r[alg]!;
    const per = (which: 'first' | 'second') =>
      Object.fromEntries(kinds.map((k) => [k, latency(c[k][which])])) as Record<Kind, Latency>;
    const deltas = {
      'guard − noop': paired(c.guard.first, c.noop.first),
      'lib − noop': paired(c.lib.first, c.noop.first),
      'jose − noop': paired(c.jose.first, c.noop.first),
      'guard − jose': paired(c.guard.first, c.jose.first),
      ...(kinds.includes('base') ? { 'guard − base': paired(c.guard.first, c.base.first) } : {}),
      ...(kinds.includes('libbase') ? { 'lib − libbase': paired(c.lib.first, c.libbase.first) } : {}),
      ...(kinds.includes('compiled')
        ? {
            'compiled − jose': paired(c.compiled.first, c.jose.first),
            'compiled − guard': paired(c.compiled.first, c.guard.first),
          }
        : {}),
      ...(kinds.includes('compiledbase')
        ? { 'compiled − compiledbase': paired(c.compiled.first, c.compiledbase.first) }
        : {}),
    };
    const ratio = (a: number[], b: number[]) => latency(a.map((x, i) => x / b[i]!));
    const ratios: Record<string, Latency> = {
      'guard / jose': ratio(c.guard.first, c.jose.first),
      'lib / jose': ratio(c.lib.first, c.jose.first),
      ...(kinds.includes('libbase') ? { 'libbase / jose': ratio(c.libbase.first, c.jose.first) } : {}),
      ...(kinds.includes('compiled') ? { 'compiled / jose': ratio(c.compiled.first, c.jose.first) } : {}),
    };
    out[alg] = {
      first: per('first'),
      second: per('second'),
      deltas,
      ratios,
      targets: {
        'guard ≤ jose': deltas['guard − jose'].p50 <= 0,
        'guard ≤ noop + 2 ms': deltas['guard − noop'].p50 <= 2,
        'lib ≤ noop + 1 ms': deltas['lib − noop'].p50 <= 1,
      },
    };
  }
  return out;
}

/**
 * Markdown: one row per algorithm, medians with their spread, the deltas and the targets.
 * `ratioTarget`: issue 34's target for the guard given only its stages, over jose (≤ 2.3× in a fresh isolate, ≤ 1× in
 * a fresh process).
 */
export function coldTable(title: string, s: Record<string, ColdCell>, heading = '###', ratioTarget = 2.3): string {
  const lines = [
    `${heading} ${title}`,
    '',
    'First request, ms: p50 [p25–p75] · p90. Deltas: median [p25–p75] of the per-round differences.',
    '',
    '| alg | no-op | lib only | guard | jose guard | lib − no-op | guard − no-op | guard − jose | guard ≤ ' +
      'jose · guard ≤ no-op + 2 · lib ≤ no-op + 1 |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  const cell = (l: Latency) => `${withSpread(l)} · ${l.p90.toFixed(1)}`;
  for (const [alg, v] of Object.entries(s)) {
    const d = v.deltas;
    const t = Object.values(v.targets)
      .map((ok) => (ok ? 'met' : '**missed**'))
      .join(' · ');
    lines.push(
      `| ${alg} | ${cell(v.first.noop)} | ${cell(v.first.lib)} | ${cell(v.first.guard)} | ` +
        `${cell(v.first.jose)} | ${withSpread(d['lib − noop'])} | ${withSpread(d['guard − noop'])} | ` +
        `${withSpread(d['guard − jose'])} | ${t} |`,
    );
  }
  const base = Object.entries(s).filter(([, v]) => v.deltas['guard − base'] !== undefined);
  if (base.length > 0)
    lines.push(
      '',
      `Against the baseline guard (BENCH_BASELINE_SRC) in the same rounds: ` +
        base
          .map(
            ([alg, v]) =>
              `${alg} base ${withSpread(v.first.base)}, guard − base ${withSpread(v.deltas['guard − base']!)}`,
          )
          .join('; ') +
        ' ms',
    );
  const libbase = Object.entries(s).filter(([, v]) => v.deltas['lib − libbase'] !== undefined);
  if (libbase.length > 0)
    lines.push(
      '',
      `Library only against the baseline library (BENCH_BASELINE_SRC, its own core) in the same rounds: ` +
        libbase
          .map(
            ([alg, v]) =>
              `${alg} libbase ${withSpread(v.first.libbase)}, ` +
              `lib − libbase ${withSpread(v.deltas['lib − libbase']!)}, ` +
              `lib / jose ${withSpread(v.ratios!['lib / jose']!, 2)} vs libbase / jose ` +
              `${withSpread(v.ratios!['libbase / jose']!, 2)}`,
          )
          .join('; ') +
        ' ms',
    );
  const compiled = Object.entries(s).filter(([, v]) => v.deltas['compiled − jose'] !== undefined);
  if (compiled.length > 0) {
    lines.push(
      '',
      `| alg | given only its stages | compiled − jose | compiled − guard | guard / jose (per round) | ` +
        `compiled / jose (per round) | given only its stages ≤ ${ratioTarget}× jose |`,
      '|---|---:|---:|---:|---:|---:|---|',
    );
    for (const [alg, v] of compiled) {
      const r = v.ratios!;
      lines.push(
        `| ${alg} | ${cell(v.first.compiled)} | ${withSpread(v.deltas['compiled − jose']!)} | ` +
          `${withSpread(v.deltas['compiled − guard']!)} | ${withSpread(r['guard / jose']!, 2)} | ` +
          `${withSpread(r['compiled / jose']!, 2)} | ` +
          `${r['compiled / jose']!.p50 <= ratioTarget ? 'met' : '**missed**'} |`,
      );
    }
  }
  const cbase = Object.entries(s).filter(([, v]) => v.deltas['compiled − compiledbase'] !== undefined);
  if (cbase.length > 0)
    lines.push(
      '',
      `Compiled entry against the baseline's compiled entry (BENCH_COMPILED_BASE) in the same rounds: ` +
        cbase
          .map(
            ([alg, v]) =>
              `${alg} compiledbase ${withSpread(v.first.compiledbase)}, ` +
              `compiled − compiledbase ${withSpread(v.deltas['compiled − compiledbase']!)}`,
          )
          .join('; ') +
        ' ms',
    );
  lines.push(
    '',
    `Second request p50 (no-op / lib / guard / jose): ${Object.entries(s)
      .map(
        ([alg, v]) =>
          `${alg} ${(['noop', 'lib', 'guard', 'jose'] as const).map((k) => v.second[k].p50.toFixed(1)).join(' / ')}`,
      )
      .join('; ')} ms`,
  );
  return lines.join('\n');
}
