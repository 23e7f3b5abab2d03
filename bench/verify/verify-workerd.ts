// bench/verify/verify.ts's table inside workerd (Miniflare), timed from Node.
// Run: npm run build:wasm && node bench/verify/verify-workerd.ts   (BENCH_SMOKE=1 for a quick pass)
import { fileURLToPath } from 'node:url';
import { benchInWorkerd } from '../lib/workerd.ts';
import { printTable, formatNs } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';

const env = environment(['jose', 'hono', '@tsndr/cloudflare-worker-jwt']);
const { samples, workerdVersion } = await benchInWorkerd(
  fileURLToPath(new URL('./verify-workerd-entry.ts', import.meta.url)),
);
env.workerd = workerdVersion;
printEnvironment(env);
const verdicts: string[] = [];
for (const alg of ['HS256', 'EdDSA', 'RS256', 'ES256']) {
  const rows = samples.filter((s) => s.name.startsWith(`${alg} `));
  const mine = rows[0]!;
  printTable(`${alg}: full verify inside workerd ${workerdVersion}`, rows, mine.name);
  const jose = rows.find((r) => r.name.includes('jose'))!;
  const peers = rows.filter((r) => !r.name.includes('edgejwt') && !r.name.includes('bare'));
  const best = peers.reduce((a, b) => (a.medianNs < b.medianNs ? a : b));
  const bare = rows.find((r) => r.name.includes('bare'))!;
  verdicts.push(
    `${alg}: ${(jose.medianNs / mine.medianNs).toFixed(2)}x faster than jose, ` +
      `${(best.medianNs / mine.medianNs).toFixed(2)}x vs fastest peer (${best.name.slice(alg.length + 1)}), ` +
      `${(mine.medianNs / bare.medianNs).toFixed(2)}x the bare primitive`,
  );
}
const extra = samples.filter((s) => s.name.startsWith('cache') || s.name.startsWith('decode'));
printTable('cache hit and decode-only inside workerd', extra);
const hit = extra.find((s) => s.name.startsWith('cache'))!;
verdicts.push(`cache hit: ${Math.round(hit.opsPerSec).toLocaleString('en-US')}/s (${formatNs(hit.medianNs)})`);
console.log('\n### Targets (ratios from this run)\n');
for (const v of verdicts) console.log(`- ${v}`);
if (process.env.BENCH_SMOKE !== '1')
  console.log(`results: ${writeResults('verify-workerd', { env, samples, verdicts })}`);
