// Signing and JWE decrypt inside workerd (Miniflare), timed from Node: edgejwt vs
// jose vs the bare crypto.subtle call. Target checked: JWE dir+A256GCM decrypt+claims ≥ 2x jose.
// Run: npm run build:wasm && node bench/sign/sign-jwe-workerd.ts   (BENCH_SMOKE=1 for a quick pass)
import { fileURLToPath } from 'node:url';
import { benchInWorkerd } from '../lib/workerd.ts';
import { printTable } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';

const env = environment(['jose']);
// 60 rounds: the JWE target is read as a ratio paired by round (below), and workerd's
// per-batch timings on a shared machine need that many for a stable median.
const { samples, perRound, workerdVersion } = await benchInWorkerd(
  fileURLToPath(new URL('./sign-jwe-workerd-entry.ts', import.meta.url)),
  { rounds: process.env.BENCH_SMOKE === '1' ? undefined : 60 },
);
env.workerd = workerdVersion;
printEnvironment(env);
const verdicts: string[] = [];
for (const group of ['sign HS256', 'sign EdDSA', 'sign ES256', 'jwe']) {
  const rows = samples.filter((s) => s.name.startsWith(`${group} `));
  printTable(`${group} inside workerd ${workerdVersion}`, rows, rows[0]!.name);
  const jose = rows.filter((r) => r.name.includes('jose')).reduce((a, b) => (a.medianNs < b.medianNs ? a : b));
  verdicts.push(
    `${group}: edgejwt ${(jose.medianNs / rows[0]!.medianNs).toFixed(2)}x faster than ` +
      `${jose.name.slice(group.length + 1)}`,
  );
}
// The target, paired by round: jose's faster form in that round over edgejwt's time in the same round.
const ours = perRound['jwe edgejwt verify (dir+A256GCM, claims)']!;
const joseBytes = perRound['jwe jose jwtDecrypt (key bytes)']!;
const joseKey = perRound['jwe jose jwtDecrypt (CryptoKey)']!;
const ratios = ours.map((t, i) => Math.min(joseBytes[i]!, joseKey[i]!) / Math.max(t, 1)).sort((a, b) => a - b);
const q = (f: number): number => ratios[Math.min(ratios.length - 1, Math.floor(f * ratios.length))]!;
const atLeast2 = ratios.filter((x) => x >= 2).length / ratios.length;
// What the same ratio is for the floor (no checks at all): the best any verify of this design can show.
const floorRun = perRound['jwe floor (split, decode, decrypt, JSON; no checks)']!;
const floorRatios = floorRun.map((t, i) => Math.min(joseBytes[i]!, joseKey[i]!) / Math.max(t, 1)).sort((a, b) => a - b);
verdicts.push(
  `floor (split, decode, decrypt, JSON; no checks) vs jose's faster form: ` +
    `${floorRatios[Math.floor(floorRatios.length / 2)]!.toFixed(2)}x (median of ${floorRatios.length} paired ` +
    `rounds)`,
);
verdicts.push(
  `target JWE dir+A256GCM decrypt+claims ≥ 2x jose in workerd: ${q(0.5).toFixed(2)}x (median of ` +
    `${ratios.length} paired rounds, p25–p75 ${q(0.25).toFixed(2)}–${q(0.75).toFixed(2)}, ` +
    `${Math.round(atLeast2 * 100)}% of rounds ≥ 2x): ${q(0.5) >= 2 ? 'met' : 'NOT met'}`,
);
console.log('\n### Ratios from this run\n');
for (const v of verdicts) console.log(`- ${v}`);
if (process.env.BENCH_SMOKE !== '1')
  console.log(`results: ${writeResults('sign-jwe-workerd', { env, samples, verdicts })}`);
