// The library's construction and first verify in a fresh V8 (one Node process per
// sample), the isolate bench's four issuers (HS256 secret, EdDSA/RS256/ES256 inline
// key sets, bench/guard/isolate/tokens.ts): the HS256 issuer's verifier alone (first:
// it pays for the options code running for the first time), then one of the three
// key-set issuers, then all four (warm by then), then one verify of a token of each
// algorithm, timed with performance.now() inside the process (workerd's clock moves in
// 1 ms steps; this one does not). The short steps are the readable ones on a loaded
// machine (a long span is more often cut by the scheduler). The library is bundled as a Worker bundles
// it (WebCrypto backend, web platform, core bytes inline), for this checkout's src/ and,
// with BENCH_BASELINE_SRC, another one's: both sides in every round, in alternating
// order, reported as medians [p25–p75] of the per-round differences.
// Run: node bench/verify/construction-cold.ts   (BENCH_ROUNDS: rounds, 40 by default;
// BENCH_BASELINE_SRC=dir: the other side's src/)
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { latency, paired, withSpread } from '../lib/latency.ts';
import { BENCH_ALGS, benchKeys, guardConfig, mint } from '../guard/isolate/tokens.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = join(root, 'build/construction-cold');
mkdirSync(dir, { recursive: true });
const rounds = Number(process.env.BENCH_ROUNDS) > 0 ? Number(process.env.BENCH_ROUNDS) : 40;
const sides: Record<string, string> = {
  tip: join(root, 'src'),
  ...(process.env.BENCH_BASELINE_SRC ? { base: resolve(process.env.BENCH_BASELINE_SRC) } : {}),
};

/** The measured program for one src/: construction, then the first verify of TOKEN. */
async function bundleFor(name: string, src: string): Promise<string> {
  const entry = join(dir, `${name}-entry.ts`);
  writeFileSync(
    entry,
    `import { createVerifier } from ${JSON.stringify(join(src, 'index.ts'))};
import { issuerOptions } from ${JSON.stringify(join(root, 'bench/guard/isolate/issuers.ts'))};
const env = { GUARD_CONFIG: process.env.CONFIG, HS_KEY: process.env.HS_KEY };
const config = JSON.parse(env.GUARD_CONFIG);
const issuers = config.issuers.map((c) => issuerOptions(c, env));
const t0 = performance.now();
createVerifier({ issuers: issuers.slice(0, 1), cache: false });
const t1 = performance.now();
createVerifier({ issuers: issuers.slice(1), cache: false });
const t2 = performance.now();
const v = createVerifier({ issuers, cache: false });
const t3 = performance.now();
await v.verify(process.env.TOKEN);
const t4 = performance.now();
console.log(JSON.stringify({ first: t1 - t0, sets: t2 - t1, construct: t3 - t0, verify: t4 - t3 }));
`,
  );
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    minify: true,
    alias: {
      '#core-loader': join(src, 'wasm/load-bytes.ts'),
      '#crypto-backend': join(src, 'backend/webcrypto.ts'),
      '#platform': join(src, 'platform/web.ts'),
    },
    logLevel: 'warning',
  });
  return outfile;
}

const bundles = Object.fromEntries(
  await Promise.all(Object.entries(sides).map(async ([k, src]) => [k, await bundleFor(k, src)] as const)),
);
const keys = benchKeys();
const config = guardConfig(keys);
const tokens = Object.fromEntries(BENCH_ALGS.map((a) => [a, mint(keys, a, 1)[0]!]));
const loadStart = loadavg();
const samples: Record<string, Record<string, { sets: number[]; construct: number[]; verify: number[] }>> = {};
for (let r = 0; r < rounds; r++) {
  for (const alg of BENCH_ALGS) {
    const order = Object.keys(bundles);
    if (r % 2 === 1) order.reverse();
    for (const side of order) {
      const out = spawnSync(process.execPath, [bundles[side]!], {
        env: { ...process.env, CONFIG: config, HS_KEY: keys.hsKey, TOKEN: tokens[alg] },
        encoding: 'utf8',
      });
      if (out.status !== 0) throw new Error(`${side} ${alg}: ${out.stderr}`);
      const m = JSON.parse(out.stdout) as { first: number; sets: number; construct: number; verify: number };
      const cell = ((samples[alg] ??= {})[side] ??= { sets: [], construct: [], verify: [] });
      cell.sets.push(m.sets);
      cell.construct.push(m.construct);
      cell.verify.push(m.verify);
    }
  }
}
console.log(
  `load ${loadStart.map((x) => x.toFixed(2)).join(' ')} → ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}; ${rounds} rounds; node ${process.version}`,
);
console.log(
  '| first token | side | the 3 key-set issuers (after HS256), ms | all construction, ms | first verify, ms |',
);
console.log('|---|---|---:|---:|---:|');
for (const alg of BENCH_ALGS) {
  for (const side of Object.keys(bundles)) {
    const c = samples[alg]![side]!;
    console.log(
      `| ${alg} | ${side} | ${withSpread(latency(c.sets), 3)} | ${withSpread(latency(c.construct), 2)} | ` +
        `${withSpread(latency(c.verify), 2)} |`,
    );
  }
  if (samples[alg]!.base !== undefined) {
    const [t, b] = [samples[alg]!.tip!, samples[alg]!.base!];
    console.log(
      `| ${alg} | tip − base (per round) | ${withSpread(paired(t.sets, b.sets), 3)} | ` +
        `${withSpread(paired(t.construct, b.construct), 2)} | ${withSpread(paired(t.verify, b.verify), 2)} |`,
    );
  }
}
