// Ed25519 verify of a 654-byte JWT signing input, key imported once: edgejwt's Wasm
// core vs node:crypto (OpenSSL), crypto.subtle.verify, @noble/curves and Rust
// wasm-bindgen builds of ed25519-dalek and ed25519-compact, in one run (Node).
// Also the first-verify cost in fresh processes (compile + instantiate + import + verify).
// Run: npm run build && node bench/core/ed25519.ts   (BENCH_SMOKE=1 for a quick pass)
// The workerd side is bench/core/ed25519-workerd.ts.
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { ed25519 } from '@noble/curves/ed25519.js';
import { compare, compareAsync, printTable, speedup, smoke, type Sample } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { signingInput } from '../lib/signing-input.ts';
import { loadRustPeer } from '../peers/rust.ts';

// RFC 8032 §7.1 TEST 1
const SEED = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');

function keys() {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), SEED]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const pub = new Uint8Array(Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url'));
  return { privateKey, publicKey, pub };
}

/** A second, different public key (RFC 8032 §7.1 TEST 2). */
function keys2(): Uint8Array {
  return new Uint8Array(Buffer.from('3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c', 'hex'));
}

// ---- child mode: one first verify in this fresh process ----
if (process.argv.includes('--first-verify')) {
  const { pub, privateKey } = keys();
  const input = signingInput();
  const sig = new Uint8Array(sign(null, Buffer.from(input), privateKey));
  const t0 = performance.now();
  const { importEd25519Key } = await import('../../dist/wasm/keys.js');
  const { WasmHandle } = await import('../../dist/signature.js');
  const { getCore } = await import('../../dist/wasm/instance.js');
  const t1 = performance.now();
  getCore(); // decode the shipped bytes, compile, instantiate
  const t2 = performance.now();
  const key = importEd25519Key(pub); // decode and check A (tables are built lazily, after HOT_AFTER verifies)
  const t3 = performance.now();
  const ok = new WasmHandle(key).verify({ message: input, signature: sig });
  const t4 = performance.now();
  const second = importEd25519Key(keys2());
  const t5 = performance.now();
  second.drop();
  if (!ok) throw new Error('first verify failed');
  console.log(
    JSON.stringify({
      loadMs: t1 - t0,
      instantiateMs: t2 - t1,
      importMs: t3 - t2,
      verifyMs: t4 - t3,
      totalMs: t4 - t0,
      secondImportMs: t5 - t4,
    }),
  );
  process.exit(0);
}

const { importEd25519Key } = await import('../../dist/wasm/keys.js');
const { WasmHandle } = await import('../../dist/signature.js');
const env = environment(['@noble/curves']);
printEnvironment(env);
const wasm = readFileSync(new URL('../../dist/wasm/generated/core.wasm', import.meta.url));
const fresh = readFileSync(new URL('../../src/wasm/generated/core.wasm', import.meta.url));
console.log(`core.wasm: ${wasm.length} B raw, ${gzipSync(wasm, { level: 9 }).length} B gzip`);
if (!wasm.equals(fresh))
  console.log('WARNING: dist/ core.wasm differs from src/wasm/generated: run `npm run build` first.');

const { privateKey, publicKey, pub } = keys();
const input = signingInput();
const msg = new TextEncoder().encode(input);
const sig = new Uint8Array(sign(null, msg, privateKey));

const ours = new WasmHandle(importEd25519Key(pub));
const signedText = { message: input, signature: sig };
const signedBytes = { message: msg, signature: sig };
const subtleKey = await crypto.subtle.importKey('raw', pub, { name: 'Ed25519' }, false, ['verify']);
const rust = await loadRustPeer();
const dalek = rust ? new rust.DalekKey(pub) : null;
const compact = rust ? new rust.CompactKey(pub) : null;

// Every candidate must accept the signature and refuse a corrupted one before it is timed.
const bad = sig.slice();
bad[5]! ^= 1;
const checks: [string, (s: Uint8Array) => boolean][] = [
  ['edgejwt', (s) => ours.verify({ message: input, signature: s })],
  ['node:crypto', (s) => verify(null, msg, publicKey, s)],
  ['noble', (s) => ed25519.verify(s, msg, pub, { zip215: false })],
];
if (dalek && compact) checks.push(['dalek', (s) => dalek.verify(msg, s)], ['compact', (s) => compact.verify(msg, s)]);
for (const [name, fn] of checks) if (!fn(sig) || fn(bad)) throw new Error(`${name} gave a wrong verdict`);
if (!(await crypto.subtle.verify('Ed25519', subtleKey, sig, msg))) throw new Error('subtle gave a wrong verdict');

const OURS = 'edgejwt (Wasm), string input';
const cases = [
  { name: OURS, fn: () => ours.verify(signedText) },
  { name: 'edgejwt (Wasm), bytes input', fn: () => ours.verify(signedBytes) },
  { name: 'node:crypto verify (KeyObject)', fn: () => verify(null, msg, publicKey, sig) },
  { name: '@noble/curves ed25519.verify (zip215: false)', fn: () => ed25519.verify(sig, msg, pub, { zip215: false }) },
];
if (dalek && compact) {
  cases.push(
    { name: 'ed25519-dalek (Rust Wasm) verify', fn: () => dalek.verify(msg, sig) },
    { name: 'ed25519-dalek (Rust Wasm) verify_strict', fn: () => dalek.verify_strict(msg, sig) },
    { name: 'ed25519-compact (Rust Wasm)', fn: () => compact.verify(msg, sig) },
  );
}
// Warm up every candidate well past V8's Wasm tier-up (Liftoff -> TurboFan) before timing.
for (const c of cases) {
  const until = performance.now() + (smoke ? 100 : 500);
  while (performance.now() < until) c.fn();
}
const sync = compare(cases);
const [subtle] = await compareAsync([
  { name: 'crypto.subtle.verify', fn: () => crypto.subtle.verify('Ed25519', subtleKey, sig, msg) },
]);
const rows: Sample[] = [...sync, subtle!];
printTable(`Ed25519 verify, ${msg.length}-byte signing input, key imported once (Node ${process.version})`, rows, OURS);

const by = (prefix: string) => rows.find((r) => r.name.startsWith(prefix));
const ratio = (name: string, target: string) => {
  const other = by(name);
  if (other) console.log(`edgejwt vs ${other.name}: ${speedup(rows[0]!, other).toFixed(2)}x faster (target ${target})`);
};
ratio('node:crypto', '≥ 1.25x');
ratio('crypto.subtle', 'none in Node; see workerd');
ratio('ed25519-dalek (Rust Wasm) verify', '≥ 1.3x');
ratio('ed25519-compact', 'none');
ratio('@noble', '≥ 10x');

// First verify in fresh processes: load the module (compile + instantiate happen at
// the first import), import the key (no tables yet), verify once on the table-free path.
// bench/core/ed25519-cold.ts has the detail, up to the verify that builds the tables.
type First = {
  loadMs: number;
  instantiateMs: number;
  importMs: number;
  verifyMs: number;
  totalMs: number;
  secondImportMs: number;
};
const firsts: First[] = [];
for (let i = 0; i < (smoke ? 2 : 7); i++) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--first-verify'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  firsts.push(JSON.parse(r.stdout.trim().split('\n').pop()!) as First);
}
const med = (k: keyof First) => firsts.map((f) => f[k]).sort((a, b) => a - b)[firsts.length >> 1]!;
const first = {
  loadMs: med('loadMs'),
  instantiateMs: med('instantiateMs'),
  importMs: med('importMs'),
  verifyMs: med('verifyMs'),
  totalMs: med('totalMs'),
  secondImportMs: med('secondImportMs'),
  runs: firsts.length,
};
console.log(
  `first verify in a fresh process (median of ${first.runs}): JS module load ${first.loadMs.toFixed(2)} ms, ` +
    `compile + instantiate ${first.instantiateMs.toFixed(2)} ms, first key import ${first.importMs.toFixed(2)} ms, ` +
    `first verify ${first.verifyMs.toFixed(3)} ms; total ${first.totalMs.toFixed(2)} ms. A second key's ` +
    `import: ${first.secondImportMs.toFixed(2)} ms.`,
);
const rustWasm = rust ? readFileSync(rust.wasmPath) : null;
if (rustWasm)
  console.log(
    `Rust peer wasm (dalek + compact + HS256): ${rustWasm.length} B raw, ` +
      `${gzipSync(rustWasm, { level: 9 }).length} B gzip`,
  );
console.log(`results: ${writeResults('ed25519-node', { env, wasmBytes: wasm.length, rows, first })}`);
