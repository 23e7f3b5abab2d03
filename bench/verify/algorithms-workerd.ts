// The per-algorithm table inside workerd (Miniflare), timed from Node by
// request-length differences (bench/lib/workerd.ts). Ratios are to edgejwt.
// Run: node bench/verify/algorithms-workerd.ts   (BENCH_SMOKE=1: seconds)
import { fileURLToPath } from 'node:url';
import { benchInWorkerd } from '../lib/workerd.ts';
import { envNumber, formatTable, formatNs, smoke, type Sample } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { benchVariants } from '../lib/material.ts';
import { keyPathsFor } from '../lib/key-paths.ts';

const env = environment(['jose', 'hono', '@tsndr/cloudflare-worker-jwt', 'miniflare']);
process.stderr.write('[workerd table] bundling, then warm-up, calibration and rounds for every case (about 2 minutes)…\n');
const t0 = Date.now();
// Fewer rounds and a shorter warm-up than the default: 66 cases must fit in about two minutes.
// BENCH_ROUNDS / BENCH_REQUEST_MS / BENCH_BEST_OF override (a busy machine: shorter requests,
// more rounds, the fastest of a few requests per round).
const { samples, workerdVersion } = await benchInWorkerd(
  fileURLToPath(new URL('./algorithms-workerd-entry.ts', import.meta.url)),
  smoke ? { rustPeer: true } : { rustPeer: true, rounds: envNumber('BENCH_ROUNDS') ?? 15, requestMs: envNumber('BENCH_REQUEST_MS') ?? 30, warmupMs: 200, bestOf: envNumber('BENCH_BEST_OF') ?? 1 },
);
process.stderr.write(`[workerd table] done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
env.workerd = workerdVersion;
printEnvironment(env);

const variants: Record<string, Sample[]> = {};
for (const v of benchVariants(smoke)) {
  const rows = samples.filter((s) => s.name.startsWith(`${v.label} `)).map((s) => ({ ...s, name: s.name.slice(v.label.length + 1) }));
  variants[v.label] = rows;
  console.log('\n' + formatTable(`${v.label}: full verify inside workerd ${workerdVersion}`, rows, rows[0]!.name));
}
const l2 = samples.find((s) => s.name.startsWith('guard L2'))!;
console.log(`\nguard L2 hit, CPU only: ${formatNs(l2.medianNs)} (p25–p75 ${formatNs(l2.p25Ns)}–${formatNs(l2.p75Ns)})`);
console.log(`wrote ${writeResults('algorithms-workerd', { env, keyPaths: keyPathsFor(samples.map((s) => s.name.slice(s.name.indexOf(' ') + 1))), variants, l2Cpu: l2 })}`);
