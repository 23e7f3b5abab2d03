// The guard's own cost per decision, read in Node (same V8 as workerd, but a clock with
// sub-microsecond steps, so it can be read on a loaded machine): the cases of
// guard-overhead-workerd-entry.ts (WebCrypto backend, as in workerd), run in batches,
// every case once per round in a rotated order; per algorithm,
//   own = guard.authenticate − the guard's own verifier.verify of the same token,
// i.e. route, credential, checks and the promise layers around the verify, without forwarding;
// CPU time of the process (all threads) per call.
// Run: node bench/guard/own-cost-node.ts   (BENCH_ROUNDS=n, default 15; BENCH_BATCH=n calls per sample, default 400)
import { build } from 'esbuild';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { latency, withSpread } from '../lib/latency.ts';
import type { WorkerCase } from '../lib/workerd.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const src = join(root, 'src');
const out = join(root, 'build/bench-own-cost/entry.mjs');
await build({
  entryPoints: [join(root, 'bench/guard/guard-overhead-workerd-entry.ts')], outfile: out, bundle: true, format: 'esm', platform: 'node', logLevel: 'warning',
  alias: { '#core-loader': join(src, 'wasm/load-bytes.ts'), '#crypto-backend': join(src, 'backend/webcrypto.ts'), '#platform': join(src, 'platform/web.ts') },
});
const setup = ((await import(pathToFileURL(out).href)) as { default: () => Promise<WorkerCase[]> }).default;
const PARTS = ['guard.authenticate', 'guard.verify (L1 off)', 'guard.verify (L1 hit)', 'verifier.verify through', 'library verify'];
const cases = (await setup()).filter((c) => PARTS.some((p) => c.name.includes(p)) || c.name === 'part new Request(url, { headers })');
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
console.log(`Node ${process.version}; ${rounds} rounds × ${batch} calls; load average ${load0.map((x) => x.toFixed(1)).join(' ')} → ${load1.map((x) => x.toFixed(1)).join(' ')} (${cpus().length} CPUs)\n`);
const req = latency(samples.get('part new Request(url, { headers })')!);
console.log(`new Request(url, { headers }) alone (every authenticate sample builds one): ${withSpread(req, 2)} CPU µs\n`);
console.log('| alg | guard.authenticate, CPU µs | guard.verify (tiers, L1 off) | guard verifier.verify | library verify | authenticate − tiers (stages) | tiers − verifier.verify (open+verifyOpened) | own = authenticate − verifier.verify | stages with an L1 hit: authenticate − verify, both L1 hit |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const alg of ['HS256', 'EdDSA', 'RS256', 'ES256']) {
  const get = (part: string) => samples.get([...samples.keys()].find((k) => k.includes(alg) && k.includes(part))!)!;
  const a = get('guard.authenticate (the decision');
  const hitA = get('guard.authenticate (L1 hit)');
  const hitV = get('guard.verify (L1 hit)');
  const v = get('verifier.verify through');
  const l = get('library verify');
  const t = get('guard.verify (L1 off)');
  const d = (x: number[], y: number[]) => withSpread(latency(x.map((q, i) => q - y[i]!)), 2);
  console.log(`| ${alg} | ${withSpread(latency(a), 2)} | ${withSpread(latency(t), 2)} | ${withSpread(latency(v), 2)} | ${withSpread(latency(l), 2)} | ${d(a, t)} | ${d(t, v)} | ${d(a, v)} | ${d(hitA, hitV)} |`);
}
