// Timing for every bench: warm up, calibrate a batch to ~2 ms, then time many
// rounds and report the median with its quartiles. Runtime-neutral (only
// performance.now), so the same code runs in Node and inside workerd.
// `compare` interleaves candidates round by round, so drift on a shared, noisy
// machine hits all of them alike and their ratios stay honest.

export interface Sample {
  name: string;
  medianNs: number;
  p25Ns: number;
  p75Ns: number;
  opsPerSec: number;
  rounds: number;
}

export interface MeasureOptions {
  /** Timed rounds (default 40; 5 in smoke mode). */
  rounds?: number;
  /** Target duration of one round in ms (default 2; 0.2 in smoke mode). */
  roundMs?: number;
  /** Warm-up per candidate in ms before calibrating (default 300; 10 in smoke mode). */
  warmMs?: number;
}

export interface Case {
  name: string;
  fn: () => unknown;
}

export interface AsyncCase {
  name: string;
  fn: () => Promise<unknown>;
}

declare const process: { env: Record<string, string | undefined> } | undefined;

/** True when BENCH_SMOKE=1: a seconds-long run that only proves the bench works. */
export const smoke: boolean =
  (typeof process !== 'undefined' && process.env.BENCH_SMOKE === '1') ||
  (globalThis as { BENCH_SMOKE?: boolean }).BENCH_SMOKE === true;

const now = (): number => performance.now();

// Results feed a sink so no engine can prove a call dead and drop it.
let sink: unknown;
export function keep(value: unknown): void {
  sink = value;
}

/** A positive number from the environment (Node only), else undefined. */
export function envNumber(name: string): number | undefined {
  const v = typeof process !== 'undefined' ? Number(process.env[name]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : undefined;
}

function settings(opts: MeasureOptions): { rounds: number; roundMs: number; warmMs: number; bestOf: number } {
  // BENCH_ROUNDS / BENCH_ROUND_MS override the defaults: on a busy machine, shorter rounds
  // (and more of them) are less often cut by the scheduler, so the median stays clean.
  return {
    rounds: opts.rounds ?? (smoke ? 5 : (envNumber('BENCH_ROUNDS') ?? 40)),
    roundMs: opts.roundMs ?? (smoke ? 0.2 : (envNumber('BENCH_ROUND_MS') ?? 2)),
    // BENCH_BEST_OF=k: each round's figure is the fastest of k back-to-back batches (a busy
    // machine only adds time, by preempting; the fastest of a few is the one it left alone).
    bestOf: smoke ? 1 : Math.round(envNumber('BENCH_BEST_OF') ?? 1),
    warmMs: opts.warmMs ?? (smoke ? 10 : 300),
  };
}

/** Run `fn` for `ms` so the engine has tiered it up (V8 compiles Wasm in Liftoff first
 * and only later, in the background, with TurboFan: a cold measurement times the wrong code). */
function warmUp(fn: () => unknown, ms: number): void {
  const until = now() + ms;
  while (now() < until) for (let i = 0; i < 64; i++) sink = fn();
}

async function warmUpAsync(fn: () => Promise<unknown>, ms: number): Promise<void> {
  const until = now() + ms;
  while (now() < until) for (let i = 0; i < 16; i++) sink = await fn();
}

function calibrate(fn: () => unknown, roundMs: number): number {
  let batch = 1;
  for (;;) {
    const t0 = now();
    for (let i = 0; i < batch; i++) sink = fn();
    const elapsed = now() - t0;
    if (elapsed >= roundMs / 2 || batch >= 1 << 24) {
      return Math.max(1, Math.round((batch * roundMs) / Math.max(elapsed, 1e-3)));
    }
    batch *= 4;
  }
}

async function calibrateAsync(fn: () => Promise<unknown>, roundMs: number): Promise<number> {
  let batch = 1;
  for (;;) {
    const t0 = now();
    for (let i = 0; i < batch; i++) sink = await fn();
    const elapsed = now() - t0;
    if (elapsed >= roundMs / 2 || batch >= 1 << 20) {
      return Math.max(1, Math.round((batch * roundMs) / Math.max(elapsed, 1e-3)));
    }
    batch *= 4;
  }
}

export function summarize(name: string, perOpNs: number[]): Sample {
  const sorted = [...perOpNs].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]!;
  const medianNs = at(0.5);
  return { name, medianNs, p25Ns: at(0.25), p75Ns: at(0.75), opsPerSec: 1e9 / medianNs, rounds: sorted.length };
}

/** Measure one synchronous function. */
export function measure(name: string, fn: () => unknown, opts: MeasureOptions = {}): Sample {
  return compare([{ name, fn }], opts)[0]!;
}

/** Measure several synchronous functions, interleaved round by round. */
export function compare(cases: Case[], opts: MeasureOptions = {}): Sample[] {
  const { rounds, roundMs, warmMs, bestOf } = settings(opts);
  for (const c of cases) warmUp(c.fn, warmMs);
  const batches = cases.map((c) => calibrate(c.fn, roundMs));
  const times: number[][] = cases.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let c = 0; c < cases.length; c++) {
      const fn = cases[c]!.fn;
      const batch = batches[c]!;
      let best = Infinity;
      for (let k = 0; k < bestOf; k++) {
        const t0 = now();
        for (let i = 0; i < batch; i++) sink = fn();
        best = Math.min(best, now() - t0);
      }
      times[c]!.push((best * 1e6) / batch);
    }
  }
  return cases.map((c, i) => summarize(c.name, times[i]!));
}

/** Measure one async function (awaited one call at a time). */
export async function measureAsync(
  name: string,
  fn: () => Promise<unknown>,
  opts: MeasureOptions = {},
): Promise<Sample> {
  return (await compareAsync([{ name, fn }], opts))[0]!;
}

/** Measure several async functions, interleaved round by round. */
export async function compareAsync(cases: AsyncCase[], opts: MeasureOptions = {}): Promise<Sample[]> {
  const { rounds, roundMs, warmMs, bestOf } = settings(opts);
  for (const c of cases) await warmUpAsync(c.fn, warmMs);
  const batches: number[] = [];
  for (const c of cases) batches.push(await calibrateAsync(c.fn, roundMs));
  const times: number[][] = cases.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let c = 0; c < cases.length; c++) {
      const fn = cases[c]!.fn;
      const batch = batches[c]!;
      let best = Infinity;
      for (let k = 0; k < bestOf; k++) {
        const t0 = now();
        for (let i = 0; i < batch; i++) sink = await fn();
        best = Math.min(best, now() - t0);
      }
      times[c]!.push((best * 1e6) / batch);
    }
  }
  return cases.map((c, i) => summarize(c.name, times[i]!));
}

export function formatNs(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

/**
 * A Markdown table of samples, each with its ratio to `baselineName`
 * (ratio > 1: that row is slower than the baseline).
 */
export function formatTable(title: string, samples: Sample[], baselineName?: string): string {
  const base = samples.find((s) => s.name === baselineName);
  const lines = [
    `### ${title}`,
    '',
    `| candidate | median | p25–p75 | ops/s | ${base ? `× ${base.name}` : 'ratio'} |`,
    '|---|---:|---:|---:|---:|',
  ];
  for (const s of samples) {
    const ratio = base ? (s.medianNs / base.medianNs).toFixed(2) : '';
    lines.push(
      `| ${s.name} | ${formatNs(s.medianNs)} | ${formatNs(s.p25Ns)}–${formatNs(s.p75Ns)} | ` +
        `${Math.round(s.opsPerSec).toLocaleString('en-US')} | ${ratio} |`,
    );
  }
  return lines.join('\n');
}

export function printTable(title: string, samples: Sample[], baselineName?: string): void {
  console.log(`\n${formatTable(title, samples, baselineName)}\n`);
}

/** How many times faster `a` is than `b` (by medians). */
export function speedup(a: Sample, b: Sample): number {
  return b.medianNs / a.medianNs;
}
