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

// FIPS 180-4 §5.3.3 initial hash value.
// prettier-ignore
const IV: usize = memory.data<u32>([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

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

/**
 * Compress `blocks` consecutive blocks at `data` into the state at `h` (looped at first, then unrolled: see
 * ./sha2-first-use).
 */
import { sha256Compress } from './sha2-first-use';
export { sha256Compress };

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
