// Stage breakdown for every algorithm variant in Node, with the library's own
// internals on the same token (bench/lib/stages.ts): split, header, the token's
// decode inside the Wasm core, key lookup, the signature check, JSON.parse, claims,
// and the whole verifySync for reference. (bench/verify/verify.ts does HS256, EdDSA and RS256 the
// same way; this covers the rest of the table.)
// Run: npm run build && node bench/verify/stages.ts   (BENCH_SMOKE=1: seconds)
import { createVerifier } from '../../dist/index.js';
import { stageCases } from '../lib/stages.ts';
import { compare, formatTable, smoke, type Sample } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { material, benchVariants } from '../lib/material.ts';
import { progress } from '../lib/progress.ts';

const env = environment();
printEnvironment(env);
const results: Record<string, Sample[]> = {};
const tables: string[] = [];
const variants = benchVariants(smoke);
const step = progress('stages', variants.length);
for (const v of variants) {
  step(v.label);
  const m = await material(v);
  const key = (m.secret ?? m.jwk) as never;
  const ours = createVerifier({ algorithms: [v.alg], key, cache: false });
  await ours.verify(m.token);
  const rows = compare(stageCases(m.token, v.alg, key, (t) => ours.verifySync(t)));
  results[v.label] = rows;
  tables.push(formatTable(`${v.label}: stage breakdown (Node)`, rows, 'full verifySync'));
}
step.done();
console.log('\n' + tables.join('\n\n') + '\n');
console.log('Stages are timed alone, so they need not add up to the full verify exactly (call overhead, caches warm).');
console.log(`wrote ${writeResults('stages-node', { env, variants: results })}`);
