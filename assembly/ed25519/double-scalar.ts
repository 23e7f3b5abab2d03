// Table-free R' = [S]B - [k]A for RFC 8032 §5.1.7 step 3, used while a key is
// still cold (verify.ts builds the big fixed-base tables only for keys in steady
// use). Both scalars are recoded in width-w NAF and share one chain of about 253
// doublings; each non-zero digit adds one odd multiple: of B from the constant
// table in ./base-odd (w = 7), of A from 8 cached points computed per call (w = 5).
// Cost, counted in field multiplies: ~253 doublings x 7, ~42 additions of A x 8,
// ~32 of B x 7 and ~70 to prepare A's multiples: about 2,400, against ~600 for
// the table path (86 table additions). Measured warm in Node 22 (bench/core/ed25519-cold.ts),
// a whole verify takes about 140 µs this way against 60 µs with tables (2.3x, the
// SHA-512 and the final inversion being common), and needs no memory beyond this module's.
//
// Public data only (key, message, signature): digits pick entries by value and
// the loop branches on them. Variable time is fine here.

import { PT, NIELS, CACHED, ptIdentity, ptDouble, ptAddNiels, ptAddCached, ptToCached } from './point';
import { BASE_ODD, BASE_ODD_W } from './base-odd';

/** wNAF width for k (A's odd multiples A, 3A, ..., 15A). */
export const A_ODD_W: u32 = 5;
const A_ODD_COUNT: u32 = 1 << (A_ODD_W - 2);

/** Digits for any 256-bit scalar: positions 0..256 (the last one takes a final carry). */
export const WNAF_DIGITS: u32 = 257;

const PAD: usize = memory.data(48, 16);

/**
 * Width-w NAF of the 32-byte little-endian scalar at `s` (2 <= w <= 8): writes
 * WNAF_DIGITS i8 digits to `out` with s = sum out[i] 2^i, every non-zero digit
 * odd and below 2^(w-1) in magnitude, and any w consecutive digits holding at
 * most one non-zero. Returns 1 + the index of the highest non-zero digit (0 for s = 0).
 */
export function scWnaf(out: usize, s: usize, w: u32): u32 {
  memory.copy(PAD, s, 32);
  memory.fill(PAD + 32, 0, 16);
  memory.fill(out, 0, WNAF_DIGITS);
  const mask: u64 = (1 << w) - 1;
  const half: i32 = 1 << (w - 1);
  // The value still to recode is (s >> i) + carry; its low w bits are the window.
  let carry: i32 = 0;
  let top: u32 = 0;
  let i: u32 = 0;
  while (i < WNAF_DIGITS) {
    const v = <i32>((load<u64>(PAD + (i >> 3)) >> (i & 7)) & mask) + carry;
    if ((v & 1) == 0) {
      // Even: digit 0. The carry (if any) is still pending at the next bit.
      i++;
      continue;
    }
    // Odd v < 2^w: take d = v mods 2^w; the rest, v - d, is 0 or 2^w (a carry).
    const d = v < half ? v : v - (1 << w);
    store<i8>(out + i, <i8>d);
    carry = d < 0 ? 1 : 0;
    top = i + 1;
    i += w;
  }
  return top;
}

const NAF_S: usize = memory.data(<i32>WNAF_DIGITS, 16);
const NAF_K: usize = memory.data(<i32>WNAF_DIGITS, 16);
const ODD_A: usize = memory.data(<i32>(A_ODD_COUNT * <u32>CACHED), 8);
const TWO_A: usize = memory.data(<i32>CACHED, 8);
const RUN: usize = memory.data(<i32>PT, 8);

/**
 * acc = [s]B - [k]A for 32-byte little-endian scalars s and k (any 256-bit values)
 * and the extended point `a`. acc's X, Y, Z are exact; its T may be stale (the
 * last step can be a doubling without T), which ptEncode does not read.
 */
export function doubleScalarMul(acc: usize, s: usize, a: usize, k: usize): void {
  const topS = scWnaf(NAF_S, s, BASE_ODD_W);
  const topK = scWnaf(NAF_K, k, A_ODD_W);
  // A, 3A, 5A, ..., 15A in cached form: one doubling and 7 additions of 2A.
  ptToCached(ODD_A, a);
  ptDouble(RUN, a);
  ptToCached(TWO_A, RUN);
  memory.copy(RUN, a, PT);
  for (let j: u32 = 1; j < A_ODD_COUNT; j++) {
    ptAddCached(RUN, RUN, TWO_A, false);
    ptToCached(ODD_A + <usize>j * CACHED, RUN);
  }
  ptIdentity(acc);
  for (let i = <i32>max(topS, topK) - 1; i >= 0; i--) {
    const ds = <i32>load<i8>(NAF_S + <usize>i);
    const dk = <i32>load<i8>(NAF_K + <usize>i);
    // T is needed only by an addition right after this doubling.
    ptDouble(acc, acc, ds != 0 || dk != 0);
    // Subtract [k]A: a positive digit of k subtracts, a negative one adds.
    if (dk != 0) ptAddCached(acc, acc, ODD_A + <usize>((abs(dk) - 1) >> 1) * CACHED, dk > 0);
    if (ds != 0) ptAddNiels(acc, acc, BASE_ODD + <usize>((abs(ds) - 1) >> 1) * NIELS, ds < 0);
  }
}
