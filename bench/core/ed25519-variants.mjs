// Builds variants of the core from a temporary copy of assembly/ and compares them:
//  - size with and without the Ed25519 code (verify.ts swapped for a stub that
//    answers ERR_ALG, so the linker drops field/point/scalar/table),
//  - the table window W (assembly/ed25519/table.ts): verify time, key import and table build time
//    and table memory per key, to show what table size pays off.
// Same asc flags as scripts/build-wasm.mjs. Run: node bench/core/ed25519-variants.mjs
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const asc = join(root, 'node_modules/.bin/asc');
const smoke = process.env.BENCH_SMOKE === '1';

function build(mutate) {
  const dir = mkdtempSync(join(tmpdir(), 'edgejwt-variant-'));
  try {
    cpSync(join(root, 'assembly'), join(dir, 'assembly'), { recursive: true });
    mutate(dir);
    const out = join(dir, 'core.wasm');
    execFileSync(
      asc,
      [
        join(dir, 'assembly/index.ts'),
        '--outFile',
        out,
        '--runtime',
        'stub',
        '-O3',
        '--converge',
        '--noAssert',
        '--enable',
        'simd',
      ],
      {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const size = (b) => `${b.length} B raw, ${gzipSync(b, { level: 9 }).length} B gzip`;
const withEd = build(() => {});
const withoutEd = build((dir) =>
  writeFileSync(
    join(dir, 'assembly/ed25519/verify.ts'),
    `import { ERR_ALG, ERR_SLOT } from '../status';
export const ED25519_SLOTS: u32 = 64;
export function ed25519Import(slot: u32, key: usize): i32 { return slot >= ED25519_SLOTS ? ERR_SLOT : ERR_ALG; }
export function ed25519Verify(slot: u32, msg: usize, len: usize, sig: usize): i32 { ` +
      `return slot >= ED25519_SLOTS ? ERR_SLOT : ERR_ALG; }
export function ed25519Drop(slot: u32): i32 { return slot >= ED25519_SLOTS ? ERR_SLOT : ERR_ALG; }
export function ed25519SetHotAfter(n: u32): u32 { return n; }
export function ed25519SlotHot(slot: u32): i32 { return slot >= ED25519_SLOTS ? ERR_SLOT : 0; }
`,
  ),
);
console.log(`core with Ed25519:    ${size(withEd)}`);
console.log(`core without Ed25519: ${size(withoutEd)}`);
console.log(
  `Ed25519 adds:         ${withEd.length - withoutEd.length} B raw, ` +
    `${gzipSync(withEd, { level: 9 }).length - gzipSync(withoutEd, { level: 9 }).length} B gzip`,
);

// ---- window sweep ----
const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.alloc(32, 7)]);
const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
const pub = Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x, 'base64url');
const msg = Buffer.alloc(654, 0x61);
const sig = sign(null, msg, privateKey);

const variants = [4, 5, 6, 7].map((w) => {
  const bytes = build((dir) => {
    const p = join(dir, 'assembly/ed25519/table.ts');
    writeFileSync(p, readFileSync(p, 'utf8').replace(/export const W: u32 = \d+;/, `export const W: u32 = ${w};`));
  });
  const e = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports;
  // A key's table is built at its first verify past the hot threshold (decision 0004): 0 here, so the first.
  e.ed25519_test_hot_after(0);
  const mem = () => new Uint8Array(e.memory.buffer);
  const pages0 = e.memory.buffer.byteLength;
  const imp = (slot) => {
    mem().set(pub, e.input_ptr.value);
    return e.ed25519_import(slot);
  };
  const verify = (slot = 0) => {
    mem().set(msg, e.input_ptr.value);
    mem().set(sig, e.sig_ptr.value);
    return e.ed25519_verify(slot, msg.length);
  };
  if (imp(0) !== 1) throw new Error('import failed');
  if (verify() !== 1) throw new Error(`W=${w}: verify failed`);
  // B's table is the first allocation (at the old end of memory), made at the first table verify: what it would
  // cost as a constant in the data segment instead.
  const tableBytes = Math.ceil(253 / w) * 2 ** (w - 1) * 120;
  const bTable = new Uint8Array(e.memory.buffer, pages0, tableBytes);
  const bTableGzip = gzipSync(bTable, { level: 9 }).length;
  return { w, bytes, imp, verify, tableBytes, bTableGzip, verifyUs: [], importMs: [] };
});

for (const v of variants) for (let i = 0; i < (smoke ? 50 : 500); i++) v.verify(); // past Wasm tier-up
const rounds = smoke ? 3 : 31;
for (let r = 0; r < rounds; r++) {
  for (const v of variants) {
    let t0 = performance.now();
    for (let i = 0; i < 100; i++) v.verify();
    v.verifyUs.push(((performance.now() - t0) / 100) * 1000);
    // A new key: its import and first verify, which builds its table.
    t0 = performance.now();
    v.imp(2);
    v.verify(2);
    v.importMs.push(performance.now() - t0);
  }
}
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(`\n### Table window W (per-key table of signed radix-2^W multiples), Node ${process.version}\n`);
console.log(
  '| W | verify (median) | key import + first verify (median) | table per key | ' +
    'B table + build scratch (once per instance) | B table as data: raw / gzip | core gzip |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|');
for (const v of variants) {
  console.log(
    `| ${v.w} | ${med(v.verifyUs).toFixed(1)} µs | ${med(v.importMs).toFixed(2)} ms | ` +
      `${(v.tableBytes / 1024).toFixed(0)} KiB | ` +
      `${((v.tableBytes + (v.tableBytes / 120) * 200) / 1024).toFixed(0)} KiB | ` +
      `${(v.tableBytes / 1024).toFixed(0)} / ${(v.bTableGzip / 1024).toFixed(0)} KiB | ` +
      `${gzipSync(v.bytes, { level: 9 }).length} B |`,
  );
}
