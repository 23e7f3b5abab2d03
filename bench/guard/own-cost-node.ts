// The guard's own cost per decision, read in Node (same V8 as workerd, but a clock with
// sub-microsecond steps, so it can be read on a loaded machine): the cases of
// guard-overhead-workerd-entry.ts (WebCrypto backend, as in workerd), run in batches,
// every case once per round in a rotated order; per algorithm,
//   own = guard.authenticate − the guard's own verifier.verify of the same token,
// i.e. route, credential, checks and the promise layers around the verify, without forwarding;
// with an L1 hit (the usual warm request), the decision's stages alone
//   stages = authenticate − guard.verify − new Request   (both L1 hits)
// and the whole request, forwarding included,
//   request = handle − guard.verify − (new Request + the stub origin)   (both L1 hits);
// CPU time of the process (all threads) per call.
// Run: node bench/guard/own-cost-node.ts   (BENCH_ROUNDS=n, default 15; BENCH_BATCH=n calls per sample, default 400;
// BENCH_BASELINE_SRC=<another checkout's src/>: that src's guard in the same rounds, e.g. from `git archive main src`
// with src/wasm/generated copied in; then also a paired read: this and the baseline alternated in batches of
// 100 calls, BENCH_PAIRS pairs (default 150), which resolves differences the rotated rounds cannot on a busy machine)
import { build } from 'esbuild';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { latency, withSpread } from '../lib/latency.ts';
import type { WorkerCase } from '../lib/workerd.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const src = join(root, 'src');
const out = join(root, 'build/bench-own-cost/entry.mjs');
let entry = join(root, 'bench/guard/guard-overhead-workerd-entry.ts');
const baselineSrc = process.env.BENCH_BASELINE_SRC;
if (baselineSrc !== undefined) {
  // As guard-overhead-workerd.ts: a generated entry hands the baseline's startGuard to the same setup.
  const base = resolve(baselineSrc);
  const wrapper = join(root, 'build/bench-own-cost/baseline-entry.ts');
  mkdirSync(join(wrapper, '..'), { recursive: true });
  const start = join(base, existsSync(join(base, 'worker/start.ts')) ? 'worker/start.ts' : 'worker/guard.ts');
  writeFileSync(
    wrapper,
    `import setup from ${JSON.stringify(entry)};\nimport { startGuard } from ` +
      `${JSON.stringify(start)};\nexport default () => setup(startGuard);\n`,
  );
  entry = wrapper;
}
await build({
  entryPoints: [entry],
  outfile: out,
  bundle: true,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
  alias: {
    '#core-loader': join(src, 'wasm/load-bytes.ts'),
    '#crypto-backend': join(src, 'backend/webcrypto.ts'),
    '#platform': join(src, 'platform/web.ts'),
  },
});
const setup = ((await import(pathToFileURL(out).href)) as { default: () => Promise<WorkerCase[]> }).default;
const PARTS = [
  'guard.authenticate',
  'guard.verify (L1 off)',
  'guard.verify (L1 hit)',
  'verifier.verify through',
  'library verify',
  'guard request with an L1 hit',
  'plumbing',
];
const cases = (await setup()).filter(
  (c) =>
    (PARTS.some((p) => c.name.includes(p)) && !c.name.startsWith('revocation ')) ||
    c.name === 'part new Request(url, { headers })',
);
const rounds = Number(process.env.BENCH_ROUNDS) || 15;
const batch = Number(process.env.BENCH_BATCH) || 400;
const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
// Process CPU time (every thread: WebCrypto runs on the thread pool), not wall time: on a
// shared machine the wall clock also counts the time other processes held the CPU.
const run = async (c: WorkerCase): Promise<number> => {
  const t0 = process.cpuUsage();
  for (let i = 0; i < batch; i++) {
    const r = c.fn();
    if (c.async) await r;
  }
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / batch; // CPU µs per call
};
for (const c of cases) await run(c); // warm-up
const load0 = loadavg();
for (let r = 0; r < rounds; r++) {
  const order = cases.map((_, i) => cases[(i + r) % cases.length]!);
  for (const c of order) samples.get(c.name)!.push(await run(c));
}
const load1 = loadavg();
console.log(
  `Node ${process.version}; ${rounds} rounds × ${batch} calls; load average ` +
    `${load0.map((x) => x.toFixed(1)).join(' ')} → ${load1.map((x) => x.toFixed(1)).join(' ')} (${cpus().length} ` +
    `CPUs)\n`,
);
const req = latency(samples.get('part new Request(url, { headers })')!);
console.log(
  `new Request(url, { headers }) alone (every authenticate sample builds one): ${withSpread(req, 2)} CPU µs\n`,
);
const d = (x: number[], ...ys: number[][]) =>
  withSpread(latency(x.map((q, i) => ys.reduce((acc, y) => acc - y[i]!, q))), 2);
console.log(
  '| alg | guard.authenticate, CPU µs | guard.verify (tiers, L1 off) | guard verifier.verify | library verify ' +
    '| authenticate − tiers (stages) | tiers − verifier.verify (open+verifyOpened) | own = authenticate − ' +
    'verifier.verify | stages with an L1 hit: authenticate − verify − new Request, both L1 hit | request with an ' +
    'L1 hit: handle − verify − plumbing |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
const named = (n: string) => {
  const x = samples.get(n);
  if (x === undefined) throw new Error(`no case ${n}`);
  return x;
};
const R = named('part new Request(url, { headers })');
for (const alg of ['HS256', 'EdDSA', 'RS256', 'ES256']) {
  const a = named(`step ${alg} guard.authenticate (the decision, nothing forwarded)`);
  const hitA = named(`step ${alg} guard.authenticate (L1 hit)`);
  const hitV = named(`step ${alg} guard.verify (L1 hit)`);
  const hitH = named(`${alg} guard request with an L1 hit (stub origin)`);
  const plumbing = named(`${alg} plumbing (Request + stub origin)`);
  const v = named(`step ${alg} verifier.verify through the guard's own verifier`);
  const l = named(`${alg} library verify`);
  const t = named(`step ${alg} guard.verify (L1 off)`);
  console.log(
    `| ${alg} | ${withSpread(latency(a), 2)} | ${withSpread(latency(t), 2)} | ${withSpread(latency(v), 2)} | ` +
      `${withSpread(latency(l), 2)} | ${d(a, t)} | ${d(t, v)} | ${d(a, v)} | ${d(hitA, hitV, R)} | ` +
      `${d(hitH, hitV, plumbing)} |`,
  );
}
if (baselineSrc !== undefined) {
  console.log(
    `\nSame rounds, this src against the baseline ${baselineSrc} (CPU µs, median [p25–p75] of per-round ` +
      `values; L1 hits):\n`,
  );
  console.log(
    '| alg | stages: this | stages: baseline | stages: this − baseline | request: this | request: baseline | ' +
      'request: this − baseline |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const alg of ['HS256', 'EdDSA', 'RS256', 'ES256']) {
    const hitA = named(`step ${alg} guard.authenticate (L1 hit)`);
    const hitV = named(`step ${alg} guard.verify (L1 hit)`);
    const hitH = named(`${alg} guard request with an L1 hit (stub origin)`);
    const bA = named(`step ${alg} baseline guard.authenticate (L1 hit)`);
    const bV = named(`step ${alg} baseline guard.verify (L1 hit)`);
    const bH = named(`${alg} baseline guard request with an L1 hit (stub origin)`);
    const plumbing = named(`${alg} plumbing (Request + stub origin)`);
    const stagesThis = hitA.map((x, i) => x - hitV[i]! - R[i]!);
    const stagesBase = bA.map((x, i) => x - bV[i]! - R[i]!);
    const reqThis = hitH.map((x, i) => x - hitV[i]! - plumbing[i]!);
    const reqBase = bH.map((x, i) => x - bV[i]! - plumbing[i]!);
    console.log(
      `| ${alg} | ${withSpread(latency(stagesThis), 2)} | ${withSpread(latency(stagesBase), 2)} | ` +
        `${d(stagesThis, stagesBase)} | ${withSpread(latency(reqThis), 2)} | ${withSpread(latency(reqBase), 2)} ` +
        `| ${d(reqThis, reqBase)} |`,
    );
  }
}
if (baselineSrc !== undefined) {
  // Paired: this and the baseline one batch after the other (which goes first alternates), so
  // both see the same moment of a shared machine; the difference is taken per pair.
  const pairs = Number(process.env.BENCH_PAIRS) || 150;
  const small = async (fn: () => unknown): Promise<number> => {
    const t0 = process.cpuUsage();
    for (let i = 0; i < 100; i++) await fn();
    const d = process.cpuUsage(t0);
    return (d.user + d.system) / 100;
  };
  const fnOf = (n: string) => cases.find((c) => c.name === n)!.fn;
  console.log(
    `\nPaired, ${pairs} pairs of 100-call batches (CPU µs per call, median [p25–p75]; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}):\n`,
  );
  console.log('| alg | what | this | baseline | this − baseline |');
  console.log('|---|---|---:|---:|---:|');
  for (const alg of ['HS256', 'EdDSA', 'RS256', 'ES256']) {
    for (const [what, a, b] of [
      [
        'authenticate, L1 hit (with new Request)',
        `step ${alg} guard.authenticate (L1 hit)`,
        `step ${alg} baseline guard.authenticate (L1 hit)`,
      ],
      [
        'request, L1 hit (with plumbing)',
        `${alg} guard request with an L1 hit (stub origin)`,
        `${alg} baseline guard request with an L1 hit (stub origin)`,
      ],
    ] as const) {
      const [fa, fb] = [fnOf(a), fnOf(b)];
      const xa: number[] = [];
      const xb: number[] = [];
      for (let i = 0; i < pairs; i++) {
        if (i % 2 === 0) {
          xa.push(await small(fa));
          xb.push(await small(fb));
        } else {
          xb.push(await small(fb));
          xa.push(await small(fa));
        }
      }
      console.log(
        `| ${alg} | ${what} | ${withSpread(latency(xa), 2)} | ${withSpread(latency(xb), 2)} | ${d(xa, xb)} |`,
      );
    }
  }
}
