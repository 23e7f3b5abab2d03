// Generate assembly/sha256-rounds.ts and assembly/sha512-rounds.ts: the SHA-2
// compression functions fully unrolled (a looped version measured ~1.8x slower).
// Shape, each choice measured in V8 (x64 has too few registers for 16 message
// words plus the working state, so the scalar version spilled heavily):
// - the message schedule runs in v128 lanes (i32x4 / i64x2) and stores W[t]+K[t]
//   to a small scratch area, a few rounds ahead of the scalar rounds reading it;
// - Σ0/Σ1 as nested rotations, rotr(rotr(rotr(x, p) ^ x, q) ^ x, r): fewer
//   register copies than three independent rotations;
// - Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)), with a ^ b reused as the next round's b ^ c;
// - additions ordered so the parts that do not depend on e are summed first.
// The scratch area holds message-derived words, so it is zeroed before returning.
// Run: node scripts/gen-sha2-rounds.mjs [outDir]
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { fit } from './lib/as-lines.mjs';

// FIPS 180-4 §4.2.2 and §4.2.3 constants.
const K256 = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
];
const K512 = [
  '428a2f98d728ae22',
  '7137449123ef65cd',
  'b5c0fbcfec4d3b2f',
  'e9b5dba58189dbbc',
  '3956c25bf348b538',
  '59f111f1b605d019',
  '923f82a4af194f9b',
  'ab1c5ed5da6d8118',
  'd807aa98a3030242',
  '12835b0145706fbe',
  '243185be4ee4b28c',
  '550c7dc3d5ffb4e2',
  '72be5d74f27b896f',
  '80deb1fe3b1696b1',
  '9bdc06a725c71235',
  'c19bf174cf692694',
  'e49b69c19ef14ad2',
  'efbe4786384f25e3',
  '0fc19dc68b8cd5b5',
  '240ca1cc77ac9c65',
  '2de92c6f592b0275',
  '4a7484aa6ea6e483',
  '5cb0a9dcbd41fbd4',
  '76f988da831153b5',
  '983e5152ee66dfab',
  'a831c66d2db43210',
  'b00327c898fb213f',
  'bf597fc7beef0ee4',
  'c6e00bf33da88fc2',
  'd5a79147930aa725',
  '06ca6351e003826f',
  '142929670a0e6e70',
  '27b70a8546d22ffc',
  '2e1b21385c26c926',
  '4d2c6dfc5ac42aed',
  '53380d139d95b3df',
  '650a73548baf63de',
  '766a0abb3c77b2a8',
  '81c2c92e47edaee6',
  '92722c851482353b',
  'a2bfe8a14cf10364',
  'a81a664bbc423001',
  'c24b8b70d0f89791',
  'c76c51a30654be30',
  'd192e819d6ef5218',
  'd69906245565a910',
  'f40e35855771202a',
  '106aa07032bbd1b8',
  '19a4c116b8d2d0c8',
  '1e376c085141ab53',
  '2748774cdf8eeb99',
  '34b0bcb5e19b48a8',
  '391c0cb3c5c95a63',
  '4ed8aa4ae3418acb',
  '5b9cca4f7763e373',
  '682e6ff3d6b2b8a3',
  '748f82ee5defb2fc',
  '78a5636f43172f60',
  '84c87814a1f0ab72',
  '8cc702081a6439ec',
  '90befffa23631e28',
  'a4506cebde82bde9',
  'bef9a3f7b2c67915',
  'c67178f2e372532b',
  'ca273eceea26619c',
  'd186b8c721c0c207',
  'eada7dd6cde0eb1e',
  'f57d4f7fee6ed178',
  '06f067aa72176fba',
  '0a637dc5a2c898a6',
  '113f9804bef90dae',
  '1b710b35131c471b',
  '28db77f523047d84',
  '32caab7b40c72493',
  '3c9ebe0a15c9bebc',
  '431d67c49c100d4c',
  '4cc5d4becb3e42b6',
  '597f299cfc657e2a',
  '5fcb6fab3ad6faec',
  '6c44198c4a475817',
];

// Σ rotation amounts are given as the nested steps [p, q, r] (total rotations r, q + r, p + q + r).
const SPEC = {
  256: {
    type: 'u32',
    word: 4,
    rounds: 64,
    k: K256.map((k) => `0x${k.toString(16).padStart(8, '0')}`),
    S0: [9, 11, 2],
    S1: [14, 5, 6],
    s0: [7, 18, 3],
    s1: [17, 19, 10],
    section: '§6.2.2',
  },
  512: {
    type: 'u64',
    word: 8,
    rounds: 80,
    k: K512.map((k) => `0x${k}`),
    S0: [5, 6, 28],
    S1: [23, 4, 14],
    s0: [1, 8, 7],
    s1: [19, 61, 6],
    section: '§6.4.2',
  },
};

const range = (n) => Array.from({ length: n }, (_, i) => i);

function generate(bits) {
  const s = SPEC[bits];
  const T = s.type,
    W = s.word,
    block = 16 * W;
  const lanes = 16 / W; // message words per v128
  const nv = 16 / lanes; // v128 values holding the 16-word window
  const vec = W === 4 ? 'i32x4' : 'i64x2';
  const bytes = (...words) => words.flatMap((w) => range(W).map((b) => w * W + b)).join(', ');
  const vrotr = (x, n) => `v128.or(${vec}.shr_u(${x}, ${n}), ${vec}.shl(${x}, ${8 * W - n}))`;
  const vsig = (x, [a, b, c]) => `v128.xor(v128.xor(${vrotr(x, a)}, ${vrotr(x, b)}), ${vec}.shr_u(${x}, ${c}))`;
  const bigSig = (x, [p, q, r]) => `rotr<${T}>(rotr<${T}>(rotr<${T}>(${x}, ${p}) ^ ${x}, ${q}) ^ ${x}, ${r})`;
  // Byte-reverse every word of a v128 (the block is big-endian).
  const bswapMask = range(16)
    .map((i) => i - (i % W) + (W - 1 - (i % W)))
    .join(', ');

  // Schedule step g (g >= nv): W[lanes*g ..] from x[g % nv] (W[t-16 ..]) and its successors.
  function schedule(g) {
    const x = (j) => `x${(g + j) % nv}`;
    const out = [];
    const shift = (a, b) => `i8x16.shuffle(${a}, ${b}, ${bytes(...range(lanes).map((i) => i + 1))})`;
    out.push(`    {`);
    // W[t-15 ..] and W[t-7 ..]: the window moved by one word.
    out.push(`      const w15 = ${shift(x(0), x(1))};`);
    out.push(`      const w7 = ${shift(x(nv / 2), x(nv / 2 + 1))};`);
    out.push(`      let n = ${vec}.add(${vec}.add(${x(0)}, w7), ${vsig('w15', s.s0)});`);
    if (W === 8) {
      // Both σ1 inputs W[t-2], W[t-1] are already known.
      out.push(`      n = ${vec}.add(n, ${vsig(x(nv - 1), s.s1)});`);
    } else {
      // σ1 for lanes 0, 1 uses W[t-2], W[t-1]; for lanes 2, 3 the two words just made.
      // Each input word is duplicated into a 64-bit lane, so a 64-bit right shift
      // leaves the 32-bit rotation in the low half.
      const q = (v) =>
        `v128.xor(v128.xor(i64x2.shr_u(${v}, ${s.s1[0]}), i64x2.shr_u(${v}, ${s.s1[1]})), i32x4.shr_u(${v}, ` +
        `${s.s1[2]}))`;
      out.push(`      const lo = ${q(`i8x16.shuffle(${x(nv - 1)}, ${x(nv - 1)}, ${bytes(2, 2, 3, 3)})`)};`);
      out.push(`      n = i32x4.add(n, i8x16.shuffle(lo, z, ${bytes(0, 2, 4, 4)}));`);
      out.push(`      const hi = ${q(`i8x16.shuffle(n, n, ${bytes(0, 0, 1, 1)})`)};`);
      out.push(`      n = i32x4.add(n, i8x16.shuffle(z, hi, ${bytes(0, 0, 4, 6)}));`);
    }
    out.push(`      ${x(0)} = n;`);
    out.push(`      v128.store(WK, ${vec}.add(n, v128.load(KV, ${16 * g})), ${16 * g});`);
    out.push(`    }`);
    return out;
  }

  const out = [];
  out.push(`// Generated by scripts/gen-sha2-rounds.mjs: do not edit by hand.`);
  out.push(`// SHA-${bits} compression (FIPS 180-4 ${s.section}), fully unrolled, message schedule in v128.`);
  out.push('');
  out.push(`// prettier-ignore`);
  out.push(`/** The round constants K[t] (also read by the looped compression, ./sha${bits}-looped). */`);
  out.push(`export const KV: usize = memory.data<${T}>([`);
  const perLine = W === 4 ? 8 : 4; // within 120 characters
  for (let i = 0; i < s.rounds; i += perLine) out.push(`  ${s.k.slice(i, i + perLine).join(', ')},`);
  out.push(`], 16);`);
  out.push(`/** W[t] + K[t] for the block being compressed; zeroed on return. */`);
  out.push(`const WK: usize = memory.data(${s.rounds * W}, 16);`);
  out.push('');
  out.push(`/** Compress \`blocks\` consecutive ${block}-byte blocks at \`data\` into the state at \`h\`. */`);
  out.push(`export function sha${bits}Compress(h: usize, data: usize, blocks: usize): void {`);
  const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'hh'];
  out.push(`  const z = i32x4.splat(0);`);
  out.push(`  const bswap = i8x16(${bswapMask});`);
  out.push(
    `  let h0 = load<${T}>(h, 0), h1 = load<${T}>(h, ${W}), h2 = load<${T}>(h, ${2 * W}), h3 = load<${T}>(h, ` +
      `${3 * W});`,
  );
  out.push(
    `  let h4 = load<${T}>(h, ${4 * W}), h5 = load<${T}>(h, ${5 * W}), h6 = load<${T}>(h, ${6 * W}), h7 = ` +
      `load<${T}>(h, ${7 * W});`,
  );
  out.push(`  for (let blk: usize = 0; blk < blocks; blk++) {`);
  out.push(`    const p = data + blk * ${block};`);
  for (let j = 0; j < nv; j++) {
    out.push(`    let x${j} = i8x16.swizzle(v128.load(p, ${16 * j}), bswap);`);
    out.push(`    v128.store(WK, ${vec}.add(x${j}, v128.load(KV, ${16 * j})), ${16 * j});`);
  }
  out.push(`    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, hh = h7;`);
  out.push(`    let t: ${T}, ab: ${T}, bc: ${T} = b ^ c;`);
  for (let i = 0; i < s.rounds; i++) {
    const r = (j) => names[(j - i + 8 * 100) % 8];
    const [A, B, , D, E, F, G, H] = range(8).map(r);
    out.push(`    t = ${H} + load<${T}>(WK, ${i * W}) + (${G} ^ (${E} & (${F} ^ ${G}))) + ${bigSig(E, s.S1)};`);
    out.push(`    ab = ${A} ^ ${B};`);
    out.push(`    ${D} += t; ${H} = t + ${bigSig(A, s.S0)} + (${B} ^ (ab & bc)); bc = ab;`);
    // After the last round reading a group of words, compute the group `nv` steps ahead.
    if (i % lanes === lanes - 1) {
      const g = (i + 1) / lanes + nv - 1;
      if (g * lanes < s.rounds) out.push(...schedule(g));
    }
  }
  out.push(`    h0 += a; h1 += b; h2 += c; h3 += d; h4 += e; h5 += f; h6 += g; h7 += hh;`);
  out.push(`  }`);
  for (let i = 0; i < 8; i++) out.push(`  store<${T}>(h, h${i}, ${i * W});`);
  for (let i = 0; i < (s.rounds * W) / 16; i++) out.push(`  v128.store(WK, z, ${16 * i});`);
  out.push(`}`);
  return out.flatMap((line) => fit(/^ */.exec(line)[0], line.trimStart())).join('\n') + '\n';
}

const root = process.argv[2]
  ? pathToFileURL(process.argv[2].replace(/\/?$/, '/'))
  : new URL('../assembly/', import.meta.url);
for (const bits of [256, 512]) writeFileSync(new URL(`sha${bits}-rounds.ts`, root), generate(bits));
console.log(`wrote sha256-rounds.ts and sha512-rounds.ts in ${root.pathname}`);
