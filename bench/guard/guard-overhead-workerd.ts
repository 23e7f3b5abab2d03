// The guard's own CPU per warm request inside workerd: a request through the guard
// (L1 off, every request verifies; stub origin) minus the library's verify of the
// same token minus the request plumbing (building the Request, the stub origin).
// Target (issue 16): at most 5 µs. Timed from Node as in lib/workerd.ts.
// Run: npm run build:wasm && node bench/guard/guard-overhead-workerd.ts   (BENCH_SMOKE=1 for a quick pass;
// BENCH_ROUNDS=n for more rounds, 25 by default). Where the time goes inside one request, as a
// CPU profile: bench/guard/guard-profile-workerd.ts.
import { fileURLToPath } from 'node:url';
import { benchInWorkerd } from '../lib/workerd.ts';
import { formatNs, printTable } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';

const env = environment(['miniflare']);
const roundsEnv = Number(process.env.BENCH_ROUNDS);
const { samples, workerdVersion } = await benchInWorkerd(fileURLToPath(new URL('./guard-overhead-workerd-entry.ts', import.meta.url)), Number.isInteger(roundsEnv) && roundsEnv > 0 ? { rounds: roundsEnv } : {});
env.workerd = workerdVersion;
printEnvironment(env);
const overhead: Record<string, { guardNs: number; verifyNs: number; plumbingNs: number; ownNs: number }> = {};
for (const alg of ['HS256', 'EdDSA', 'RS256', 'ES256']) {
  const rows = samples.filter((s) => s.name.startsWith(`${alg} `));
  printTable(`${alg}: one warm request inside workerd ${workerdVersion}`, rows, rows[1]!.name);
  const [g, v, p] = rows.map((r) => r.medianNs) as [number, number, number];
  overhead[alg] = { guardNs: g, verifyNs: v, plumbingNs: p, ownNs: g - v - p };
}
const steps = samples.filter((s) => s.name.startsWith('step '));
printTable('the guard\'s decision alone (authenticate: path, rules, token, verify; nothing forwarded) and its verify', steps);
const parts = samples.filter((s) => s.name.startsWith('part '));
printTable('the pieces of a request path inside workerd (one call each)', parts);
console.log('\n### The guard\'s own CPU per request (guard − verify − plumbing, medians; target ≤ 5 µs)\n');
for (const [alg, o] of Object.entries(overhead)) console.log(`- ${alg}: ${formatNs(o.ownNs)} (guard ${formatNs(o.guardNs)}, verify ${formatNs(o.verifyNs)}, plumbing ${formatNs(o.plumbingNs)})`);
if (process.env.BENCH_SMOKE !== '1') console.log(`results: ${writeResults('guard-overhead-workerd', { env, samples, overhead, steps, parts })}`);
