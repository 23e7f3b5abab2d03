// SHA-256 (FIPS 180-4 §6.2) over fixed contexts in linear memory.
//
// Context layout (SHA256_CTX bytes):
//   [0, 32)   state H0..H7, native-endian u32
//   [32, 96)  partial block buffer
//   [96, 104) total bytes absorbed, u64

export const SHA256_BLOCK: u32 = 64;
export const SHA256_DIGEST: u32 = 32;
export const SHA256_CTX: u32 = 104;

const CTX_BUF: usize = 32;
const CTX_TOTAL: usize = 96;

// FIPS 180-4 §4.2.2: first 32 bits of the fractional parts of the cube roots of the first 64 primes.
// prettier-ignore
const K: usize = memory.data<u32>([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

// FIPS 180-4 §5.3.3 initial hash value.
// prettier-ignore
const IV: usize = memory.data<u32>([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** Message schedule scratch, wiped by callers that hash secrets (HMAC import). */
export const SHA256_W: usize = memory.data(64 * 4, 16);

/** Read a big-endian u32. */
// @ts-ignore: decorator
@inline export function loadBe32(p: usize): u32 {
  return bswap<u32>(load<u32>(p));
}

/** Write a big-endian u32. */
// @ts-ignore: decorator
@inline export function storeBe32(p: usize, v: u32): void {
  store<u32>(p, bswap<u32>(v));
}

/** Compress `blocks` consecutive 64-byte blocks at `data` into the state at `h`. */
export function sha256Compress(h: usize, data: usize, blocks: usize): void {
  const w = SHA256_W;
  let h0 = load<u32>(h, 0), h1 = load<u32>(h, 4), h2 = load<u32>(h, 8), h3 = load<u32>(h, 12);
  let h4 = load<u32>(h, 16), h5 = load<u32>(h, 20), h6 = load<u32>(h, 24), h7 = load<u32>(h, 28);
  for (let blk: usize = 0; blk < blocks; blk++) {
    const p = data + (blk << 6);
    for (let i: usize = 0; i < 16; i++) {
      store<u32>(w + (i << 2), loadBe32(p + (i << 2)));
    }
    for (let i: usize = 16; i < 64; i++) {
      const w15 = load<u32>(w + ((i - 15) << 2));
      const w2 = load<u32>(w + ((i - 2) << 2));
      const s0 = rotr<u32>(w15, 7) ^ rotr<u32>(w15, 18) ^ (w15 >>> 3);
      const s1 = rotr<u32>(w2, 17) ^ rotr<u32>(w2, 19) ^ (w2 >>> 10);
      store<u32>(w + (i << 2), load<u32>(w + ((i - 16) << 2)) + s0 + load<u32>(w + ((i - 7) << 2)) + s1);
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, hh = h7;
    for (let i: usize = 0; i < 64; i++) {
      const S1 = rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = hh + S1 + ch + load<u32>(K + (i << 2)) + load<u32>(w + (i << 2));
      const S0 = rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = S0 + maj;
      hh = g; g = f; f = e; e = d + t1;
      d = c; c = b; b = a; a = t1 + t2;
    }
    h0 += a; h1 += b; h2 += c; h3 += d; h4 += e; h5 += f; h6 += g; h7 += hh;
  }
  store<u32>(h, h0, 0); store<u32>(h, h1, 4); store<u32>(h, h2, 8); store<u32>(h, h3, 12);
  store<u32>(h, h4, 16); store<u32>(h, h5, 20); store<u32>(h, h6, 24); store<u32>(h, h7, 28);
}

export function sha256Init(ctx: usize): void {
  memory.copy(ctx, IV, 32);
  store<u64>(ctx + CTX_TOTAL, 0);
}

/** Start from a saved state that has already absorbed `absorbed` bytes (a multiple of 64). */
export function sha256Resume(ctx: usize, state: usize, absorbed: u64): void {
  memory.copy(ctx, state, 32);
  store<u64>(ctx + CTX_TOTAL, absorbed);
}

export function sha256Update(ctx: usize, data: usize, len: usize): void {
  const total = load<u64>(ctx + CTX_TOTAL);
  store<u64>(ctx + CTX_TOTAL, total + <u64>len);
  const buf = ctx + CTX_BUF;
  let used = <usize>(total & 63);
  if (used != 0) {
    const take = min<usize>(64 - used, len);
    memory.copy(buf + used, data, take);
    used += take; data += take; len -= take;
    if (used < 64) return;
    sha256Compress(ctx, buf, 1);
  }
  const blocks = len >> 6;
  if (blocks != 0) sha256Compress(ctx, data, blocks);
  const rest = len & 63;
  if (rest != 0) memory.copy(buf, data + (blocks << 6), rest);
}

/** Pad (FIPS 180-4 §5.1.1), write the 32-byte digest to `out`, and wipe the context. */
export function sha256Final(ctx: usize, out: usize): void {
  const total = load<u64>(ctx + CTX_TOTAL);
  const buf = ctx + CTX_BUF;
  let used = <usize>(total & 63);
  store<u8>(buf + used, 0x80);
  used++;
  if (used > 56) {
    memory.fill(buf + used, 0, 64 - used);
    sha256Compress(ctx, buf, 1);
    used = 0;
  }
  memory.fill(buf + used, 0, 56 - used);
  const bits = total << 3;
  storeBe32(buf + 56, <u32>(bits >>> 32));
  storeBe32(buf + 60, <u32>bits);
  sha256Compress(ctx, buf, 1);
  for (let i: usize = 0; i < 8; i++) storeBe32(out + (i << 2), load<u32>(ctx + (i << 2)));
  memory.fill(ctx, 0, SHA256_CTX);
}
