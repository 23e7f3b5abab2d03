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

// @ts-ignore: decorator
@inline export function loadBe64(p: usize): u64 {
  return bswap<u64>(load<u64>(p));
}

// @ts-ignore: decorator
@inline export function storeBe64(p: usize, v: u64): void {
  store<u64>(p, bswap<u64>(v));
}

/**
 * Compress `blocks` consecutive blocks at `data` into the state at `h` (looped at first, then unrolled: see
 * ./sha2-first-use).
 */
import { sha512Compress } from './sha2-first-use';
export { sha512Compress };

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
