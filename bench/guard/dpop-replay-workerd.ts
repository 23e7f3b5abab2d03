// The DPoP replay check a guard request pays, inside workerd (Miniflare, local): one
// checkAndRemember through the Durable Object store (the call to the shard named by the
// key, its answer) next to the in-isolate store; with the default 4096 shards most calls of a
// short run reach a shard for the first time (it is created), with 64 warm shards none does. Timed from Node as in
// lib/workerd.ts: per-op time is (time(2n) − time(n)) / n, cases interleaved round by round.
// Local Miniflare runs the object in the same process: a deployed shard adds the network
// hop to wherever the object lives, which this cannot show.
// Run: node bench/guard/dpop-replay-workerd.ts   (BENCH_SMOKE=1 for a quick pass; BENCH_ROUNDS=n, default 15)
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { bundleWorker } from '../lib/workerd-bundle.ts';
import { miniflareFor } from '../lib/workerd.ts';
import { printTable, smoke, summarize } from '../lib/harness.ts';
import { environment, printEnvironment } from '../lib/env.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outDir = join(root, 'build/bench-workers/dpop-replay');
mkdirSync(outDir, { recursive: true });
await bundleWorker(
  fileURLToPath(new URL('./dpop-replay-workerd-entry.ts', import.meta.url)),
  join(outDir, 'worker.js'),
);
const mf = miniflareFor(outDir, { durableObjects: { DPOP_REPLAY: { className: 'DpopReplayShard', useSQLite: true } } });
const env = environment(['miniflare']);
printEnvironment(env);
try {
  const timed = async (store: string, n: number): Promise<number> => {
    const t0 = process.hrtime.bigint();
    const res = await mf.dispatchFetch(`http://bench.local/?store=${store}&n=${n}`);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`bench failed inside workerd: ${text}`);
    return Number(process.hrtime.bigint() - t0);
  };
  const stores = ['do', 'do-warm', 'isolate'];
  const n = { do: smoke ? 16 : 64, 'do-warm': smoke ? 16 : 64, isolate: smoke ? 256 : 8192 } as Record<string, number>;
  for (const s of stores) await timed(s, n[s]!); // code compiled
  await timed('do-warm', smoke ? 64 : 640); // the 64 one-character shards created (with high probability all)
  const rounds = smoke ? 3 : Number(process.env.BENCH_ROUNDS ?? 15);
  const per: Record<string, number[]> = { do: [], 'do-warm': [], isolate: [] };
  for (let r = 0; r < rounds; r++) {
    for (const s of stores) {
      const k = n[s]!;
      per[s]!.push(Math.max(1, ((await timed(s, 2 * k)) - (await timed(s, k))) / k));
    }
  }
  printTable(
    'DPoP replay: one checkAndRemember (fresh key, incl. dpopReplayKey), inside local workerd',
    [
      summarize('Durable Object store, 4096 shards (mostly first use in this run)', per.do!),
      summarize('Durable Object store, 64 warm shards', per['do-warm']!),
      summarize('isolate store (this isolate only)', per.isolate!),
    ],
    'isolate store (this isolate only)',
  );
} finally {
  await mf.dispose();
}
