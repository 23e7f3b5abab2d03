// The isolate bench: the route guard (src/worker/) against a no-op Worker, the
// library alone behind the same issuers (isolate/edgejwt-min.ts) and a guard
// built on jose with the same configuration (isolate/jose-guard.ts), through Miniflare's workerd,
// latencies as a client on loopback sees them:
//  1. first request on a fresh workerd process (process start timed apart);
//  2. first request on a fresh isolate in a running process (Worker Loader, new id);
//  3. warm requests (distinct valid tokens), p50/p95/p99 per algorithm;
//  4. the KV verify cache (L2): a miss (verify + write) vs a hit from another isolate;
//  5. the JWKS on a fresh isolate: from the network (a loopback server) vs from KV.
// Run: node bench/guard/isolate.ts   (BENCH_SMOKE=1: a few requests of each kind;
// BENCH_ISOLATES / BENCH_PROCESSES: rounds of the cold cells, 30 each by default; BENCH_COLD_ALGS:
// their algorithms; an A/B of two trees in fresh processes: BENCH_ONLY=process BENCH_BASELINE_SRC=dir
// BENCH_COMPILED_BASE=1 reads compiled − compiledbase and guard − base per round)
import { Miniflare, type WorkerOptions } from 'miniflare';
import { createServer } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { smoke } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults, packageVersion } from '../lib/env.ts';
import { latency, latencyTable, type Latency } from '../lib/latency.ts';
import { coldSummary, coldTable, type Kind, type Rounds } from '../lib/cold.ts';
import { progress } from '../lib/progress.ts';
import { baselineCore, bundle, configGuard, CORE_WASM, type Bundle } from './isolate/build.ts';
import { ONE_ISSUER_HS256 } from '../lib/config-guard-entry.ts';
import { verifierBundleLine, verifierBundles } from '../lib/verifier-bundles.ts';
import { BENCH_ALGS, benchKeys, guardConfig, mint, type BenchAlg, type ConfigOptions } from './isolate/tokens.ts';
import { ownBytes } from './isolate/own-bytes.ts';

/** A positive integer from the environment, or the default. */
const count = (name: string, dflt: number): number => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : dflt;
};
/** BENCH_ONLY=process,isolate,warm,l2,jwks: run only these sections (all by default). */
const only = new Set((process.env.BENCH_ONLY ?? 'process,isolate,warm,l2,jwks').split(',').map((x) => x.trim()));
const N = {
  processes: count('BENCH_PROCESSES', smoke ? 1 : 30),
  isolates: count('BENCH_ISOLATES', smoke ? 2 : 30),
  warm: smoke ? 20 : 1000,
  l2: smoke ? 10 : 200,
  jwksIsolates: smoke ? 1 : 6,
};
const COMPAT = '2026-04-01';
const CACHE_KEY = Buffer.alloc(32, 9).toString('base64url'); // bench only
// BENCH_BASELINE_SRC=dir: also a guard built from another checkout's src/ ('base'), sampled in
// the same rounds, so a change is read as a per-round delta under the same machine noise.
const baselineSrc = process.env.BENCH_BASELINE_SRC;
// The guard given only its config's stages ('compiled': createGuard(config, { stages: [keySets] })) is sampled too
// unless BENCH_COMPILED=0.
const withCompiled = process.env.BENCH_COMPILED !== '0';
// With a baseline, its library-only Worker too ('libbase'), each baseline kind with the baseline's own core.
// BENCH_COMPILED_BASE=1 (with a baseline): the baseline's compiled entry too ('compiledbase', on this checkout's core).
const withCompiledBase = withCompiled && baselineSrc !== undefined && process.env.BENCH_COMPILED_BASE === '1';
const KINDS: Kind[] = [
  'noop',
  'lib',
  'guard',
  'jose',
  ...(baselineSrc === undefined ? [] : (['base', 'libbase'] as const)),
  ...(withCompiled ? (['compiled'] as const) : []),
  ...(withCompiledBase ? (['compiledbase'] as const) : []),
];
// The Workers' own log lines (the guard's notices) would break the progress display.
const quiet = {
  handleRuntimeStdio: (out: NodeJS.ReadableStream, err: NodeJS.ReadableStream) => {
    out.resume();
    err.resume();
  },
};

const env = environment(['miniflare', 'jose']);
env.workerd = packageVersion('workerd');
printEnvironment(env);
const keys = benchKeys();
const bundles = {
  noop: await bundle('noop'),
  lib: await bundle('lib'),
  guard: await bundle('guard'),
  jose: await bundle('jose'),
} as Record<Kind, Bundle>;
if (baselineSrc !== undefined) {
  bundles.base = await bundle('base', baselineSrc);
  bundles.libbase = await bundle('libbase', baselineSrc);
}
if (withCompiled) {
  // 'compiled': the guard given only the stages this config uses (inline key sets), built by the public createGuard.
  bundles.compiled = await configGuard('compiled', guardConfig(keys), undefined, ['keySets']);
  if (bundles.compiled.wasmImport !== bundles.guard.wasmImport)
    throw new Error('the compiled entry imports the core from another path than the guard');
  if (withCompiledBase) bundles.compiledbase = await configGuard('compiledbase', guardConfig(keys), baselineSrc);
}
// Issue 34's size target: a one-issuer HS256 guard given only its stages (none beyond the core ones), as size-limit
// checks it (.size-limit.mjs); esbuild minified, as the bench bundles.
const oneIssuer = await configGuard('one-issuer-hs256', ONE_ISSUER_HS256, undefined, []);
const kib = (n: number) => (n / 1024).toFixed(1);
console.log(
  `One-issuer HS256 guard given only its stages (esbuild minified; target ≤ 49.8 KiB): ${kib(oneIssuer.code.length)}` +
    ` KiB; the default entry: ${kib(bundles.guard.code.length)} KiB`,
);
const sizes = Object.fromEntries(Object.entries(bundles).map(([k, b]) => [k, b.code.length]));
const results: Record<string, unknown> = {
  env,
  n: N,
  bundleBytes: sizes,
  oneIssuerHs256CompiledBytes: oneIssuer.code.length,
  ...(baselineSrc === undefined ? {} : { baselineSrc }),
};
const tables: string[] = [];

// The fresh-process cell gives every Worker core bytes of its own (isolate/own-bytes.ts), as the
// Loader cell does: with shared bytes the first edgejwt Worker of a process compiled the core's
// functions for every later one. BENCH_SHARED_WASM=1: the same bytes everywhere, in both cells.
const sharedWasm = process.env.BENCH_SHARED_WASM === '1';

function worker(
  name: string,
  kind: Kind,
  config: ConfigOptions = {},
  kv: { verify?: string; jwks?: string } = {},
  own: { wasm?: boolean } = {},
): WorkerOptions {
  const b = bundles[kind];
  const wasmFile = b.wasmImport === undefined ? undefined : join(b.dir, b.wasmImport);
  const code =
    own.wasm === true && !sharedWasm && wasmFile !== undefined
      ? {
          modules: [
            { type: 'ESModule' as const, path: b.file, contents: b.code },
            { type: 'CompiledWasm' as const, path: wasmFile, contents: ownBytes(readFileSync(wasmFile), name) },
          ],
        }
      : {
          modules: true,
          scriptPath: b.file,
          modulesRules: [{ type: 'CompiledWasm' as const, include: ['**/*.wasm'] }],
        };
  return {
    name,
    ...code,
    modulesRoot: b.dir,
    compatibilityDate: COMPAT,
    routes: [`${name}.bench.invalid/*`],
    bindings: {
      GUARD_CONFIG: guardConfig(keys, config),
      HS_KEY: keys.hsKey,
      ASSERTION_KEY: keys.assertionKey,
      ...(kv.verify || kv.jwks ? { CACHE_KEY } : {}),
    },
    kvNamespaces: { VERIFY_CACHE: kv.verify ?? `${name}-verify`, JWKS_CACHE: kv.jwks ?? `${name}-jwks` },
  };
}

interface Answer {
  ms: number;
  tier: string | undefined;
}

/** One request as a client sees it; anything but 200 stops the bench (a rejected token is not a speed). */
async function call(mf: Miniflare, name: string, token: string, headers: Record<string, string> = {}): Promise<Answer> {
  const t0 = performance.now();
  const res = await mf.dispatchFetch(`http://${name}.bench.invalid/api/orders`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  const body = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${name}: status ${res.status}: ${body.slice(0, 300)}`);
  return { ms, tier: /desc="(\w+)"/.exec(res.headers.get('server-timing') ?? '')?.[1] };
}

// Warm requests use [0, warm), the KV bench [warm, warm + l2); warm-ups take from the end.
const tokens = Object.fromEntries(
  BENCH_ALGS.map((a) => [a, mint(keys, a, Math.max(N.warm + N.l2 + 200, 2 * Math.max(N.isolates, N.processes) + 2))]),
) as Record<BenchAlg, string[]>;
const step = progress('isolate', 5);

// Cold cells: per algorithm and kind, the first (and second) request. Samples are
// taken round by round, every kind and algorithm once per round in a rotated
// order, so drift on a shared machine hits all kinds alike; the deltas are
// per-round differences (guard − no-op in the same round), read by their median.
const rotate = <T>(xs: readonly T[], by: number): T[] => xs.map((_, j) => xs[(j + by) % xs.length]!);
// Rotated, and reversed every other round: a plain rotation keeps each kind right after the
// same other kind in every round (the jose guard always after the guard), and a kind run
// right after a similar one reads differently (bench/guard/isolate-ab.ts found 1.7–3.4 ms).
const roundOrder = <T>(xs: readonly T[], round: number): T[] =>
  round % 2 === 0 ? rotate(xs, round) : rotate(xs, round).reverse();
// BENCH_COLD_ALGS=HS256,RS256: the cold cells (process, isolate) for these algorithms only (a modest A/B); all by
// default.
const COLD_ALGS = (process.env.BENCH_COLD_ALGS?.split(',').map((a) => a.trim()) ?? [...BENCH_ALGS]) as BenchAlg[];
if (COLD_ALGS.length === 0 || COLD_ALGS.some((a) => !BENCH_ALGS.includes(a)))
  throw new Error(`BENCH_COLD_ALGS: some of ${BENCH_ALGS.join(',')}`);
const emptyRounds = (): Rounds =>
  Object.fromEntries(
    COLD_ALGS.map((a) => [
      a,
      Object.fromEntries(KINDS.map((k) => [k, { first: [] as number[], second: [] as number[] }])),
    ]),
  ) as unknown as Rounds;

// 1. Fresh workerd process per round, one Worker per kind and algorithm in it (each
// its own isolate, never requested before), plus a no-op that takes the process's
// own first request so no cell pays for Miniflare's entry Worker warming up.
if (only.has('process')) {
  step(`fresh workerd processes (${N.processes}, ${KINDS.length * COLD_ALGS.length} Workers each)`);
  const processStart: number[] = [];
  const processLoad = loadavg();
  const procRounds = emptyRounds();
  for (let p = 0; p < N.processes; p++) {
    const t0 = performance.now();
    const ws = [
      worker('warm', 'noop'),
      ...COLD_ALGS.flatMap((alg) =>
        KINDS.map((kind) => worker(`${kind}-${alg.toLowerCase()}`, kind, {}, {}, { wasm: true })),
      ),
    ];
    const mf = new Miniflare({ ...quiet, workers: ws });
    await mf.ready;
    processStart.push(performance.now() - t0);
    await call(mf, 'warm', tokens.HS256[0]!);
    const order = rotate(COLD_ALGS, p).flatMap((alg) => roundOrder(KINDS, p).map((kind) => [alg, kind] as const));
    for (const which of ['first', 'second'] as const) {
      for (const [alg, kind] of order) {
        const tok = tokens[alg][2 * p + (which === 'first' ? 0 : 1)]!;
        procRounds[alg]![kind][which].push((await call(mf, `${kind}-${alg.toLowerCase()}`, tok)).ms);
      }
    }
    await mf.dispose();
  }
  const processCold = coldSummary(procRounds, COLD_ALGS, KINDS);
  const processLoadText = `load average ${processLoad.map((x) => x.toFixed(1)).join(' ')} at the start, ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} at the end (1/5/15 min, ${cpus().length} CPUs)`;
  results.processStart = latency(processStart);
  results.processCold = processCold;
  results.processLoad = processLoadText;
  tables.push(
    latencyTable(`Fresh workerd process with ${KINDS.length * COLD_ALGS.length} Workers: start`, [
      ['process start', latency(processStart)],
    ]),
  );
  tables.push(
    coldTable(
      `Fresh workerd process: first request of each Worker (${N.processes} processes; ${processLoadText})`,
      processCold,
      '###',
      1,
    ),
  );
}

// 2. Fresh isolate in a running process: Worker Loader with a new id per sample.
if (only.has('isolate')) {
  step(`fresh isolates (Worker Loader, ${N.isolates} rounds × ${KINDS.length * COLD_ALGS.length})`);
  const isoRounds = emptyRounds();
  const loadBefore = loadavg();
  {
    const host = await bundleHost();
    const mf = new Miniflare({
      ...quiet,
      modules: true,
      scriptPath: host,
      compatibilityDate: COMPAT,
      workerLoaders: { LOADER: {} },
      bindings: {
        SOURCES: JSON.stringify({
          ...Object.fromEntries(KINDS.map((k) => [k, bundles[k].code])),
          wasmPath: bundles.guard.wasmImport!.replace(/^\.\//, ''),
        }),
        GUARD_CONFIG: guardConfig(keys),
        HS_KEY: keys.hsKey,
        // BENCH_SHARED_WASM=1: every Loader isolate gets the same core bytes (see isolate/loader-host.ts).
        SHARED_WASM: process.env.BENCH_SHARED_WASM === '1' ? '1' : '0',
      },
      dataBlobBindings: {
        CORE_WASM,
        ...(baselineSrc === undefined ? {} : { BASE_CORE_WASM: baselineCore(baselineSrc) }),
      },
    });
    const viaLoader = async (kind: Kind, id: string, token: string): Promise<number> => {
      const t0 = performance.now();
      const res = await mf.dispatchFetch('http://host.bench.invalid/api/orders', {
        headers: { authorization: `Bearer ${token}`, 'x-bench-kind': kind, 'x-bench-isolate': id },
      });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`loader ${kind}: ${res.status} ${body.slice(0, 300)}`);
      return performance.now() - t0;
    };
    // The host itself warms up first, so its own start is not counted.
    await viaLoader('noop', 'warm-host', tokens.HS256[0]!);
    for (let i = 0; i < N.isolates; i++) {
      for (const alg of rotate(COLD_ALGS, i)) {
        for (const kind of roundOrder(KINDS, i)) {
          const id = `${kind}-${alg}-${i}`;
          const cell = isoRounds[alg]![kind];
          cell.first.push(await viaLoader(kind, id, tokens[alg][2 * i]!));
          cell.second.push(await viaLoader(kind, id, tokens[alg][2 * i + 1]!));
        }
      }
    }
    await mf.dispose();
  }
  const isolateCold = coldSummary(isoRounds, COLD_ALGS, KINDS);
  results.isolateCold = isolateCold;
  const load = `load average ${loadBefore.map((x) => x.toFixed(1)).join(' ')} at the start, ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} at the end (1/5/15 min, ${cpus().length} CPUs)`;
  results.isolateLoad = load;
  tables.push(
    coldTable(`Fresh isolate in a running workerd (Worker Loader, new id; ${N.isolates} rounds; ${load})`, isolateCold),
  );
}

// 3. Warm: distinct valid tokens (every guard request verifies), interleaved across Workers.
if (only.has('warm')) {
  step(`warm requests (${N.warm} per Worker per algorithm)`);
  const warm: Record<string, Record<string, Latency>> = {};
  {
    // guard-assertion: the guard with originAssertion on (an EdDSA signature per forwarded request).
    const names = ['noop', 'lib', 'guard', 'guard-assertion', 'guard-l1-off', 'jose'] as const;
    const mf = new Miniflare({
      ...quiet,
      workers: [
        worker('noop', 'noop'),
        worker('lib', 'lib'),
        worker('guard', 'guard'),
        worker('guard-assertion', 'guard', { assertion: true }),
        worker('guard-l1-off', 'guard', { l1Max: 0 }),
        worker('jose', 'jose'),
        worker('guard-repeat', 'guard'),
      ],
    });
    await mf.ready;
    for (const alg of BENCH_ALGS) {
      const t = tokens[alg];
      for (let i = 0; i < Math.min(50, N.warm); i++) for (const n of names) await call(mf, n, t[t.length - 1 - i]!);
      await call(mf, 'guard-repeat', t[0]!);
      const ms: Record<string, number[]> = {};
      for (let i = 0; i < N.warm; i++) {
        for (const n of names) (ms[n] ??= []).push((await call(mf, n, t[i]!)).ms);
        (ms['guard, same token (L1 hit)'] ??= []).push((await call(mf, 'guard-repeat', t[0]!)).ms);
      }
      warm[alg] = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, latency(v)]));
      tables.push(
        latencyTable(`Warm requests, ${alg} (distinct tokens; the L1-hit row repeats one)`, Object.entries(warm[alg]!)),
      );
    }
    await mf.dispose();
  }
  results.warm = warm;
}

// 4. KV verify cache: isolate A misses (verify, then writes), isolate B hits what A wrote.
if (only.has('l2')) {
  step(`KV verify cache (${N.l2} tokens per algorithm)`);
  const l2: Record<string, Record<string, Latency> & { tiers: Record<string, number> }> = {};
  {
    const mf = new Miniflare({
      ...quiet,
      workers: [
        // Every verify written (A's miss must land for B's hit); the default admission waits for a second sighting.
        worker('l2-a', 'guard', { verifyCache: 'all', verifyAdmission: 'always' }, { verify: 'shared-verify' }),
        worker('l2-b', 'guard', { verifyCache: 'all', verifyAdmission: 'always' }, { verify: 'shared-verify' }),
        worker('l2-off', 'guard', { verifyCache: false }, { verify: 'off-verify' }),
      ],
    });
    await mf.ready;
    for (const alg of BENCH_ALGS) {
      const t = tokens[alg].slice(N.warm, N.warm + N.l2);
      const burn = tokens[alg].slice(-70, -60);
      for (const tok of burn) for (const n of ['l2-a', 'l2-b', 'l2-off']) await call(mf, n, tok);
      // Misses first (each writes to KV through waitUntil), then hits and the
      // verify-only baseline interleaved: neither writes, so no background KV
      // write lands on the baseline's requests.
      const cold: number[] = [];
      const off: number[] = [];
      const tiers: Record<string, number> = {};
      for (const tok of t) {
        const a = await call(mf, 'l2-a', tok);
        cold.push(a.ms);
        tiers[`miss:${a.tier}`] = (tiers[`miss:${a.tier}`] ?? 0) + 1;
      }
      await new Promise((r) => setTimeout(r, 300)); // let A's waitUntil writes land
      const hit: number[] = [];
      for (const tok of t) {
        const b = await call(mf, 'l2-b', tok);
        hit.push(b.ms);
        tiers[`hit:${b.tier}`] = (tiers[`hit:${b.tier}`] ?? 0) + 1;
        off.push((await call(mf, 'l2-off', tok)).ms);
      }
      l2[alg] = {
        'L2 off (verify only)': latency(off),
        'L2 cold (KV miss, verify, write)': latency(cold),
        'L2 warm (KV hit, other isolate)': latency(hit),
        tiers,
      } as never;
      tables.push(
        latencyTable(
          `KV verify cache, ${alg} (tiers answered: ${JSON.stringify(tiers)})`,
          Object.entries(l2[alg]!).filter(([k]) => k !== 'tiers') as [string, Latency][],
        ),
      );
    }
    await mf.dispose();
  }
  results.l2 = l2;
}

// 5. JWKS on a fresh isolate: fetched from a loopback server vs read from KV.
if (only.has('jwks')) {
  step('JWKS from the network vs from KV');
  let served = 0;
  const server = createServer((req, res) => {
    served++;
    const alg = new URL(req.url ?? '/', 'http://x').searchParams.get('alg') as BenchAlg;
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
    res.end(JSON.stringify({ keys: [keys.jwks[alg]] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  const jwksAlgs = ['EdDSA', 'RS256', 'ES256'] as const;
  const workers = [worker('jwks-seed', 'guard', { jwksUrl: url }, { jwks: 'shared-jwks' })];
  for (let i = 0; i < N.jwksIsolates; i++) {
    workers.push(worker(`jwks-net-${i}`, 'guard', { jwksUrl: url }, { jwks: `own-jwks-${i}` }));
    workers.push(worker(`jwks-kv-${i}`, 'guard', { jwksUrl: url }, { jwks: 'shared-jwks' }));
  }
  const mf = new Miniflare({ ...quiet, workers });
  await mf.ready;
  for (const alg of jwksAlgs) await call(mf, 'jwks-seed', tokens[alg][0]!);
  await new Promise((r) => setTimeout(r, 300)); // the seed's KV writes
  const servedBefore = served;
  const m: Record<string, number[]> = {};
  let k = 0;
  for (let i = 0; i < N.jwksIsolates; i++) {
    const alg = jwksAlgs[i % jwksAlgs.length]!;
    for (const mode of ['net', 'kv'] as const) {
      (m[`${mode === 'net' ? 'network' : 'KV'}: first request`] ??= []).push(
        (await call(mf, `jwks-${mode}-${i}`, tokens[alg][k++]!)).ms,
      );
      (m[`${mode === 'net' ? 'network' : 'KV'}: second request`] ??= []).push(
        (await call(mf, `jwks-${mode}-${i}`, tokens[alg][k++]!)).ms,
      );
    }
  }
  const fetches = served - servedBefore;
  await mf.dispose();
  server.close();
  const jwks = Object.fromEntries(Object.entries(m).map(([a, v]) => [a, latency(v)]));
  results.jwks = { ...jwks, networkFetches: fetches, isolatesPerMode: N.jwksIsolates };
  tables.push(
    latencyTable(
      `JWKS on a fresh isolate (EdDSA/RS256/ES256 in turn): network (loopback) vs KV; key-set fetches during ` +
        `the run: ${fetches} (expected ${N.jwksIsolates}, one per network isolate)`,
      Object.entries(jwks),
    ),
  );
}
step.done();

console.log('\n' + tables.join('\n\n') + '\n');
console.log(
  `Bundles (minified JS): ${Object.entries(sizes)
    .map(([k, v]) => `${k} ${(v / 1024).toFixed(1)} KiB`)
    .join(', ')} (+ the guard's Wasm core)`,
);
// What createVerifier alone costs a user's Worker (bench/verify/bundle-size.ts has the rooms).
const verifierSizes = await verifierBundles();
results.verifierBundles = verifierSizes;
console.log(verifierBundleLine(verifierSizes));
if (only.size === 5) console.log(`wrote ${writeResults('isolate', results)}`);
else {
  // A partial run (BENCH_ONLY) never replaces the published figures.
  const out = new URL(`../../build/isolate-${[...only].join('-')}.json`, import.meta.url).pathname;
  writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
  console.log(`wrote ${out}`);
}

async function bundleHost(): Promise<string> {
  const { build } = await import('esbuild');
  const out = new URL('../../build/bench-isolate/host/worker.js', import.meta.url).pathname;
  await build({
    entryPoints: [new URL('./isolate/loader-host.ts', import.meta.url).pathname],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'warning',
  });
  return out;
}
