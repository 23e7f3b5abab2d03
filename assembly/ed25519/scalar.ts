// Scalars mod L = 2^252 + 27742317777372353535851937790883648493 (RFC 8032 §5.1):
// the S < L check, reduction of the 64-byte challenge hash, and signed-window
// recoding for the table lookups. Public data only: variable time is fine.

import { L_BYTES } from './constants';

/** RFC 8032 §5.1.7 step 1: S (32 bytes, little-endian) must be < L. */
export function scIsCanonical(s: usize): bool {
  for (let i: isize = 31; i >= 0; i--) {
    const a = load<u8>(s + i);
    const b = load<u8>(L_BYTES + i);
    if (a != b) return a < b;
  }
  return false; // S = L
}

const X: usize = memory.data(64 * 8, 8);

// @ts-ignore: decorator
@inline function xs(i: usize): i64 { return load<i64>(X + (i << 3)); }
// @ts-ignore: decorator
@inline function xset(i: usize, v: i64): void { store<i64>(X + (i << 3), v); }

// Floor-carry bytes from..to-1 into `to`.
function carry(from: usize, to: usize): void {
  for (let m = from; m < to; m++) {
    const v = xs(m);
    const c = v >> 8;
    xset(m, v - (c << 8));
    xset(m + 1, xs(m + 1) + c);
  }
}

// Adds sign * L to the 32 bytes in X and carries (sign is +1 or -1).
function addL(sign: i64): void {
  for (let j: usize = 0; j < 32; j++) xset(j, xs(j) + sign * <i64>load<u8>(L_BYTES + j));
  carry(0, 31);
}

/**
 * out (32 bytes) = h (64 bytes, little-endian) mod L, fully reduced to [0, L).
 * The exact residue matters: for a key with a torsion component, [k]A depends on
 * k itself, and OpenSSL/BoringSSL use k mod L (RFC 8032 §5.1.7 step 2).
 */
export function scReduce(out: usize, h: usize): void {
  for (let i: usize = 0; i < 64; i++) xset(i, <i64>load<u8>(h + i));
  // 2^256 = 16 * 2^252 = -16c (mod L), c = L - 2^252 (16 bytes): fold bytes 63..32
  // onto bytes i-32 .. i-17, with no carries in between. Bounds: bytes 47..63 are
  // never folded onto, so they stay < 2^8; bytes 32..46 collect at most 16 terms of
  // 16 * 2^8 * 2^8, under 2^24; bytes 0..31 then collect at most 32 terms of
  // 16 * 2^24 * 2^8, under 2^42. All far inside i64.
  for (let i: usize = 63; i >= 32; i--) {
    const t = xs(i) << 4;
    if (t == 0) continue;
    const base = i - 32;
    for (let j: usize = 0; j < 16; j++) xset(base + j, xs(base + j) - t * <i64>load<u8>(L_BYTES + j));
  }
  carry(0, 31);
  // v = q 2^252 + r with 0 <= r < 2^252 and |q| < 2^40, so v - qL = r - qc lies in (-L, 2L).
  const q = xs(31) >> 4;
  addL(-q);
  if (xs(31) < 0) addL(1);
  else if (!lessThanL()) addL(-1);
  for (let i: usize = 0; i < 32; i++) store<u8>(out + i, <u8>xs(i));
}

function lessThanL(): bool {
  for (let i: isize = 31; i >= 0; i--) {
    const a = xs(<usize>i);
    const b = <i64>load<u8>(L_BYTES + i);
    if (a != b) return a < b;
  }
  return false;
}

const PAD: usize = memory.data(40, 8);

/**
 * Signed radix-2^w digits of a scalar s < 2^253 (32 bytes): s = sum d_i 2^(wi),
 * -2^(w-1) < d_i <= 2^(w-1), `n` digits as i8 at `out`.
 */
export function scDigits(out: usize, s: usize, w: u32, n: u32): void {
  memory.copy(PAD, s, 32);
  store<u64>(PAD + 32, 0);
  const half: i32 = 1 << (w - 1);
  const mask: u64 = (1 << w) - 1;
  let carryIn: i32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    const bit = i * w;
    let d = <i32>((load<u64>(PAD + (bit >> 3)) >> (bit & 7)) & mask) + carryIn;
    carryIn = 0;
    if (d > half) {
      d -= 1 << w;
      carryIn = 1;
    }
    store<i8>(out + i, <i8>d);
  }
}
