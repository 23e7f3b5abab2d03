// The per-algorithm table inside workerd (Miniflare), timed from Node by
// request-length differences (bench/lib/workerd.ts). Ratios are to edgejwt.
// Run: node bench/verify/algorithms-workerd.ts   (BENCH_SMOKE=1: seconds)
import { fileURLToPath } from 'node:url';
import { benchInWorkerd } from '../lib/workerd.ts';
import { envNumber, formatTable, formatNs, smoke, type Sample } from '../lib/harness.ts';
import { environment, printEnvironment, writePartialResults, writeResults } from '../lib/env.ts';
import { benchVariants } from '../lib/material.ts';
import { keyPathsFor } from '../lib/key-paths.ts';

const env = environment(['jose', 'hono', '@tsndr/cloudflare-worker-jwt', 'miniflare']);
// BENCH_ALGS=HS256,EdDSA: only those rows, written to build/ (a partial run never replaces the published figures).
const only = process.env.BENCH_ALGS?.split(',');
const timed = only && ((name: string) => only.some((label) => name.startsWith(`${label} `)));
process.stderr.write(
  '[workerd table] bundling, then warm-up, calibration and rounds for every case (about 2 minutes)…\n',
);
const t0 = Date.now();
// Fewer rounds and a shorter warm-up than the default: 66 cases must fit in about two minutes.
// BENCH_ROUNDS / BENCH_REQUEST_MS / BENCH_BEST_OF override (a busy machine: shorter requests,
// more rounds, the fastest of a few requests per round).
const { samples, workerdVersion } = await benchInWorkerd(
  fileURLToPath(new URL('./algorithms-workerd-entry.ts', import.meta.url)),
  smoke
    ? { rustPeer: true, only: timed }
    : {
        rustPeer: true,
        only: timed,
        rounds: envNumber('BENCH_ROUNDS') ?? 15,
        requestMs: envNumber('BENCH_REQUEST_MS') ?? 30,
        warmupMs: 200,
        bestOf: envNumber('BENCH_BEST_OF') ?? 1,
      },
);
process.stderr.write(`[workerd table] done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
env.workerd = workerdVersion;
printEnvironment(env);

const variants: Record<string, Sample[]> = {};
for (const v of benchVariants(smoke).filter((v) => only === undefined || only.includes(v.label))) {
  const rows = samples
    .filter((s) => s.name.startsWith(`${v.label} `))
    .map((s) => ({ ...s, name: s.name.slice(v.label.length + 1) }));
  variants[v.label] = rows;
  console.log('\n' + formatTable(`${v.label}: full verify inside workerd ${workerdVersion}`, rows, rows[0]!.name));
}
const keyPaths = keyPathsFor(samples.map((s) => s.name.slice(s.name.indexOf(' ') + 1)));
if (only === undefined) {
  const l2 = samples.find((s) => s.name.startsWith('guard L2'))!;
  console.log(
    `\nguard L2 hit, CPU only: ${formatNs(l2.medianNs)} (p25–p75 ${formatNs(l2.p25Ns)}–${formatNs(l2.p75Ns)})`,
  );
  console.log(`wrote ${writeResults('algorithms-workerd', { env, keyPaths, variants, l2Cpu: l2 })}`);
} else {
  const out = writePartialResults(`algorithms-workerd-${only.join('-')}`, { env, keyPaths, variants });
  console.log(`wrote ${out} (BENCH_ALGS run: results/ untouched)`);
}
