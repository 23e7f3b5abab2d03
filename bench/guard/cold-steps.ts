// Where the library's first request goes in a fresh isolate (Worker Loader, a
// new id per sample): Workers that read the clock around each step of their
// first request and return the marks in a header, averaged over many fresh
// isolates (workerd's clock moves in 1 ms steps inside a request, so a single
// isolate's marks are coarse; the mean over n isolates is not):
//  - the library alone (isolate/edgejwt-steps.ts): bundle evaluation, the
//    verifier's construction (split: the core's pieces, then each issuer alone,
//    in both orders), the first verify, a second verify;
//  - the core's .wasm driven by hand: instantiate, the first SHA-256, SHA-512,
//    HMAC-SHA-256 key import + verify, Ed25519 key import, Ed25519 verify, each
//    again, then the runtime's own firsts (TextEncoder/Decoder, JSON.parse,
//    crypto.subtle importKey/verify).
// The client times every first request, next to a no-op Worker, the jose guard
// of the isolate bench, and the library's and jose's bundles loaded alone (a
// main module that imports the bundle and answers at once); every kind once per
// round in a rotated order, deltas as medians of per-round differences.
// Every isolate gets core bytes of its own; 'lib HS256, shared bytes' does not
// (see SHARED below).
// Run: node bench/guard/cold-steps.ts   (BENCH_ISOLATES: rounds, 40 by default;
// BENCH_KINDS='core|lib HS256|…': only these kinds; BENCH_CORE=path.wasm: the
// library and the core Worker also with another build of the core, in the second
// half of each round, for a same-run A/B; BENCH_EAGER_HINT=a|b: the same, with
// V8's compile hint on one side instead of another core; BENCH_BASELINE_SRC=dir: the
// same, with the library built from another checkout's src/ on side b, this core on both)
import { Miniflare } from 'miniflare';
import { generateKeyPairSync, sign, createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { smoke } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults, packageVersion } from '../lib/env.ts';
import { latency, paired, withSpread } from '../lib/latency.ts';
import { CORE_WASM, bundle } from './isolate/build.ts';
import { bundleWorker } from '../lib/workerd-bundle.ts';
import { benchKeys, guardConfig, mint, BENCH_ALGS } from './isolate/tokens.ts';

const n = Number(process.env.BENCH_ISOLATES) > 0 ? Number(process.env.BENCH_ISOLATES) : smoke ? 3 : 40;
// BENCH_EAGER_HINT=a|b: half a or b of the A/B runs the library bundle with V8's
// explicit compile hint (a first line `//# allFunctionsCalledOnLoad`: every function
// compiled with the script instead of at its first call), the same core on both sides.
const eagerHint = process.env.BENCH_EAGER_HINT;
const baselineSrc = process.env.BENCH_BASELINE_SRC;
const cores: Record<string, string> = {
  core: CORE_WASM,
  ...(process.env.BENCH_CORE
    ? { 'other core': process.env.BENCH_CORE }
    : eagerHint || baselineSrc
      ? { 'other core': CORE_WASM }
      : {}),
};
const env = environment(['miniflare']);
env.workerd = packageVersion('workerd');
printEnvironment(env);

// An Ed25519 signature and an HMAC tag that verify (so the whole path runs).
const ed = generateKeyPairSync('ed25519');
const edPub = (ed.publicKey.export({ format: 'jwk' }) as { x: string }).x;
const msg = Buffer.alloc(200, 0x61);
const edSig = sign(null, msg, ed.privateKey).toString('base64url');
const hsKey = Buffer.alloc(32, 7);
const hsTag = createHmac('sha256', hsKey).update(msg).digest('base64url');
const es = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const esSig = sign('sha256', msg, { key: es.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');

const CORE_STEPS = [
  'instantiate',
  'SHA-256',
  'SHA-512',
  'HMAC import',
  'HMAC verify',
  'Ed25519 import',
  'Ed25519 verify',
];
// Then, once, the runtime's own firsts that a verify also meets.
const RUNTIME_STEPS = [
  'new TextEncoder + encodeInto',
  'new TextDecoder (fatal) + decode',
  'JSON.parse of a payload',
  'crypto.subtle.importKey (P-256 JWK)',
  'crypto.subtle.verify (ES256)',
];
const coreWorker =
  `import core from 'core.wasm';
const T0 = Date.now();
const b = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
const MSG = new Uint8Array(${msg.length}).fill(0x61), KEY = b('${hsKey.toString('base64url')}'), ` +
  `TAG = b('${hsTag}'), PUB = b('${edPub}'), SIG = b('${edSig}');
function steps(x, t) {
  const mem = () => new Uint8Array(x.memory.buffer);
  // Region addresses: immutable globals in this core, functions in cores before it (BENCH_CORE).
  const at = (g) => (typeof g === 'function' ? g() : g.value);
  const input = at(x.input_ptr), sig = at(x.sig_ptr);
  x = { ...x, input_ptr: () => input, sig_ptr: () => sig };
  const ok = [];
  mem().set(MSG, x.input_ptr()); ok.push(x.hash(1, MSG.length) === 32); t.push(Date.now() - T0);
  mem().set(MSG, x.input_ptr()); ok.push(x.hash(3, MSG.length) === 64); t.push(Date.now() - T0);
  mem().set(KEY, x.input_ptr()); ok.push(x.hmac_import(0, 1, 32) === 1); t.push(Date.now() - T0);
  mem().set(MSG, x.input_ptr()); mem().set(TAG, x.sig_ptr()); ` +
  `ok.push(x.hmac_verify(0, MSG.length, 32) === 1); t.push(Date.now() - T0);
  mem().set(PUB, x.input_ptr()); ok.push(x.ed25519_import(0) === 1); t.push(Date.now() - T0);
  mem().set(MSG, x.input_ptr()); mem().set(SIG, x.sig_ptr()); ` +
  `ok.push(x.ed25519_verify(0, MSG.length) === 1); t.push(Date.now() - T0);
  return ok.every(Boolean);
}
const ES_JWK = ${JSON.stringify({ ...(es.publicKey.export({ format: 'jwk' }) as object) })};
const ES_SIG = b('${esSig}');
export default { async fetch() {
  const t = [Date.now() - T0];
  const x = new WebAssembly.Instance(core, {}).exports;
  t.push(Date.now() - T0);
  const first = steps(x, t);
  const again = steps(new WebAssembly.Instance(core, {}).exports, t);
  const u8 = new Uint8Array(64); new TextEncoder().encodeInto('{"sub":"user-1","aud":"api"}', u8); ` +
  `t.push(Date.now() - T0);
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(u8.subarray(0, 28)); ` +
  `t.push(Date.now() - T0);
  const ok3 = JSON.parse(text).sub === 'user-1'; t.push(Date.now() - T0);
  const key = await crypto.subtle.importKey('jwk', ES_JWK, { name: 'ECDSA', namedCurve: 'P-256' }, false, ` +
  `['verify']); t.push(Date.now() - T0);
  const ok4 = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, ES_SIG, MSG); t.push(Date.now() - T0);
  return new Response(first && again && ok3 && ok4 ? 'ok\\n' : 'wrong\\n', { headers: { 'x-marks': t.join(',') } });
} };
`;

const keys = benchKeys();
const stepsFile = fileURLToPath(new URL('../../build/bench-isolate/lib-steps/worker.js', import.meta.url));
const lib = await bundleWorker(fileURLToPath(new URL('./isolate/edgejwt-steps.ts', import.meta.url)), stepsFile, {
  minify: true,
});
const jose = await bundle('jose');
// BENCH_BASELINE_SRC: the steps Worker copied next to a copy of the other src/, so its
// relative imports and the package aliases both resolve there.
async function baselineLib(src: string): Promise<string> {
  const { mkdirSync, copyFileSync, cpSync, rmSync } = await import('node:fs');
  const { join, resolve } = await import('node:path');
  const dir = fileURLToPath(new URL('../../build/bench-isolate/baseline-steps/', import.meta.url));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'bench/guard/isolate'), { recursive: true });
  for (const f of ['edgejwt-steps.ts', 'mark.ts', 'issuers.ts'])
    copyFileSync(fileURLToPath(new URL(`./isolate/${f}`, import.meta.url)), join(dir, 'bench/guard/isolate', f));
  cpSync(resolve(src), join(dir, 'src'), { recursive: true });
  return (
    await bundleWorker(
      join(dir, 'bench/guard/isolate/edgejwt-steps.ts'),
      join(dir, 'worker.js'),
      { minify: true },
      join(dir, 'src'),
    )
  ).code;
}
const libB = baselineSrc ? await baselineLib(baselineSrc) : lib.code;
// Bundle load and evaluation alone: a main module that imports the bundle and answers at once.
const LOADS: Record<string, string> = {
  'lib: bundle load only': 'lib',
  'jose guard: bundle load only': 'jose',
  'no-op + core module': 'core',
};
const WRAP = "import w from './b.js'; export default { fetch() { return new Response(typeof w + '\\n'); } };";
const tokens = Object.fromEntries(BENCH_ALGS.map((a) => [a, mint(keys, a, 2 * n + 2)]));
// 'split' kinds: the construction taken apart (core, then each issuer alone, in the
// configuration's order or reversed, then all four), then an EdDSA verify.
const SPLITS: Record<string, string> = {
  'lib split': 'forward',
  'lib split, reversed': 'reverse',
  'lib HS256, core first': 'core-first',
};
const OTHER = ', other core';
// Every isolate gets core bytes of its own (ownBytes in the host), except 'lib HS256, shared
// bytes': with the same bytes in every isolate, a fresh isolate's first request grows slower
// with the number of isolates already made in the process (V8 shares one compiled module
// between the isolates that compile identical bytes); the report splits the rounds in
// quarters to show the growth.
const SHARED = ', shared bytes';
// The two cores' library kinds sit in separate halves of the round, each run after
// its own kind: a fresh isolate's first request is slower right after an isolate
// that loaded different code (measured: the first of two adjacent kinds paid about
// 2 ms more whichever core it had), so adjacency would bias the A/B.
// BENCH_KINDS='core|lib HS256|...': only these kinds (the no-op always).
const kindFilter = process.env.BENCH_KINDS?.split('|');
const kinds = [
  'noop',
  'core',
  ...Object.keys(LOADS),
  ...BENCH_ALGS.flatMap((a) => [`lib ${a}`, `jose guard ${a}`]),
  `lib HS256${SHARED}`,
  ...Object.keys(SPLITS),
  ...(cores['other core'] ? ['other core', ...BENCH_ALGS.map((a) => `lib ${a}${OTHER}`)] : []),
].filter((k) => k === 'noop' || kindFilter === undefined || kindFilter.includes(k));

const host =
  `
// The core's bytes plus a custom section naming the isolate: the same code in bytes no other
// isolate has, so V8 cannot share one compiled module between isolates (see SHARED below).
function ownBytes(buf, id) {
  const name = new TextEncoder().encode('id'), payload = new TextEncoder().encode(id);
  const body = [name.length, ...name, ...payload];
  const out = new Uint8Array(buf.byteLength + 2 + body.length);
  out.set(new Uint8Array(buf));
  out.set([0, body.length, ...body], buf.byteLength);
  return out.buffer;
}
export default { async fetch(request, env) {
  const bytes = (buf) => (request.headers.get('x-kind').endsWith('${SHARED}') ? buf : ownBytes(buf, ` +
  `request.headers.get('x-id')));
  const kind = request.headers.get('x-kind');
  const w = env.LOADER.get(request.headers.get('x-id'), () => {
    const modules = kind === 'noop' ? { 'worker.js': "export default { fetch() { return new Response('ok\\\\n'); } };" }
      : kind === 'lib: bundle load only' ? { 'worker.js': env.WRAP, 'b.js': env.LIB_A, ` +
  `[env.WASM_PATH]: { wasm: bytes(env.core) } }
      : kind === 'jose guard: bundle load only' ? { 'worker.js': env.WRAP, 'b.js': env.JOSE }
      : kind === 'no-op + core module' ? { ` +
  `'worker.js': "import m from './core.wasm'; ` +
  `export default { fetch() { return new Response(typeof m + '\\\\n'); } };", ` +
  `'core.wasm': { wasm: bytes(env.core) } }
      : kind.startsWith('jose guard ') ? { 'worker.js': env.JOSE }
      : kind.startsWith('lib ') ? { 'worker.js': kind.endsWith('${OTHER}') ? env.LIB_B : env.LIB_A, ` +
  `[env.WASM_PATH]: { wasm: bytes(kind.endsWith('${OTHER}') ? env['other core'] : env.core) } }
      : { 'worker.js': env.CORE_WORKER, 'core.wasm': { wasm: bytes(env[kind]) } };
    return { compatibilityDate: '2026-04-01', mainModule: 'worker.js', modules, ` +
  `env: { GUARD_CONFIG: env.GUARD_CONFIG, HS_KEY: env.HS_KEY, ` +
  `...(kind.endsWith(', split') ? { BENCH_SPLIT: '1' } : {}) } };
  });
  return w.getEntrypoint().fetch(request);
} };`;
const mf = new Miniflare({
  handleRuntimeStdio: (o: NodeJS.ReadableStream, e: NodeJS.ReadableStream) => {
    o.resume();
    e.resume();
  },
  modules: [{ type: 'ESModule', path: 'host.js', contents: host }],
  compatibilityDate: '2026-04-01',
  workerLoaders: { LOADER: {} },
  bindings: {
    LIB_A: eagerHint === 'a' ? `//# allFunctionsCalledOnLoad\n${lib.code}` : lib.code,
    LIB_B: eagerHint === 'b' ? `//# allFunctionsCalledOnLoad\n${libB}` : libB,
    JOSE: jose.code,
    WRAP,
    WASM_PATH: lib.wasmImport!.replace(/^\.\//, ''),
    CORE_WORKER: coreWorker,
    GUARD_CONFIG: guardConfig(keys),
    HS_KEY: keys.hsKey,
  },
  dataBlobBindings: cores,
});
const call = async (kind: string, id: string, headers: Record<string, string> = {}) => {
  const t0 = performance.now();
  const res = await mf.dispatchFetch('http://host.bench.invalid/api/orders', {
    headers: { 'x-kind': kind, 'x-id': id, ...headers },
  });
  const body = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200 || body.startsWith('wrong')) throw new Error(`${kind}: ${res.status} ${body.slice(0, 200)}`);
  const raw = (res.headers.get('x-marks') ?? '').split(',').filter(Boolean);
  return { ms, marks: raw.map(Number) };
};
await call('noop', 'warm-host');
const wall: Record<string, number[]> = {};
const marks: Record<string, number[][]> = {};
for (let i = 0; i < n; i++) {
  for (let j = 0; j < kinds.length; j++) {
    const kind = kinds[(i + j) % kinds.length]!;
    const alg =
      SPLITS[kind] === 'core-first'
        ? 'HS256'
        : SPLITS[kind] !== undefined
          ? 'EdDSA'
          : kind.startsWith('lib ')
            ? (kind.slice(4).replace(OTHER, '').replace(SHARED, '') as (typeof BENCH_ALGS)[number])
            : kind.startsWith('jose guard ') && LOADS[kind] === undefined
              ? (kind.slice(11) as (typeof BENCH_ALGS)[number])
              : undefined;
    const h: Record<string, string> = alg
      ? {
          authorization: `Bearer ${tokens[alg]![2 * i]}`,
          'x-token2': tokens[alg]![2 * i + 1]!,
          ...(SPLITS[kind] ? { 'x-bench-split': SPLITS[kind]! } : {}),
        }
      : {};
    const r = await call(kind, `${kind}-${i}`, h);
    (wall[kind] ??= []).push(r.ms);
    (marks[kind] ??= []).push(r.marks);
  }
}
await mf.dispose();

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Mean step durations (differences of consecutive marks) over the isolates. */
const steps = (kind: string, names: string[]) =>
  Object.fromEntries(names.map((name, s) => [name, +mean(marks[kind]!.map((m) => m[s + 1]! - m[s]!)).toFixed(2)]));
const LIB_STEPS = ['request dispatched to fetch', 'createVerifier (4 issuers)', 'first verify', 'second verify'];
const out: Record<string, unknown> = {
  env,
  isolates: n,
  wall: Object.fromEntries(kinds.map((k) => [k, latency(wall[k]!)])),
  steps: {} as Record<string, unknown>,
};
const stepRows: Record<string, Record<string, number>> = {};
for (const k of kinds) {
  if (k === 'noop' || LOADS[k] !== undefined || k.startsWith('jose guard ')) continue;
  const issuerNames = BENCH_ALGS.map((a) => `createVerifier, ${a} issuer alone`);
  const split = [
    'instantiate the core (instantiateCore)',
    'new Core(exports) (its JS wrapper)',
    "getCore() (the library's own: both again)",
    ...(SPLITS[k] === 'reverse' ? [...issuerNames].reverse() : issuerNames),
    'createVerifier, all four (after those)',
    'first verify (EdDSA)',
    'second verify',
  ];
  const coreFirst = [
    'getCore() (instantiate + Core)',
    'first decodeJws',
    'first HMAC-SHA-256 import + verify',
    'first Ed25519 import',
    'createVerifier (4 issuers, after those)',
    'first verify (HS256)',
    'second verify',
  ];
  stepRows[k] =
    SPLITS[k] === 'core-first'
      ? {
          'bundle evaluation (after the first module)': +mean(marks[k]!.map((m) => m[0]!)).toFixed(2),
          ...steps(k, ['request dispatched to fetch', ...coreFirst]),
        }
      : SPLITS[k] !== undefined
        ? {
            'bundle evaluation (after the first module)': +mean(marks[k]!.map((m) => m[0]!)).toFixed(2),
            ...steps(k, ['request dispatched to fetch', ...split]),
          }
        : k.startsWith('lib ')
          ? {
              'bundle evaluation (after the first module)': +mean(marks[k]!.map((m) => m[0]!)).toFixed(2),
              ...steps(k, LIB_STEPS),
            }
          : steps(k, [
              'instantiate',
              ...CORE_STEPS.slice(1).map((s) => `first ${s}`),
              'again: instantiate + SHA-256',
              ...CORE_STEPS.slice(2).map((s) => `again: ${s}`),
              ...RUNTIME_STEPS,
            ]);
}
out.steps = stepRows;
const lines = [
  `### Fresh isolate (Worker Loader): first request by step, mean ms over ${n} isolates each (in-Worker ` +
    `clock, 1 ms steps)`,
  '',
];
for (const [k, row] of Object.entries(stepRows)) {
  lines.push(
    `**${k}** (client wall, median: ${latency(wall[k]!).p50.toFixed(1)} ms; no-op ` +
      `${latency(wall.noop!).p50.toFixed(1)} ms)`,
    '',
    '| step | mean ms |',
    '|---|---:|',
  );
  for (const [s, v] of Object.entries(row)) lines.push(`| ${s} | ${v.toFixed(2)} |`);
  lines.push('');
}
// Client wall per kind: median, and the median of the per-round differences from the no-op.
const CHUNKS = 4;
const chunk = Math.ceil(n / CHUNKS);
lines.push(
  `**First request, client wall** (median [p25–p75]; − no-op: median [p25–p75] of the per-round differences, ` +
    `all rounds and by quarter of the run, ${chunk} rounds each)`,
  '',
  '| Worker | first request, ms | − no-op, ms | − no-op by quarter, ms |',
  '|---|---:|---:|---|',
);
const minusNoop: Record<string, unknown> = {};
for (const k of kinds) {
  const d = paired(wall[k]!, wall.noop!);
  const diffs = wall[k]!.map((v, i) => v - wall.noop![i]!);
  const quarters = Array.from(
    { length: CHUNKS },
    (_, c) => latency(diffs.slice(c * chunk, (c + 1) * chunk)).p50,
  ).filter((x) => Number.isFinite(x));
  minusNoop[k] = { ...d, quarters };
  lines.push(
    `| ${k} | ${withSpread(latency(wall[k]!))} | ${withSpread(d, 2)} | ` +
      `${quarters.map((q) => q.toFixed(1)).join(' → ')} |`,
  );
}
out.minusNoop = minusNoop;
lines.push('');
if (cores['other core'] && kinds.includes(`lib HS256${OTHER}`)) {
  // Same-run A/B of the core: the library with this checkout's core vs BENCH_CORE, per round.
  const ab: Record<string, unknown> = {};
  lines.push(
    `**Same-run A/B: library with this core − library with BENCH_CORE (` +
      `${process.env.BENCH_CORE ?? 'the same core'}` +
      `${eagerHint ? `; compile hint on side ${eagerHint}` : ''}` +
      `${baselineSrc ? `; other side's library from ${baselineSrc}` : ''}` +
      `)**, first request, per-round differences of the client wall`,
    '',
    '| alg | this core | other core | difference, median [p25–p75] | in-Worker: construction + first verify, ' +
      'this vs other (mean ms) |',
    '|---|---:|---:|---:|---:|',
  );
  for (const a of BENCH_ALGS) {
    const x = wall[`lib ${a}`]!,
      y = wall[`lib ${a}${OTHER}`]!;
    const inner = (k: string) => mean(marks[k]!.map((m) => m[3]! - m[1]!));
    const d = paired(x, y);
    ab[a] = {
      this: latency(x),
      other: latency(y),
      difference: d,
      innerThis: inner(`lib ${a}`),
      innerOther: inner(`lib ${a}${OTHER}`),
    };
    lines.push(
      `| ${a} | ${withSpread(latency(x))} | ${withSpread(latency(y))} | ${withSpread(d, 2)} | ` +
        `${inner(`lib ${a}`).toFixed(2)} vs ${inner(`lib ${a}${OTHER}`).toFixed(2)} |`,
    );
  }
  out.ab = ab;
  lines.push('');
}
console.log('\n' + lines.join('\n'));
if (!smoke) console.log(`wrote ${writeResults('cold-steps', out)}`);
