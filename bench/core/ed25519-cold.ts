// Ed25519 cold start and the lazy-table threshold (assembly/ed25519/verify.ts, HOT_AFTER).
//
// 1. Fresh processes (cold engine: Wasm starts in V8's baseline tier): JS module
//    load, compile + instantiate, first key import, first verify, and the verifies
//    after it up to the one that builds the tables. Median of --runs (default 9).
// 2. In this process, warm: verify per op on the table-free path and with tables,
//    and the cost of building one key's table; their ratio is the break-even that
//    sets HOT_AFTER.
//
// Run: npm run build && node bench/core/ed25519-cold.ts [--dist <dir>] [--runs 9]
//   --dist points at another build's dist/ (e.g. a copy made before a change) for
//   the fresh-process part; the warm part needs the test exports of this build.
import { createPrivateKey, sign } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { signingInput } from '../lib/signing-input.ts';

// RFC 8032 §7.1 TEST 1
const SEED = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
const here = fileURLToPath(import.meta.url);
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};
const dist = resolve(arg('--dist', join(here, '../../../dist')));
const runs = Number(arg('--runs', '9'));
/** Verifies timed one by one in a fresh process: past the default threshold (16). */
const FIRST_VERIFIES = 40;

function keyMaterial(seed: Buffer) {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const jwk = privateKey.export({ format: 'jwk' });
  return { privateKey, pub: new Uint8Array(Buffer.from(jwk.x as string, 'base64url')) };
}

async function load() {
  const keys = await import(pathToFileURL(join(dist, 'wasm/keys.js')).href);
  const instance = await import(pathToFileURL(join(dist, 'wasm/instance.js')).href);
  // Older builds export verifyEd25519; newer ones verify through a key handle (signature.js).
  const signature = keys.verifyEd25519 ? undefined : await import(pathToFileURL(join(dist, 'signature.js')).href);
  const verifyEd25519 =
    keys.verifyEd25519 ??
    ((key: unknown, message: unknown, sig: unknown) =>
      new signature.WasmHandle(key).verify({ message, signature: sig }));
  return { ...keys, verifyEd25519, getCore: instance.getCore } as {
    importEd25519Key(pub: Uint8Array): { drop(): void; slot(): number };
    verifyEd25519(key: unknown, msg: string | Uint8Array, sig: Uint8Array): boolean;
    getCore(): { exports: Record<string, (...a: number[]) => number> };
  };
}

// ---- child: one fresh process ----
if (process.argv.includes('--child')) {
  const { privateKey, pub } = keyMaterial(SEED);
  const input = signingInput();
  const sig = new Uint8Array(sign(null, Buffer.from(input), privateKey));
  const t0 = performance.now();
  const m = await load();
  const t1 = performance.now();
  m.getCore();
  const t2 = performance.now();
  const key = m.importEd25519Key(pub);
  const t3 = performance.now();
  const each: number[] = [];
  for (let i = 0; i < FIRST_VERIFIES; i++) {
    const a = performance.now();
    if (!m.verifyEd25519(key, input, sig)) throw new Error('verify failed');
    each.push(performance.now() - a);
  }
  // A second key in the same (now partly warm) process: import + first verify.
  const other = keyMaterial(Buffer.alloc(32, 7));
  const sig2 = new Uint8Array(sign(null, Buffer.from(input), other.privateKey));
  const t4 = performance.now();
  const key2 = m.importEd25519Key(other.pub);
  const t5 = performance.now();
  if (!m.verifyEd25519(key2, input, sig2)) throw new Error('verify failed');
  const t6 = performance.now();
  console.log(
    JSON.stringify({
      loadMs: t1 - t0,
      instantiateMs: t2 - t1,
      importMs: t3 - t2,
      each,
      secondImportMs: t5 - t4,
      secondVerifyMs: t6 - t5,
    }),
  );
  process.exit(0);
}

// ---- parent ----
type Child = {
  loadMs: number;
  instantiateMs: number;
  importMs: number;
  each: number[];
  secondImportMs: number;
  secondVerifyMs: number;
};
const children: Child[] = [];
for (let i = 0; i < runs; i++) {
  const r = spawnSync(process.execPath, [here, '--child', '--dist', dist], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  children.push(JSON.parse(r.stdout.trim().split('\n').pop()!) as Child);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const med = (f: (c: Child) => number) => median(children.map(f));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const firstVerify = med((c) => c.each[0]!);
console.log(`fresh processes (${runs}, medians), dist = ${dist}, Node ${process.version}`);
console.log(
  `  JS module load ${med((c) => c.loadMs).toFixed(2)} ms, compile + instantiate ` +
    `${med((c) => c.instantiateMs).toFixed(2)} ms`,
);
console.log(
  `  first import ${med((c) => c.importMs).toFixed(3)} ms, first verify ${firstVerify.toFixed(3)} ms, ` +
    `import + first verify ${med((c) => c.importMs + c.each[0]!).toFixed(3)} ms`,
);
console.log(
  `  load to first verdict ${med((c) => c.loadMs + c.instantiateMs + c.importMs + c.each[0]!).toFixed(2)} ms`,
);
console.log(
  `  import + first 8 verifies ${med((c) => c.importMs + sum(c.each.slice(0, 8))).toFixed(2)} ms, ` +
    `+ first ${FIRST_VERIFIES} ${med((c) => c.importMs + sum(c.each)).toFixed(2)} ms`,
);
const slowest = med((c) => Math.max(...c.each.slice(1)));
const slowestAt = median(children.map((c) => c.each.indexOf(Math.max(...c.each.slice(1))) + 1));
console.log(
  `  slowest of verifies 2..${FIRST_VERIFIES}: ${slowest.toFixed(3)} ms (median position ${slowestAt}; with ` +
    `lazy tables that is the one that builds them)`,
);
console.log(
  `  per verify 2..${FIRST_VERIFIES}: ${children[0]!.each
    .slice(1)
    .map((x) => x.toFixed(2))
    .join(' ')} (first run)`,
);
console.log(
  `  second key: import ${med((c) => c.secondImportMs).toFixed(3)} ms, first verify ` +
    `${med((c) => c.secondVerifyMs).toFixed(3)} ms`,
);

// ---- warm, in this process: the break-even for HOT_AFTER ----
const m = await load();
const e = m.getCore().exports;
if (typeof e.ed25519_test_hot_after !== 'function') {
  console.log('(this dist has no lazy tables: warm break-even skipped)');
  process.exit(0);
}
const input = signingInput();
const NEVER = 0xffffffff;
const keyPairs = Array.from({ length: 64 }, (_, i) => {
  const { privateKey, pub } = keyMaterial(Buffer.alloc(32, i + 1));
  return { pub, sig: new Uint8Array(sign(null, Buffer.from(input), privateKey)) };
});
function perOp(hotAfter: number): number {
  const before = e.ed25519_test_hot_after!(hotAfter);
  const { pub, sig } = keyPairs[0]!;
  const key = m.importEd25519Key(pub);
  try {
    const until = performance.now() + 600; // past V8's tier-up to TurboFan
    while (performance.now() < until) m.verifyEd25519(key, input, sig);
    const rounds: number[] = [];
    for (let r = 0; r < 31; r++) {
      const t = performance.now();
      for (let i = 0; i < 50; i++) if (!m.verifyEd25519(key, input, sig)) throw new Error('verify failed');
      rounds.push((performance.now() - t) / 50);
    }
    return median(rounds);
  } finally {
    key.drop();
    e.ed25519_test_hot_after!(before);
  }
}
const cold = perOp(NEVER);
const hot = perOp(0);
// One key's table: a first verify with threshold 0 (builds, then verifies with
// the table) minus a hot verify; B's table was built by perOp(0) above.
const before = e.ed25519_test_hot_after!(0);
const builds: number[] = [];
for (let round = 0; round < 3; round++) {
  for (const { pub, sig } of keyPairs.slice(1)) {
    const key = m.importEd25519Key(pub);
    const t = performance.now();
    if (!m.verifyEd25519(key, input, sig)) throw new Error('verify failed');
    builds.push(performance.now() - t - hot);
    key.drop();
  }
}
e.ed25519_test_hot_after!(before);
const build = median(builds);
console.log(`warm, this process (medians):`);
console.log(
  `  verify with tables ${(hot * 1000).toFixed(1)} µs, table-free ${(cold * 1000).toFixed(1)} µs (` +
    `${(cold / hot).toFixed(2)}x)`,
);
console.log(
  `  one key's table build ${build.toFixed(3)} ms; break-even ${(build / (cold - hot)).toFixed(1)} verifies ` +
    `(build / (table-free - with tables)); B's table is the same size and build`,
);
