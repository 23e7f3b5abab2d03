// The guard's own CPU per warm request inside workerd: a request through the guard
// (L1 off, every request verifies; stub origin) minus the library's verify of the
// same token minus the request plumbing (building the Request, the stub origin).
// Target (issue 16): at most 5 µs. Timed from Node as in lib/workerd.ts.
// Run: npm run build:wasm && node bench/guard/guard-overhead-workerd.ts   (BENCH_SMOKE=1 for a quick pass;
// BENCH_ROUNDS=n for more rounds, 25 by default). Where the time goes inside one request, as a
// CPU profile: bench/guard/guard-profile-workerd.ts.
// BENCH_BASELINE_SRC=<another checkout's src/>: that src's guard too, in the same rounds
// (a before/after read under the same machine noise), e.g. from `git archive <commit> src`.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchInWorkerd } from '../lib/workerd.ts';
import { formatNs, printTable, summarize } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';

const env = environment(['miniflare']);
const baselineSrc = process.env.BENCH_BASELINE_SRC;
let entry = fileURLToPath(new URL('./guard-overhead-workerd-entry.ts', import.meta.url));
if (baselineSrc !== undefined) {
  // A generated entry hands the baseline's startGuard to the same setup.
  const wrapper = fileURLToPath(new URL('../../build/bench-workers/guard-overhead-baseline-entry.ts', import.meta.url));
  mkdirSync(join(wrapper, '..'), { recursive: true });
  writeFileSync(
    wrapper,
    // startGuard lives in worker/start.ts since the features registry (issue 23), in worker/guard.ts before.
    `import setup from ${JSON.stringify(entry)};\nimport { startGuard } from ${JSON.stringify(join(resolve(baselineSrc), existsSync(join(resolve(baselineSrc), 'worker/start.ts')) ? 'worker/start.ts' : 'worker/guard.ts'))};\nexport default () => setup(startGuard);\n`,
  );
  entry = wrapper;
}
const roundsEnv = Number(process.env.BENCH_ROUNDS);
const { samples, perRound, workerdVersion } = await benchInWorkerd(entry, Number.isInteger(roundsEnv) && roundsEnv > 0 ? { rounds: roundsEnv } : {});
env.workerd = workerdVersion;
printEnvironment(env);
const overhead: Record<string, { guardNs: number; verifyNs: number; plumbingNs: number; ownNs: number }> = {};
const baseline: Record<string, { guardNs: number; ownNs: number }> = {};
for (const alg of ['HS256', 'EdDSA', 'RS256', 'ES256']) {
  const rows = samples.filter((s) => s.name.startsWith(`${alg} `));
  const row = (what: string) => rows.find((r) => r.name.startsWith(`${alg} ${what}`));
  printTable(`${alg}: one warm request inside workerd ${workerdVersion}`, rows, row('library verify')!.name);
  const [g, v, p] = [row('guard request')!, row('library verify')!, row('plumbing')!].map((r) => r.medianNs) as [number, number, number];
  overhead[alg] = { guardNs: g, verifyNs: v, plumbingNs: p, ownNs: g - v - p };
  const b = row('baseline guard request');
  if (b !== undefined) baseline[alg] = { guardNs: b.medianNs, ownNs: b.medianNs - v - p };
}
const revocation = samples.filter((s) => s.name.startsWith('revocation '));
printTable('revocation (issue 25): the same HS256 guard without the stage, with it and nothing revoked, with 10,000 entries', revocation);
// Paired by round (the same round runs every case), so machine noise common to a round cancels.
const revocationCost: Record<string, { medianNs: number; p25Ns: number; p75Ns: number }> = {};
for (const kind of ['guard request (L1 off)', 'guard.authenticate (L1 hit)']) {
  const of = (label: string) => perRound[`revocation HS256 ${kind}, ${label}`]!;
  const without = of('no revocation stage');
  for (const label of ['revocation on, nothing revoked', 'revocation on, 10,000 entries']) {
    const d = summarize(`${kind}: ${label}`, of(label).map((ns, i) => ns - without[i]!));
    revocationCost[d.name] = { medianNs: d.medianNs, p25Ns: d.p25Ns, p75Ns: d.p75Ns };
  }
}
const steps = samples.filter((s) => s.name.startsWith('step '));
printTable('the guard\'s decision alone (authenticate: path, rules, token, verify; nothing forwarded) and its verify', steps);
const parts = samples.filter((s) => s.name.startsWith('part '));
printTable('the pieces of a request path inside workerd (one call each)', parts);
console.log('\n### The guard\'s own CPU per request (guard − verify − plumbing, medians; target ≤ 5 µs)\n');
for (const [alg, o] of Object.entries(overhead)) {
  const b = baseline[alg];
  const vs = b === undefined ? '' : `; baseline ${baselineSrc}: ${formatNs(b.ownNs)} (guard ${formatNs(b.guardNs)})`;
  console.log(`- ${alg}: ${formatNs(o.ownNs)} (guard ${formatNs(o.guardNs)}, verify ${formatNs(o.verifyNs)}, plumbing ${formatNs(o.plumbingNs)})${vs}`);
}
console.log('\n### Revocation cost per request (with − without, paired by round; targets: nothing revoked ≤ 1 µs, 10,000 entries ≤ 2 µs)\n');
for (const [name, d] of Object.entries(revocationCost)) console.log(`- ${name}: ${formatNs(d.medianNs)} (p25–p75 ${formatNs(d.p25Ns)}–${formatNs(d.p75Ns)})`);
if (process.env.BENCH_SMOKE !== '1') console.log(`results: ${writeResults('guard-overhead-workerd', { env, ...(baselineSrc === undefined ? {} : { baselineSrc, baseline }), samples, overhead, revocationCost, steps, parts })}`);
