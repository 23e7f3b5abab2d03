// The core's first calls in a fresh Node process (cold engine, lazy Wasm compilation:
// V8 compiles each function at its first call), in the order the library makes them:
// compile, instantiate, read the regions' addresses, a JWS decode, an HMAC-SHA-256
// import and verify, an Ed25519 import, a SHA-512, an Ed25519 verify. With
// BENCH_CORE=other.wasm, that build too, in alternate processes (same-run A/B).
// Run: node bench/core/first-calls.ts   (BENCH_RUNS: processes per build, 40 by default)
import { spawnSync } from 'node:child_process';
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { environment, printEnvironment } from '../lib/env.ts';
import { latency, paired, withSpread } from '../lib/latency.ts';

const RUNS = Number(process.env.BENCH_RUNS) > 0 ? Number(process.env.BENCH_RUNS) : 40;
const builds: Record<string, string> = {
  'this core': fileURLToPath(new URL('../../src/wasm/generated/core.wasm', import.meta.url)),
};
if (process.env.BENCH_CORE) builds['other core'] = process.env.BENCH_CORE;

const msg = Buffer.alloc(200, 0x61);
const key = Buffer.alloc(32, 7);
const tag = createHmac('sha256', key).update(msg).digest('base64');
const ed = generateKeyPairSync('ed25519');
const pub = (ed.publicKey.export({ format: 'jwk' }) as { x: string }).x;
const edSig = sign(null, msg, ed.privateKey).toString('base64');
const token =
  `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.` +
  `${Buffer.from('{"sub":"user-1","aud":"api"}').toString('base64url')}.` +
  `${Buffer.from(tag, 'base64').toString('base64url')}`;
const STEPS = [
  'compile',
  'instantiate',
  'region addresses',
  'first jws_decode',
  'first hmac_import (SHA-256)',
  'first hmac_verify',
  'first ed25519_import',
  'first hash (SHA-512)',
  'first ed25519_verify',
];

const child = (path: string) =>
  `
const bytes = require('node:fs').readFileSync(${JSON.stringify(path)});
const b64 = (s) => Buffer.from(s, 'base64url');
const MSG = Buffer.alloc(200, 0x61), KEY = Buffer.alloc(32, 7), ` +
  `TAG = Buffer.from(${JSON.stringify(tag)}, 'base64'), PUB = b64(${JSON.stringify(pub)}), ` +
  `SIG = Buffer.from(${JSON.stringify(edSig)}, 'base64');
const TOKEN = ${JSON.stringify(token)};
const t = [performance.now()];
const mod = new WebAssembly.Module(bytes); t.push(performance.now());
const x = new WebAssembly.Instance(mod, {}).exports; t.push(performance.now());
// Globals in this core, functions in the cores before it.
const at = (g) => (typeof g === 'function' ? g() : g.value);
const input = at(x.input_ptr), sig = at(x.sig_ptr); at(x.input_cap); at(x.out_ptr); at(x.payload_ptr); at(x.extra_ptr);
at(x.hmac_slots_initial ?? x.hmac_slots); at(x.ed25519_slots);
const mem = () => new Uint8Array(x.memory.buffer);
t.push(performance.now());
const ok = [];
mem().set(Buffer.from(TOKEN, 'latin1'), input); ` +
  `ok.push(x.jws_decode(TOKEN.length, TOKEN.indexOf('.'), TOKEN.lastIndexOf('.')) > 0); t.push(performance.now());
mem().set(KEY, input); ok.push(x.hmac_import(0, 1, 32) === 1); t.push(performance.now());
mem().set(MSG, input); mem().set(TAG, sig); ok.push(x.hmac_verify(0, MSG.length, 32) === 1); t.push(performance.now());
mem().set(PUB, input); ok.push(x.ed25519_import(0) === 1); t.push(performance.now());
mem().set(MSG, input); ok.push(x.hash(3, MSG.length) === 64); t.push(performance.now());
mem().set(MSG, input); mem().set(SIG, sig); ok.push(x.ed25519_verify(0, MSG.length) === 1); t.push(performance.now());
if (!ok.every(Boolean)) throw new Error('wrong answer: ' + ok);
console.log(JSON.stringify(t.slice(1).map((v, i) => v - t[i])));`;

const env = environment();
printEnvironment(env);
const load0 = loadavg();
const samples: Record<string, number[][]> = Object.fromEntries(Object.keys(builds).map((b) => [b, []]));
for (let r = 0; r < RUNS; r++) {
  const order = Object.keys(builds);
  if (r % 2) order.reverse();
  for (const b of order) {
    const out = spawnSync(process.execPath, ['-e', child(builds[b]!)], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${b}: ${out.stderr}`);
    samples[b]!.push(JSON.parse(out.stdout.trim()) as number[]);
  }
}
const names = Object.keys(builds);
const col = (b: string, s: number) => samples[b]!.map((row) => row[s]! * 1000);
const total = (b: string) => samples[b]!.map((row) => row.reduce((a, v) => a + v, 0) * 1000);
console.log(
  `\n${RUNS} fresh processes per build; µs, median [p25–p75]` +
    `${names.length > 1 ? '; this − other: median [p25–p75] of per-pair differences' : ''}; load average ` +
    `${load0.map((v) => v.toFixed(1)).join(' ')} → ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}\n`,
);
console.log(
  `| step | ${names.join(' | ')}${names.length > 1 ? ' | this − other' : ''} |\n|---|` +
    `${names.map(() => '---:').join('|')}|${names.length > 1 ? '---:|' : ''}`,
);
const row = (label: string, f: (b: string) => number[]) => {
  const cells = names.map((b) => withSpread(latency(f(b)), 0)).join(' | ');
  const difference = names.length > 1 ? ` | ${withSpread(paired(f(names[0]!), f(names[1]!)), 0)}` : '';
  console.log(`| ${label} | ${cells}${difference} |`);
};
STEPS.forEach((s, i) => row(s, (b) => col(b, i)));
row('total', total);
