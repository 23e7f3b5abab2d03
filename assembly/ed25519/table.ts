// Fixed-base tables: for a point P, entry (i, m) holds m * 2^(W i) * P in Niels form,
// for every digit position i and 1 <= m <= 2^(W-1). With signed radix-2^W digits
// of a scalar, [s]P is then a sum of one entry per non-zero digit and needs no
// doublings. verify.ts builds them lazily: a key's once it has been used HOT_AFTER
// times, B's with the first such key (once per instance).
// Public data only: lookups are indexed by the (public) scalar digits.

import { FE, feMul, feInvert } from './field';
import { arenaAlloc } from '../arena';
import { PT, NIELS, ptAdd, ptAddNiels, ptDouble, ptCopy, ptIdentity, nielsFromAffine } from './point';

/**
 * Window width, chosen by measurement (bench/core/ed25519-variants.mjs): 6 keeps a key's
 * table at 161 KiB and its import near 1 ms. At most 7: digits are stored as i8.
 */
export const W: u32 = 6;
/** Digit positions for scalars below 2^253. */
export const POSITIONS: u32 = (253 + W - 1) / W;
export const PER_POSITION: u32 = 1 << (W - 1);
export const ENTRIES: u32 = POSITIONS * PER_POSITION;
export const TABLE_BYTES: usize = <usize>ENTRIES * NIELS;

// Scratch for building: every entry in extended form, then the running products of
// their Z for one shared inversion (Montgomery's trick). Allocated on first build.
let ext: usize = 0;
let prefix: usize = 0;
const Q: usize = memory.data(4 * 40, 8);
const INV: usize = memory.data(40, 8);
const TMP: usize = memory.data(40, 8);
const AX: usize = memory.data(40, 8);
const AY: usize = memory.data(40, 8);

/** Fill `tab` (TABLE_BYTES) with the multiples of the extended point `p`; false if out of memory. */
export function buildTable(tab: usize, p: usize): bool {
  if (ext == 0) {
    ext = arenaAlloc(<usize>ENTRIES * (PT + FE));
    if (ext == 0) return false;
    prefix = ext + <usize>ENTRIES * PT;
  }
  ptCopy(Q, p);
  const per = <usize>PER_POSITION;
  const count = <usize>ENTRIES;
  for (let i: usize = 0; i < <usize>POSITIONS; i++) {
    const row = ext + i * per * PT;
    ptCopy(row, Q);
    for (let m: usize = 1; m < per; m++) ptAdd(row + m * PT, row + (m - 1) * PT, Q);
    ptDouble(Q, row + (per - 1) * PT); // 2 * 2^(W-1) * Q = 2^W * Q
  }
  // Montgomery's trick: prefix[j] = Z_0 ... Z_j; one inversion, then walk back.
  const z: usize = 2 * FE;
  memory.copy(prefix, ext + z, FE);
  for (let j: usize = 1; j < count; j++) {
    feMul(prefix + j * FE, prefix + (j - 1) * FE, ext + j * PT + z);
  }
  feInvert(INV, prefix + (count - 1) * FE);
  for (let j = <isize>count - 1; j >= 0; j--) {
    const e = ext + <usize>j * PT;
    if (j > 0) {
      feMul(TMP, INV, prefix + <usize>(j - 1) * FE); // 1 / Z_j
      feMul(INV, INV, e + z);
    } else {
      memory.copy(TMP, INV, FE);
    }
    feMul(AX, e, TMP);
    feMul(AY, e + FE, TMP);
    nielsFromAffine(tab + <usize>j * NIELS, AX, AY);
  }
  return true;
}

/**
 * acc = sum over positions of d1_i-th entry of tab1 plus (negated) d2_i-th entry
 * of tab2, digits as from scDigits: [s1]P1 - [s2]P2 when `negate2`.
 */
export function sumDigits(acc: usize, tab1: usize, d1: usize, tab2: usize, d2: usize, negate2: bool): void {
  ptIdentity(acc);
  for (let i: u32 = 0; i < POSITIONS; i++) {
    const row = <usize>(i * PER_POSITION);
    const a = <i32>load<i8>(d1 + i);
    if (a != 0) ptAddNiels(acc, acc, tab1 + (row + <usize>(abs(a) - 1)) * NIELS, a < 0);
    const b = <i32>load<i8>(d2 + i);
    if (b != 0) ptAddNiels(acc, acc, tab2 + (row + <usize>(abs(b) - 1)) * NIELS, (b < 0) != negate2);
  }
}
