// Round trips to the guard's Durable Objects, locally (Miniflare's workerd, SQLite-backed
// objects on this machine): a revocation written through the admin endpoint's writer and
// seen by a second isolate's view, a view refresh alone, and one DPoP replay check.
// Local numbers: no network between the isolate and the object, as when both run in
// the same Cloudflare location; docs/decisions/0010 and 0011 add the rest.
// Run: node bench/guard/do-round-trips.ts   (BENCH_SMOKE=1 for a quick pass; BENCH_ROUNDS=n, 25 by default).
// Each round is the mean of 40 round trips timed inside the Worker; medians and p25–p75 over rounds.
import { fileURLToPath } from 'node:url';
import { benchInWorkerd } from '../lib/workerd.ts';
import { printTable } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';

const env = environment(['miniflare']);
const entry = fileURLToPath(new URL('./do-round-trips-entry.ts', import.meta.url));
const roundsEnv = Number(process.env.BENCH_ROUNDS);
const { samples, workerdVersion } = await benchInWorkerd(entry, {
  ...(Number.isInteger(roundsEnv) && roundsEnv > 0 ? { rounds: roundsEnv } : {}),
  // Each round: 40 awaited round trips timed inside the Worker (its clock moves on I/O).
  insideN: 40,
  durableObjects: {
    REVOCATIONS: { className: 'RevocationList', useSQLite: true },
    DPOP_REPLAY: { className: 'DpopReplayShard', useSQLite: true },
  },
});
env.workerd = workerdVersion;
printEnvironment(env);
printTable(`Durable Object round trips inside workerd ${workerdVersion} (local)`, samples);
if (process.env.BENCH_SMOKE !== '1') console.log(`results: ${writeResults('do-round-trips', { env, samples })}`);
