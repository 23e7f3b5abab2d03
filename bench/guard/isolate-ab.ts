// Several checkouts' default guard entries (src/worker/index.ts), each bundled as the
// isolate bench bundles it, sampled in the same Worker Loader rounds (fresh isolate,
// first request) with a no-op Worker: wall ms as the client sees it and, on Linux,
// the CPU the workerd process spent on the request (every thread's
// /proc/<pid>/task/<tid>/schedstat). On a shared machine the CPU reading keeps its
// spread where wall time drowns in other processes' load: a before/after reads it.
// Run: BENCH_AB=before=/tmp/base/src,after=src node bench/guard/isolate-ab.ts
// (an entry named `base` gets its own checkout's core, see dataBlobBindings below)
// (BENCH_ROUNDS, default 60; BENCH_AB_ALGS, default HS256,RS256; deltas are per-round
// differences against the first entry of BENCH_AB, read by their median.)
// BENCH_AB_ENTRY=compiled: each checkout's compiled entry (`edgejwt build-guard` for the
// bench's GUARD_CONFIG, its own entry writer and src/worker/compiled.ts) instead of the default entry.
import { Miniflare } from 'miniflare';
import { build } from 'esbuild';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { environment, printEnvironment } from '../lib/env.ts';
import { childPid, processCpuNs } from '../lib/proc-cpu.ts';
import { latency, paired, type Latency } from '../lib/latency.ts';
import { bundleWorker, CORE_WASM } from '../lib/workerd-bundle.ts';
import { BENCH_ALGS, benchKeys, guardConfig, mint, type BenchAlg } from './isolate/tokens.ts';
import { baselineCore } from './isolate/build.ts';
import { configGuardBundle } from '../lib/config-guard-entry.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entries = (process.env.BENCH_AB ?? `tip=${join(root, 'src')}`)
  .split(',')
  .map((s) => s.split('=') as [string, string]);
if (entries.length === 0 || entries.some(([n, s]) => !n || !s || n === 'noop' || n === 'jose'))
  throw new Error('BENCH_AB: name=src,… (names other than noop and jose)');
const rounds = Number(process.env.BENCH_ROUNDS ?? 60);
const algs = (process.env.BENCH_AB_ALGS ?? 'HS256,RS256').split(',') as BenchAlg[];
if (algs.some((a) => !BENCH_ALGS.includes(a))) throw new Error(`BENCH_AB_ALGS: some of ${BENCH_ALGS.join(',')}`);

printEnvironment(environment(['miniflare']));
const keys = benchKeys();
const sources: Record<string, string> = { noop: 'export default { fetch() { return new Response("ok"); } };' };
let wasmPath = '';
const baseSrc = entries.find(([n]) => n === 'base')?.[1];
const compiledEntry = process.env.BENCH_AB_ENTRY === 'compiled';
if (compiledEntry && baseSrc !== undefined)
  throw new Error("BENCH_AB_ENTRY=compiled bundles every side with this checkout's core: name no entry `base`");
for (const [name, src] of entries) {
  const b = compiledEntry
    ? await configGuardBundle(join(root, 'build/bench-isolate-ab', name), guardConfig(keys), resolve(src))
    : await bundleWorker(
        join(resolve(src), 'worker/index.ts'),
        join(root, 'build/bench-isolate-ab', name, 'worker.js'),
        { minify: true },
        resolve(src),
        name === 'base' ? baselineCore(resolve(src)) : undefined,
      );
  sources[name] = b.code;
  wasmPath = b.wasmImport!.replace(/^\.\//, '');
  console.log(`${name}: ${src}, ${(b.code.length / 1024).toFixed(1)} KiB minified`);
}
const host = join(root, 'build/bench-isolate-ab/host.js');
await build({
  entryPoints: [join(root, 'bench/guard/isolate/loader-host.ts')],
  outfile: host,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  logLevel: 'warning',
});
const mf = new Miniflare({
  handleRuntimeStdio: (out: NodeJS.ReadableStream, err: NodeJS.ReadableStream) => {
    out.resume();
    err.resume();
  },
  modules: true,
  scriptPath: host,
  compatibilityDate: '2026-04-01',
  workerLoaders: { LOADER: {} },
  bindings: {
    SOURCES: JSON.stringify({ ...sources, wasmPath }),
    GUARD_CONFIG: guardConfig(keys),
    HS_KEY: keys.hsKey,
    SHARED_WASM: '0',
  },
  // An entry named `base` runs on its checkout's own core (src/wasm/generated/core.wasm, when built there):
  // a change to the core's exports needs its own src/ and core on each side.
  dataBlobBindings: { CORE_WASM, ...(baseSrc === undefined ? {} : { BASE_CORE_WASM: baselineCore(resolve(baseSrc)) }) },
});
await mf.ready;

/** The workerd process Miniflare started (Linux), for its CPU time; undefined elsewhere. */
const workerdPid = childPid('workerd');
const cpuNs = (): number => processCpuNs(workerdPid!);

const kinds = ['noop', ...entries.map(([n]) => n)];
const tokens = Object.fromEntries(algs.map((a) => [a, mint(keys, a, rounds + 1)])) as Record<BenchAlg, string[]>;
const call = async (kind: string, id: string, token: string): Promise<{ ms: number; cpu: number }> => {
  const c0 = workerdPid === undefined ? 0 : cpuNs();
  const t0 = performance.now();
  const res = await mf.dispatchFetch('http://host.bench.invalid/api/orders', {
    headers: { authorization: `Bearer ${token}`, 'x-bench-kind': kind, 'x-bench-isolate': id },
  });
  const body = await res.text();
  const ms = performance.now() - t0;
  const cpu = workerdPid === undefined ? NaN : (cpuNs() - c0) / 1e6;
  if (res.status !== 200) throw new Error(`${kind}: ${res.status} ${body.slice(0, 300)}`);
  return { ms, cpu };
};
await call('noop', 'warm-host', tokens[algs[0]!][rounds]!);

const wall: Record<string, Record<string, number[]>> = {};
const cpu: Record<string, Record<string, number[]>> = {};
for (const a of algs) {
  wall[a] = Object.fromEntries(kinds.map((k) => [k, []]));
  cpu[a] = Object.fromEntries(kinds.map((k) => [k, []]));
}
const loadBefore = loadavg();
for (let i = 0; i < rounds; i++) {
  for (const [j, a] of algs.entries()) {
    // Rotated, so drift hits every kind alike, and reversed every other round: a fresh isolate's
    // first request is slower right after one that loaded other code, and with rotation alone the
    // second entry of BENCH_AB followed the first in two rounds of three (it read 1.7–3.4 ms of
    // workerd CPU slower on HS256 whichever checkout it was).
    const order = kinds.map((_, k) => kinds[(i + j + k) % kinds.length]!);
    if (i % 2 === 1) order.reverse();
    for (const kind of order) {
      const r = await call(kind, `${kind}-${a}-${i}`, tokens[a][i]!);
      wall[a]![kind]!.push(r.ms);
      cpu[a]![kind]!.push(r.cpu);
    }
  }
}
await mf.dispose();

const f = (l: Latency): string => `${l.p50.toFixed(1)} [${l.p25.toFixed(1)}–${l.p75.toFixed(1)}]`;
const base = entries[0]![0];
console.log(
  `\n### Fresh isolate, first request (${compiledEntry ? 'compiled entries' : 'default entries'}): ` +
    `${rounds} rounds; load average ${loadBefore.map((x) => x.toFixed(1)).join(' ')} at the start, ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} at the end (${cpus().length} CPUs)\n`,
);
console.log('p50 [p25–p75] ms; deltas: median [p25–p75] of per-round differences against ' + base + '.\n');
console.log(
  `| alg | reading | ${kinds.join(' | ')} | ${kinds
    .slice(2)
    .map((k) => `${k} − ${base}`)
    .join(' | ')} |`,
);
console.log(
  `|---|---|${kinds.map(() => '---:').join('|')}|${kinds
    .slice(2)
    .map(() => '---:')
    .join('|')}|`,
);
for (const a of algs) {
  for (const [reading, r] of [
    ['wall', wall],
    ['workerd CPU', cpu],
  ] as const) {
    if (reading === 'workerd CPU' && workerdPid === undefined) continue;
    const row = kinds.map((k) => f(latency(r[a]![k]!)));
    const deltas = kinds.slice(2).map((k) => f(paired(r[a]![k]!, r[a]![base]!)));
    console.log(`| ${a} | ${reading} | ${row.join(' | ')} | ${deltas.join(' | ')} |`);
  }
}
