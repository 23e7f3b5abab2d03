// Where the library's first request goes in a fresh isolate (Worker Loader, a
// new id per sample): Workers that read the clock around each step of their
// first request and return the marks in a header, averaged over many fresh
// isolates (workerd's clock moves in 1 ms steps inside a request, so a single
// isolate's marks are coarse; the mean over n isolates is not). Two Workers:
//  - the library alone (isolate/edgejwt-steps.ts): bundle evaluation, the
//    verifier's construction, the first verify, a second verify (same algorithm);
//  - the core's .wasm driven by hand: instantiate, the first SHA-256, SHA-512,
//    HMAC-SHA-256 key import + verify, Ed25519 key import, Ed25519 verify, and
//    each again (the second call shows what the first one paid to compile).
// The client also times each first request (median, as the isolate bench).
// Run: node bench/cold-steps.ts   (BENCH_ISOLATES: isolates per Worker, 40 by default;
// BENCH_CORE=path.wasm: drive another build of the core, for a before/after)
import { Miniflare } from 'miniflare';
import { generateKeyPairSync, sign, createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { smoke } from './lib/harness.ts';
import { environment, printEnvironment, writeResults, packageVersion } from './lib/env.ts';
import { latency } from './lib/latency.ts';
import { CORE_WASM } from './isolate/build.ts';
import { bundleWorker } from './lib/workerd-bundle.ts';
import { benchKeys, guardConfig, mint, BENCH_ALGS } from './isolate/tokens.ts';

const n = Number(process.env.BENCH_ISOLATES) > 0 ? Number(process.env.BENCH_ISOLATES) : smoke ? 3 : 40;
const cores: Record<string, string> = { core: CORE_WASM, ...(process.env.BENCH_CORE ? { 'other core': process.env.BENCH_CORE } : {}) };
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

const CORE_STEPS = ['instantiate', 'SHA-256', 'SHA-512', 'HMAC import', 'HMAC verify', 'Ed25519 import', 'Ed25519 verify'];
const coreWorker = `import core from 'core.wasm';
const T0 = Date.now();
const b = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
const MSG = new Uint8Array(${msg.length}).fill(0x61), KEY = b('${hsKey.toString('base64url')}'), TAG = b('${hsTag}'), PUB = b('${edPub}'), SIG = b('${edSig}');
function steps(x, t) {
  const mem = () => new Uint8Array(x.memory.buffer);
  const ok = [];
  mem().set(MSG, x.input_ptr()); ok.push(x.hash(1, MSG.length) === 32); t.push(Date.now() - T0);
  mem().set(MSG, x.input_ptr()); ok.push(x.hash(3, MSG.length) === 64); t.push(Date.now() - T0);
  mem().set(KEY, x.input_ptr()); ok.push(x.hmac_import(0, 1, 32) === 1); t.push(Date.now() - T0);
  mem().set(MSG, x.input_ptr()); mem().set(TAG, x.sig_ptr()); ok.push(x.hmac_verify(0, MSG.length, 32) === 1); t.push(Date.now() - T0);
  mem().set(PUB, x.input_ptr()); ok.push(x.ed25519_import(0) === 1); t.push(Date.now() - T0);
  mem().set(MSG, x.input_ptr()); mem().set(SIG, x.sig_ptr()); ok.push(x.ed25519_verify(0, MSG.length) === 1); t.push(Date.now() - T0);
  return ok.every(Boolean);
}
export default { fetch() {
  const t = [Date.now() - T0];
  const x = new WebAssembly.Instance(core, {}).exports;
  t.push(Date.now() - T0);
  const first = steps(x, t);
  const again = steps(new WebAssembly.Instance(core, {}).exports, t);
  return new Response(first && again ? 'ok\\n' : 'wrong\\n', { headers: { 'x-marks': t.join(',') } });
} };
`;

const keys = benchKeys();
const stepsFile = fileURLToPath(new URL('../build/bench-isolate/lib-steps/worker.js', import.meta.url));
const lib = await bundleWorker(fileURLToPath(new URL('./isolate/edgejwt-steps.ts', import.meta.url)), stepsFile, { minify: true });
const tokens = Object.fromEntries(BENCH_ALGS.map((a) => [a, mint(keys, a, 2 * n + 2)]));
// 'split' kinds: the construction taken apart (core, then each issuer alone, in the
// configuration's order or reversed, then all four), then an EdDSA verify.
const SPLITS: Record<string, string> = { 'lib split': 'forward', 'lib split, reversed': 'reverse' };
const kinds = ['noop', ...Object.keys(cores), ...BENCH_ALGS.map((a) => `lib ${a}`), ...Object.keys(SPLITS)];

const host = `export default { async fetch(request, env) {
  const kind = request.headers.get('x-kind');
  const w = env.LOADER.get(request.headers.get('x-id'), () => {
    const modules = kind === 'noop' ? { 'worker.js': "export default { fetch() { return new Response('ok\\\\n'); } };" }
      : kind.startsWith('lib ') ? { 'worker.js': env.LIB, [env.WASM_PATH]: { wasm: env.core } }
      : { 'worker.js': env.CORE_WORKER, 'core.wasm': { wasm: env[kind] } };
    return { compatibilityDate: '2026-04-01', mainModule: 'worker.js', modules, env: { GUARD_CONFIG: env.GUARD_CONFIG, HS_KEY: env.HS_KEY } };
  });
  return w.getEntrypoint().fetch(request);
} };`;
const mf = new Miniflare({
  handleRuntimeStdio: (o, e) => { o.resume(); e.resume(); },
  modules: [{ type: 'ESModule', path: 'host.js', contents: host }],
  compatibilityDate: '2026-04-01',
  workerLoaders: { LOADER: {} },
  bindings: { LIB: lib.code, WASM_PATH: lib.wasmImport!.replace(/^\.\//, ''), CORE_WORKER: coreWorker, GUARD_CONFIG: guardConfig(keys), HS_KEY: keys.hsKey },
  dataBlobBindings: cores,
});
const call = async (kind: string, id: string, headers: Record<string, string> = {}) => {
  const t0 = performance.now();
  const res = await mf.dispatchFetch('http://host.bench.invalid/api/orders', { headers: { 'x-kind': kind, 'x-id': id, ...headers } });
  const body = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200 || body.startsWith('wrong')) throw new Error(`${kind}: ${res.status} ${body.slice(0, 200)}`);
  return { ms, marks: (res.headers.get('x-marks') ?? '').split(',').filter(Boolean).map(Number) };
};
await call('noop', 'warm-host');
const wall: Record<string, number[]> = {};
const marks: Record<string, number[][]> = {};
for (let i = 0; i < n; i++) {
  for (let j = 0; j < kinds.length; j++) {
    const kind = kinds[(i + j) % kinds.length]!;
    const alg = SPLITS[kind] !== undefined ? 'EdDSA' : kind.startsWith('lib ') ? (kind.slice(4) as (typeof BENCH_ALGS)[number]) : undefined;
    const h: Record<string, string> = alg ? { authorization: `Bearer ${tokens[alg]![2 * i]}`, 'x-token2': tokens[alg]![2 * i + 1]!, ...(SPLITS[kind] ? { 'x-bench-split': SPLITS[kind]! } : {}) } : {};
    const r = await call(kind, `${kind}-${i}`, h);
    (wall[kind] ??= []).push(r.ms);
    (marks[kind] ??= []).push(r.marks);
  }
}
await mf.dispose();

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Mean step durations (differences of consecutive marks) over the isolates. */
const steps = (kind: string, names: string[]) => Object.fromEntries(names.map((name, s) => [name, +mean(marks[kind]!.map((m) => m[s + 1]! - m[s]!)).toFixed(2)]));
const LIB_STEPS = ['request dispatched to fetch', 'createVerifier (4 issuers)', 'first verify', 'second verify'];
const out: Record<string, unknown> = { env, isolates: n, wall: Object.fromEntries(kinds.map((k) => [k, latency(wall[k]!)])), steps: {} as Record<string, unknown> };
const stepRows: Record<string, Record<string, number>> = {};
for (const k of kinds) {
  if (k === 'noop') continue;
  const issuerNames = BENCH_ALGS.map((a) => `createVerifier, ${a} issuer alone`);
  const split = ['getCore() (instantiate the core)', ...(SPLITS[k] === 'reverse' ? [...issuerNames].reverse() : issuerNames), 'createVerifier, all four (after those)', 'first verify (EdDSA)', 'second verify'];
  stepRows[k] = SPLITS[k] !== undefined
    ? { 'bundle evaluation (after the first module)': +mean(marks[k]!.map((m) => m[0]!)).toFixed(2), ...steps(k, ['request dispatched to fetch', ...split]) }
    : k.startsWith('lib ')
    ? { 'bundle evaluation (after the first module)': +mean(marks[k]!.map((m) => m[0]!)).toFixed(2), ...steps(k, LIB_STEPS) }
    : steps(k, ['instantiate', ...CORE_STEPS.slice(1).map((s) => `first ${s}`), 'again: instantiate + SHA-256', ...CORE_STEPS.slice(2).map((s) => `again: ${s}`)]);
}
out.steps = stepRows;
const lines = [`### Fresh isolate (Worker Loader): first request by step, mean ms over ${n} isolates each (in-Worker clock, 1 ms steps)`, ''];
for (const [k, row] of Object.entries(stepRows)) {
  lines.push(`**${k}** (client wall, median: ${latency(wall[k]!).p50.toFixed(1)} ms; no-op ${latency(wall.noop!).p50.toFixed(1)} ms)`, '', '| step | mean ms |', '|---|---:|');
  for (const [s, v] of Object.entries(row)) lines.push(`| ${s} | ${v.toFixed(2)} |`);
  lines.push('');
}
console.log('\n' + lines.join('\n'));
if (!smoke) console.log(`wrote ${writeResults('cold-steps', out)}`);
void readFileSync;
