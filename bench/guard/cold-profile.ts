// Where the guard's first request goes, inside workerd: a CPU profile (V8's
// sampling profiler over workerd's inspector) of the first request of a fresh
// process, attributed to bundle evaluation, Wasm instantiation, config parsing,
// the CACHE_KEY import, KV reads and unsealing, key import, the first verify and
// the rest. The bundle is loaded by the first request itself (a tiny entry
// module imports it), so its evaluation is inside the profile; a ping to the
// entry module first starts the isolate and the sampler, as a no-op Worker's
// first request would. Each sample: a fresh process, one algorithm, algorithms
// in turn. Profiles are written to build/bench-profile/ for DevTools.
// Run: node bench/guard/cold-profile.ts   (BENCH_PROFILES=n rounds, default 10; BENCH_SMOKE=1: 1;
// BENCH_SRC=dir: profile that src/ instead, written to build/cold-profile-other-src.json)
import { Miniflare } from 'miniflare';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { smoke } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults, packageVersion } from '../lib/env.ts';
import { bundleWorker } from '../lib/workerd-bundle.ts';
import { configGuardBundle } from '../lib/config-guard-entry.ts';
import { progress } from '../lib/progress.ts';
import { connect } from '../lib/devtools.ts';
import { attribute, PHASES, sourceRanges, type CpuProfile, type Phase } from '../lib/profile.ts';
import { BENCH_ALGS, benchKeys, guardConfig, mint, type BenchAlg } from './isolate/tokens.ts';

const rounds = (() => {
  const v = Number(process.env.BENCH_PROFILES);
  return Number.isInteger(v) && v > 0 ? v : smoke ? 1 : 10;
})();
const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = join(root, 'build/bench-profile/guard');
mkdirSync(dir, { recursive: true });
const quiet = {
  handleRuntimeStdio: (out: NodeJS.ReadableStream, err: NodeJS.ReadableStream) => {
    out.resume();
    err.resume();
  },
};
const CACHE_KEY = Buffer.alloc(32, 9).toString('base64url'); // bench only

const env = environment(['miniflare']);
env.workerd = packageVersion('workerd');
printEnvironment(env);

// Not minified, names kept: frames map to their source file through esbuild's `// src/…` markers.
// BENCH_SRC: another checkout's src/ (e.g. `git archive <commit> src | tar -x -C build/before`) for a before/after.
const src = process.env.BENCH_SRC ?? join(root, 'src');
const keys = benchKeys();
// BENCH_COMPILED=1: the guard's compiled entry (edgejwt build-guard) for the same GUARD_CONFIG instead of
// src/worker/index.ts.
const compiled = process.env.BENCH_COMPILED === '1';
if (compiled) await configGuardBundle(dir, guardConfig(keys), src, { minify: false, keepNames: true });
else await bundleWorker(join(src, 'worker/index.ts'), join(dir, 'worker.js'), { minify: false, keepNames: true }, src);
writeFileSync(
  join(dir, 'entry.js'),
  `let m;\nexport default { async fetch(r, env, ctx) {\n  if (new URL(r.url).pathname === '/__ping') return ` +
    `new Response('ok');\n  m ??= await import('./worker.js');\n  return m.default.fetch(r, env, ctx);\n} };\n`,
);
const files = sourceRanges(readFileSync(join(dir, 'worker.js'), 'utf8'));
const tokens = Object.fromEntries(BENCH_ALGS.map((a) => [a, mint(keys, a, rounds)])) as Record<BenchAlg, string[]>;

/** Two configurations: the isolate bench's (no CACHE_KEY: KV caches off) and one with KV on (JWKS from KV). */
const setups = ['KV off', 'KV on'] as const;
const byPhase: Record<string, Record<string, number[]>> = {};
const wall: Record<string, number[]> = {};
const step = progress('cold-profile', rounds);
let port = 9300 + Math.floor(Math.random() * 400);
for (let r = 0; r < rounds; r++) {
  step(`round ${r + 1}: ${BENCH_ALGS.length} algorithms × ${setups.length} setups`);
  for (const alg of BENCH_ALGS) {
    for (const setup of setups) {
      const cell = `${alg}, ${setup}`;
      const { profile, ms } = await profileFirstRequest(alg, setup === 'KV on', tokens[alg][r]!, port++);
      if (r === 0)
        writeFileSync(
          join(root, 'build/bench-profile', `${alg}-${setup.replace(' ', '-')}.cpuprofile`),
          JSON.stringify(profile),
        );
      const t = attribute(profile, files);
      for (const p of PHASES) ((byPhase[cell] ??= {})[p] ??= []).push(t[p] / 1000);
      (wall[cell] ??= []).push(ms);
    }
  }
}
step.done();

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const summary = Object.fromEntries(
  Object.entries(byPhase).map(([cell, phases]) => [
    cell,
    {
      wallMs: median(wall[cell]!),
      phasesMs: Object.fromEntries(PHASES.map((p) => [p, median(phases[p]!)])) as Record<Phase, number>,
    },
  ]),
);
const table = [
  `### First request of a fresh workerd process${compiled ? ', compiled entry (edgejwt build-guard)' : ''}, ` +
    `CPU by phase (ms, median of ${rounds} profiles per row)`,
  '',
  `| case | client wall | ${PHASES.join(' | ')} |`,
  `|---|---:|${PHASES.map(() => '---:').join('|')}|`,
  ...Object.entries(summary).map(
    ([cell, s]) => `| ${cell} | ${s.wallMs.toFixed(1)} | ${PHASES.map((p) => s.phasesMs[p].toFixed(2)).join(' | ')} |`,
  ),
].join('\n');
console.log('\n' + table + '\n');
if (process.env.BENCH_SRC === undefined && !compiled)
  console.log(
    `wrote ${writeResults('cold-profile', { env, rounds, phases: PHASES, summary, samplesMs: byPhase, wallMs: wall })}`,
  );
else {
  const out = join(root, compiled ? 'build/cold-profile-compiled.json' : 'build/cold-profile-other-src.json');
  writeFileSync(
    out,
    JSON.stringify({ env, src, rounds, phases: PHASES, summary, samplesMs: byPhase, wallMs: wall }, null, 2) + '\n',
  );
  console.log(`wrote ${out}`);
}

async function profileFirstRequest(
  alg: BenchAlg,
  kv: boolean,
  token: string,
  inspectorPort: number,
): Promise<{ profile: CpuProfile; ms: number }> {
  const mf = new Miniflare({
    ...quiet,
    inspectorPort,
    workers: [
      {
        name: 'guard',
        modules: true,
        scriptPath: join(dir, 'entry.js'),
        modulesRoot: dir,
        modulesRules: [
          { type: 'ESModule', include: ['**/*.js'] },
          { type: 'CompiledWasm', include: ['**/*.wasm'] },
        ],
        compatibilityDate: '2026-04-01',
        bindings: { GUARD_CONFIG: guardConfig(keys), HS_KEY: keys.hsKey, ...(kv ? { CACHE_KEY } : {}) },
        kvNamespaces: { VERIFY_CACHE: 'verify', JWKS_CACHE: 'jwks' },
      },
    ],
  });
  try {
    await mf.ready;
    const ping = await mf.dispatchFetch('http://guard.bench.invalid/__ping');
    await ping.text();
    const inspector = await connect(`ws://127.0.0.1:${inspectorPort}/core:user:guard`);
    await inspector.send('Profiler.enable');
    await inspector.send('Profiler.setSamplingInterval', { interval: 50 });
    await inspector.send('Profiler.start');
    const t0 = performance.now();
    const res = await mf.dispatchFetch('http://guard.bench.invalid/api/orders', {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`guard ${alg}: ${res.status} ${body.slice(0, 200)}`);
    const { profile } = (await inspector.send('Profiler.stop')) as { profile: CpuProfile };
    inspector.close();
    return { profile, ms };
  } finally {
    await mf.dispose();
  }
}
