// Issue 25's revocation cost per request, measured in Node where a microsecond can be
// timed (inside workerd the clock stands still during synchronous work, and on a busy
// machine the guard-overhead bench's µs differences drown in noise): the after-verify
// chain without the revocation stage, with it and nothing revoked, with 10,000 entries.
// Targets: ≤ 1 µs and ≤ 2 µs added. The cases are bundled with esbuild (src imports .js
// specifiers Node cannot run as .ts).
// Run: node bench/guard/revocation-check.ts   (BENCH_SMOKE=1 quick; BENCH_ROUNDS=n, 40 by default).
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compare, formatNs, printTable } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outfile = `${root}build/bench-node/revocation-check-cases.mjs`;
await build({
  entryPoints: [fileURLToPath(new URL('./revocation-check-cases.ts', import.meta.url))],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'es2022',
  outfile,
  logLevel: 'warning',
});
const { cases } = (await import(pathToFileURL(outfile).href)) as {
  cases: () => Promise<{ name: string; fn: () => unknown }[]>;
};

const env = environment([]);
printEnvironment(env);
const list = await cases();
const samples = compare(list);
printTable('revocation stage per request (Node, identity hooks of the runner)', samples, list[0]!.name);
const [without, empty, full] = samples as [(typeof samples)[0], (typeof samples)[0], (typeof samples)[0]];
console.log(
  '\n### Added by the revocation stage (difference of medians; targets ≤ 1 µs nothing revoked, ≤ 2 µs with ' +
    '10,000 entries)\n',
);
for (const s of [empty, full])
  console.log(
    `- ${s.name}: +${formatNs(s.medianNs - without.medianNs)} (median ${formatNs(s.medianNs)}, p25–p75 ` +
      `${formatNs(s.p25Ns)}–${formatNs(s.p75Ns)}; without: ${formatNs(without.medianNs)}, ` +
      `${formatNs(without.p25Ns)}–${formatNs(without.p75Ns)})`,
  );
if (process.env.BENCH_SMOKE !== '1') console.log(`results: ${writeResults('revocation-check', { env, samples })}`);
