// HMAC verify inside workerd (through Miniflare): edgejwt vs crypto.subtle.verify.
// Run: npm run build:wasm && node bench/core/hmac/workerd.ts   (BENCH_SMOKE=1 for a quick pass)
import { fileURLToPath } from 'node:url';
import { benchInWorkerd } from '../../lib/workerd.ts';
import { printTable, speedup } from '../../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../../lib/env.ts';

const env = environment();
const { samples, workerdVersion } = await benchInWorkerd(fileURLToPath(new URL('./workerd-entry.ts', import.meta.url)));
env.workerd = workerdVersion;
printEnvironment(env);
for (const alg of ['HS256', 'HS512']) {
  const rows = samples.filter((s) => s.name.startsWith(alg));
  printTable(`${alg} verify inside workerd ${workerdVersion}, 654-byte signing input`, rows, `${alg} edgejwt (Wasm)`);
  console.log(`edgejwt vs crypto.subtle.verify: ${speedup(rows[0]!, rows[1]!).toFixed(2)}x faster (target: > 1x)`);
}
console.log(`results: ${writeResults('hmac-workerd', { env, results: samples })}`);
