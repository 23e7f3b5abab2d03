// Issue 36's resource stage per warm request inside workerd (cases: ./resource-workerd-entry.ts):
// the RFC 9728 metadata answer, the RFC 9470 step-up check (an L1-hit decision under a rule
// with acr + maxAge minus the same under a scopes-only rule, paired by round), an MCP tools/call
// POST with an L1 hit, the resource_metadata edit of a 401, and an opaque token's introspection
// L1 hit minus the same guard's HS256 JWT L1 hit (paired by round). Timed as the workerd process's
// CPU (lib/workerd.ts); medians [p25–p75] over rounds; machine and versions printed first.
// No timing is asserted. Run: node bench/guard/resource-workerd.ts   (BENCH_SMOKE=1: seconds;
// BENCH_ROUNDS=n, 25 by default). The Node figures of the same parts: resource-stage.mjs.
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchInWorkerd } from '../lib/workerd.ts';
import { formatNs, printTable, summarize } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';

const env = environment(['miniflare']);
const entry = fileURLToPath(new URL('./resource-workerd-entry.ts', import.meta.url));
const roundsEnv = Number(process.env.BENCH_ROUNDS);
const load0 = loadavg();
const { samples, perRound, workerdVersion, clock } = await benchInWorkerd(entry, {
  ...(Number.isInteger(roundsEnv) && roundsEnv > 0 ? { rounds: roundsEnv } : {}),
  clock: process.env.BENCH_CLOCK === 'wall' ? 'wall' : 'cpu',
});
const load = `load average ${load0.map((x) => x.toFixed(1)).join(' ')} → ${loadavg()
  .map((x) => x.toFixed(1))
  .join(' ')} (${cpus().length} CPUs)`;
env.workerd = workerdVersion;
printEnvironment(env);
console.log(`timed: ${clock === 'cpu' ? 'workerd process CPU (schedstat, all threads)' : 'Node wall clock'}; ${load}`);
printTable(`the resource stage inside workerd ${workerdVersion}, per call`, samples);

/** Per round a − b (both run once in every round), as median [p25–p75]. */
function paired(a: string, b: string): string {
  const xs = perRound[a]!.map((x, i) => x - perRound[b]![i]!);
  const s = summarize(`${a} − ${b}`, xs);
  const f = (ns: number) => (ns < 0 ? `−${formatNs(-ns)}` : formatNs(ns));
  return `${f(s.medianNs)} [${f(s.p25Ns)}–${f(s.p75Ns)}]`;
}
const stepUp = paired('authenticate (L1 hit), rule with acr + maxAge', 'authenticate (L1 hit), rule with scopes only');
const challenge = paired('401 through guard.handle, resource set', '401 through guard.handle, no resource');
const introspected = paired(
  'authenticate, opaque token (introspection L1 hit)',
  'authenticate, HS256 JWT (L1 hit), same guard',
);
const introspectedFetch = paired(
  'guard.fetch, opaque token (introspection L1 hit, stub origin)',
  'guard.fetch, HS256 JWT (L1 hit, stub origin), same guard',
);
const median = (name: string) => formatNs(samples.find((s) => s.name === name)!.medianNs);
console.log(`\n### Per request (${clock}; ${load})\n`);
console.log(`- the metadata answer: ${median('metadata GET through guard.handle')}`);
console.log(`- the step-up check (acr + maxAge rule − scopes-only rule, L1 hits, paired by round): ${stepUp}`);
console.log(`  (checkStepUp alone: ${median('part checkStepUp alone')})`);
console.log(
  `- an MCP tools/call POST with an L1 hit, stub origin: ` +
    `${median('MCP tools/call POST through guard.handle (L1 hit, stub origin)')}`,
);
console.log(`- resource_metadata on a 401 (with − without resource, paired by round): ${challenge}`);
console.log(
  `- an opaque token's introspection L1 hit: ${median('authenticate, opaque token (introspection L1 hit)')}; ` +
    `minus the same guard's HS256 JWT L1 hit (paired by round): ${introspected}`,
);
console.log(`  the same through guard.fetch (stub origin), paired: ${introspectedFetch}`);
console.log(
  `  (a header parse of the opaque token, thrown and caught: ` +
    `${median('part header parse of the opaque token (throws, caught)')};`,
);
console.log(`   of the JWT: ${median('part header parse of the JWT')})`);
if (process.env.BENCH_SMOKE !== '1') {
  console.log(
    'results: ' +
      writeResults('resource-workerd', { env, load, samples, stepUp, challenge, introspected, introspectedFetch }),
  );
}
