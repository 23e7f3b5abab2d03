// Signing and JWE decrypt inside workerd (Miniflare), timed from Node: edgejwt vs
// jose vs the bare crypto.subtle call. Target checked: JWE dir+A256GCM decrypt+claims ≥ 2x jose.
// Run: npm run build:wasm && node bench/sign/sign-jwe-workerd.ts   (BENCH_SMOKE=1 for a quick pass)
import { fileURLToPath } from 'node:url';
import { benchInWorkerd } from '../lib/workerd.ts';
import { printTable } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';

const env = environment(['jose']);
const { samples, workerdVersion } = await benchInWorkerd(fileURLToPath(new URL('./sign-jwe-workerd-entry.ts', import.meta.url)));
env.workerd = workerdVersion;
printEnvironment(env);
const verdicts: string[] = [];
for (const group of ['sign HS256', 'sign EdDSA', 'sign ES256', 'jwe']) {
  const rows = samples.filter((s) => s.name.startsWith(`${group} `));
  printTable(`${group} inside workerd ${workerdVersion}`, rows, rows[0]!.name);
  const jose = rows.filter((r) => r.name.includes('jose')).reduce((a, b) => (a.medianNs < b.medianNs ? a : b));
  verdicts.push(`${group}: edgejwt ${(jose.medianNs / rows[0]!.medianNs).toFixed(2)}x faster than ${jose.name.slice(group.length + 1)}`);
}
const jwe = verdicts.at(-1)!;
const r = Number(/edgejwt ([\d.]+)x/.exec(jwe)![1]);
verdicts.push(`target JWE dir+A256GCM decrypt+claims ≥ 2x jose in workerd: ${r >= 2 ? 'met' : 'NOT met'}`);
console.log('\n### Ratios from this run\n');
for (const v of verdicts) console.log(`- ${v}`);
if (process.env.BENCH_SMOKE !== '1') console.log(`results: ${writeResults('sign-jwe-workerd', { env, samples, verdicts })}`);
