// SHA-512 and SHA-384 (FIPS 180-4 §6.4, §6.5) over fixed contexts in linear memory.
//
// Context layout (SHA512_CTX bytes):
//   [0, 64)    state H0..H7, native-endian u64
//   [64, 192)  partial block buffer
//   [192, 200) total bytes absorbed, u64 (messages here are far below 2^61 bytes,
//              so the high half of the 128-bit length field is always zero)

export const SHA512_BLOCK: u32 = 128;
export const SHA512_DIGEST: u32 = 64;
export const SHA384_DIGEST: u32 = 48;
export const SHA512_CTX: u32 = 200;

const CTX_BUF: usize = 64;
const CTX_TOTAL: usize = 192;

// FIPS 180-4 §4.2.3: first 64 bits of the fractional parts of the cube roots of the first 80 primes.
// prettier-ignore
const K: usize = memory.data<u64>([
  0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
  0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
  0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
  0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
  0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
  0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
  0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
  0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
  0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
  0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
  0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
  0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
  0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
  0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
  0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
  0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
]);

// FIPS 180-4 §5.3.5 (SHA-512) and §5.3.4 (SHA-384) initial hash values.
// prettier-ignore
const IV512: usize = memory.data<u64>([
  0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
  0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
]);
// prettier-ignore
const IV384: usize = memory.data<u64>([
  0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
  0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4,
]);

/** Message schedule scratch, wiped by callers that hash secrets (HMAC import). */
export const SHA512_W: usize = memory.data(80 * 8, 16);

// @ts-ignore: decorator
@inline export function loadBe64(p: usize): u64 {
  return bswap<u64>(load<u64>(p));
}

// @ts-ignore: decorator
@inline export function storeBe64(p: usize, v: u64): void {
  store<u64>(p, bswap<u64>(v));
}

/** Compress `blocks` consecutive 128-byte blocks at `data` into the state at `h`. */
export function sha512Compress(h: usize, data: usize, blocks: usize): void {
  const w = SHA512_W;
  let h0 = load<u64>(h, 0), h1 = load<u64>(h, 8), h2 = load<u64>(h, 16), h3 = load<u64>(h, 24);
  let h4 = load<u64>(h, 32), h5 = load<u64>(h, 40), h6 = load<u64>(h, 48), h7 = load<u64>(h, 56);
  for (let blk: usize = 0; blk < blocks; blk++) {
    const p = data + (blk << 7);
    for (let i: usize = 0; i < 16; i++) {
      store<u64>(w + (i << 3), loadBe64(p + (i << 3)));
    }
    for (let i: usize = 16; i < 80; i++) {
      const w15 = load<u64>(w + ((i - 15) << 3));
      const w2 = load<u64>(w + ((i - 2) << 3));
      const s0 = rotr<u64>(w15, 1) ^ rotr<u64>(w15, 8) ^ (w15 >>> 7);
      const s1 = rotr<u64>(w2, 19) ^ rotr<u64>(w2, 61) ^ (w2 >>> 6);
      store<u64>(w + (i << 3), load<u64>(w + ((i - 16) << 3)) + s0 + load<u64>(w + ((i - 7) << 3)) + s1);
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, hh = h7;
    for (let i: usize = 0; i < 80; i++) {
      const S1 = rotr<u64>(e, 14) ^ rotr<u64>(e, 18) ^ rotr<u64>(e, 41);
      const ch = (e & f) ^ (~e & g);
      const t1 = hh + S1 + ch + load<u64>(K + (i << 3)) + load<u64>(w + (i << 3));
      const S0 = rotr<u64>(a, 28) ^ rotr<u64>(a, 34) ^ rotr<u64>(a, 39);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = S0 + maj;
      hh = g; g = f; f = e; e = d + t1;
      d = c; c = b; b = a; a = t1 + t2;
    }
    h0 += a; h1 += b; h2 += c; h3 += d; h4 += e; h5 += f; h6 += g; h7 += hh;
  }
  store<u64>(h, h0, 0); store<u64>(h, h1, 8); store<u64>(h, h2, 16); store<u64>(h, h3, 24);
  store<u64>(h, h4, 32); store<u64>(h, h5, 40); store<u64>(h, h6, 48); store<u64>(h, h7, 56);
}

/** Start a SHA-512 (`is384` false) or SHA-384 context. */
export function sha512Init(ctx: usize, is384: bool): void {
  memory.copy(ctx, is384 ? IV384 : IV512, 64);
  store<u64>(ctx + CTX_TOTAL, 0);
}

/** Start from a saved state that has already absorbed `absorbed` bytes (a multiple of 128). */
export function sha512Resume(ctx: usize, state: usize, absorbed: u64): void {
  memory.copy(ctx, state, 64);
  store<u64>(ctx + CTX_TOTAL, absorbed);
}

export function sha512Update(ctx: usize, data: usize, len: usize): void {
  const total = load<u64>(ctx + CTX_TOTAL);
  store<u64>(ctx + CTX_TOTAL, total + <u64>len);
  const buf = ctx + CTX_BUF;
  let used = <usize>(total & 127);
  if (used != 0) {
    const take = min<usize>(128 - used, len);
    memory.copy(buf + used, data, take);
    used += take; data += take; len -= take;
    if (used < 128) return;
    sha512Compress(ctx, buf, 1);
  }
  const blocks = len >> 7;
  if (blocks != 0) sha512Compress(ctx, data, blocks);
  const rest = len & 127;
  if (rest != 0) memory.copy(buf, data + (blocks << 7), rest);
}

/**
 * Pad (FIPS 180-4 §5.1.2), write `digestLen` bytes (64 for SHA-512, 48 for SHA-384)
 * to `out`, and wipe the context.
 */
export function sha512Final(ctx: usize, out: usize, digestLen: u32): void {
  const total = load<u64>(ctx + CTX_TOTAL);
  const buf = ctx + CTX_BUF;
  let used = <usize>(total & 127);
  store<u8>(buf + used, 0x80);
  used++;
  if (used > 112) {
    memory.fill(buf + used, 0, 128 - used);
    sha512Compress(ctx, buf, 1);
    used = 0;
  }
  memory.fill(buf + used, 0, 120 - used);
  storeBe64(buf + 120, total << 3);
  sha512Compress(ctx, buf, 1);
  const words = <usize>(digestLen >> 3);
  for (let i: usize = 0; i < words; i++) storeBe64(out + (i << 3), load<u64>(ctx + (i << 3)));
  memory.fill(ctx, 0, SHA512_CTX);
}
