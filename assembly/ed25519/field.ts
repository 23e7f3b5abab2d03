// Arithmetic mod p = 2^255 - 19 (RFC 8032 §5.1) on 10 signed i32 limbs in linear
// memory, radix 2^25.5: limb k sits at bit 25k + ceil(k/2), 26 bits wide for even k
// and 25 for odd k. A field element (fe) takes FE = 40 bytes.
//
// Bounds. feMul/feSq (./field-mul, generated) load limbs as i64: with inputs whose
// limbs stay below 1.5 * 2^27 (even) and 1.5 * 2^26 (odd) in magnitude, every
// column sum stays below 2^62.2 (scripts/gen-ed25519-field-spec.mjs computes that
// worst case and the spec multiplies vectors at those limits). So the output of a
// multiply may go through one add/sub (or a doubling plus an add) before the next
// multiply without a carry; point.ts keeps to that.
//
// Everything here handles public data only (signature verification): the
// encode/decode helpers branch on values, which is fine for verification.

export { feMul, feSq, feSqN } from './field-mul';
import { feMul, feSq, feSqN } from './field-mul';

export const FE: usize = 40;

// @ts-ignore: decorator
@inline export function feZero(h: usize): void {
  memory.fill(h, 0, FE);
}

// @ts-ignore: decorator
@inline export function feOne(h: usize): void {
  memory.fill(h, 0, FE);
  store<i32>(h, 1);
}

// @ts-ignore: decorator
@inline export function feCopy(h: usize, f: usize): void {
  memory.copy(h, f, FE);
}

// Unrolled: these run six times per point addition.
/** h = f + g, limb-wise, no carry. h may alias f or g (each limb is read before it is written). */
export function feAdd(h: usize, f: usize, g: usize): void {
  store<i32>(h, load<i32>(f, 0) + load<i32>(g, 0), 0);
  store<i32>(h, load<i32>(f, 4) + load<i32>(g, 4), 4);
  store<i32>(h, load<i32>(f, 8) + load<i32>(g, 8), 8);
  store<i32>(h, load<i32>(f, 12) + load<i32>(g, 12), 12);
  store<i32>(h, load<i32>(f, 16) + load<i32>(g, 16), 16);
  store<i32>(h, load<i32>(f, 20) + load<i32>(g, 20), 20);
  store<i32>(h, load<i32>(f, 24) + load<i32>(g, 24), 24);
  store<i32>(h, load<i32>(f, 28) + load<i32>(g, 28), 28);
  store<i32>(h, load<i32>(f, 32) + load<i32>(g, 32), 32);
  store<i32>(h, load<i32>(f, 36) + load<i32>(g, 36), 36);
}

/** h = f - g, limb-wise, no carry (limbs may go negative; the multiply is signed). */
export function feSub(h: usize, f: usize, g: usize): void {
  store<i32>(h, load<i32>(f, 0) - load<i32>(g, 0), 0);
  store<i32>(h, load<i32>(f, 4) - load<i32>(g, 4), 4);
  store<i32>(h, load<i32>(f, 8) - load<i32>(g, 8), 8);
  store<i32>(h, load<i32>(f, 12) - load<i32>(g, 12), 12);
  store<i32>(h, load<i32>(f, 16) - load<i32>(g, 16), 16);
  store<i32>(h, load<i32>(f, 20) - load<i32>(g, 20), 20);
  store<i32>(h, load<i32>(f, 24) - load<i32>(g, 24), 24);
  store<i32>(h, load<i32>(f, 28) - load<i32>(g, 28), 28);
  store<i32>(h, load<i32>(f, 32) - load<i32>(g, 32), 32);
  store<i32>(h, load<i32>(f, 36) - load<i32>(g, 36), 36);
}

export function feNeg(h: usize, f: usize): void {
  for (let i: usize = 0; i < FE; i += 4) store<i32>(h + i, -load<i32>(f + i));
}


// @ts-ignore: decorator
@inline function limbBits(k: usize): u32 {
  return 26 - <u32>(k & 1);
}

const BYTES: usize = memory.data(40, 8);

/**
 * Decode 32 little-endian bytes, ignoring bit 255 (the sign of x in a point
 * encoding). Returns false if the 255-bit value is not canonical (>= p), as
 * RFC 8032 §5.1.3 step 1 requires; `h` is written either way.
 */
export function feFromBytes(h: usize, s: usize): bool {
  // Copy into an 8-byte-padded buffer so the u64 reads below stay inside it.
  memory.copy(BYTES, s, 32);
  store<u64>(BYTES + 32, 0);
  store<u8>(BYTES + 31, load<u8>(BYTES + 31) & 0x7f);
  let bit: u32 = 0;
  for (let k: usize = 0; k < 10; k++) {
    const width = limbBits(k);
    const word = load<u64>(BYTES + (bit >> 3)) >> (bit & 7);
    store<i32>(h + (k << 2), <i32>(word & ((1 << width) - 1)));
    bit += width;
  }
  // >= p only for 2^255-19 .. 2^255-1: top byte 0x7f, 0xff in between, low byte >= 0xed.
  if (load<u8>(BYTES + 31) != 0x7f || load<u8>(BYTES) < 0xed) return true;
  for (let i: usize = 1; i < 31; i++) if (load<u8>(BYTES + i) != 0xff) return true;
  return false;
}

const WIDE: usize = memory.data(10 * 8, 8);

// Floor-carry limbs 0..9 through WIDE; returns the carry out of limb 9 (multiples of 2^255).
function carryOnce(): i64 {
  let c: i64 = 0;
  for (let k: usize = 0; k < 10; k++) {
    const width = limbBits(k);
    const v = load<i64>(WIDE + (k << 3)) + c;
    c = v >> width;
    store<i64>(WIDE + (k << 3), v - (c << width));
  }
  return c;
}

/** Encode f as 32 little-endian bytes, fully reduced mod p (bit 255 clear). */
export function feToBytes(s: usize, f: usize): void {
  for (let k: usize = 0; k < 10; k++) store<i64>(WIDE + (k << 3), <i64>load<i32>(f + (k << 2)));
  // Two folds bring any value our limbs can hold into [0, 2^255): 2^255 = 19 mod p.
  // (carryOnce() must run before WIDE[0] is read back: it rewrites limb 0.)
  for (let pass = 0; pass < 2; pass++) {
    const top = carryOnce();
    store<i64>(WIDE, load<i64>(WIDE) + 19 * top);
  }
  carryOnce();
  // Now 0 <= v < 2^255; v >= p exactly when v + 19 reaches 2^255. Then v - p = v + 19 - 2^255.
  let c: i64 = 19;
  for (let k: usize = 0; k < 10; k++) c = (load<i64>(WIDE + (k << 3)) + c) >> limbBits(k);
  store<i64>(WIDE, load<i64>(WIDE) + 19 * c);
  carryOnce(); // drops the 2^255 bit when c = 1
  let acc: u64 = 0;
  let have: u32 = 0;
  let o: usize = 0;
  for (let k: usize = 0; k < 10; k++) {
    acc |= <u64>load<i64>(WIDE + (k << 3)) << have;
    have += limbBits(k);
    while (have >= 8) {
      store<u8>(s + o++, <u8>acc);
      acc >>= 8;
      have -= 8;
    }
  }
  store<u8>(s + 31, <u8>acc); // the last 7 bits
}

const ENC: usize = memory.data(32, 8);

/** True when f = 0 mod p. */
export function feIsZero(f: usize): bool {
  feToBytes(ENC, f);
  return (load<u64>(ENC) | load<u64>(ENC, 8) | load<u64>(ENC, 16) | load<u64>(ENC, 24)) == 0;
}

/** The "sign" of f: its canonical encoding is odd (RFC 8032 §5.1.2). */
export function feIsNegative(f: usize): bool {
  feToBytes(ENC, f);
  return (load<u8>(ENC) & 1) != 0;
}

const T0: usize = memory.data(40, 8);
const T1: usize = memory.data(40, 8);
const T2: usize = memory.data(40, 8);
const T3: usize = memory.data(40, 8);

// z^(2^250 - 1) into T3, z^11 into T0 (shared head of invert and pow22523).
function pow2250m1(z: usize): void {
  feSq(T0, z); //                      z^2
  feSqN(T1, T0, 2); //                 z^8
  feMul(T1, z, T1); //                 z^9
  feMul(T0, T0, T1); //                z^11
  feSq(T2, T0); //                     z^22
  feMul(T1, T1, T2); //                z^31 = z^(2^5 - 1)
  feSqN(T2, T1, 5);
  feMul(T1, T2, T1); //                z^(2^10 - 1)
  feSqN(T2, T1, 10);
  feMul(T2, T2, T1); //                z^(2^20 - 1)
  feSqN(T3, T2, 20);
  feMul(T2, T3, T2); //                z^(2^40 - 1)
  feSqN(T2, T2, 10);
  feMul(T2, T2, T1); //                z^(2^50 - 1)
  feSqN(T3, T2, 50);
  feMul(T3, T3, T2); //                z^(2^100 - 1)
  feSqN(T1, T3, 100);
  feMul(T3, T1, T3); //                z^(2^200 - 1)
  feSqN(T3, T3, 50);
  feMul(T3, T3, T2); //                z^(2^250 - 1)
}

/** h = 1/z = z^(p-2) = z^(2^255 - 21); 1/0 gives 0. */
export function feInvert(h: usize, z: usize): void {
  pow2250m1(z); // T3 = z^(2^250-1), T0 = z^11
  feSqN(T3, T3, 5); // z^(2^255 - 32)
  feMul(h, T3, T0); // z^(2^255 - 21)
}

/** h = z^((p-5)/8) = z^(2^252 - 3), the exponent of the square-root step (RFC 8032 §5.1.3). */
export function fePow22523(h: usize, z: usize): void {
  pow2250m1(z);
  feSqN(T3, T3, 2); // z^(2^252 - 4)
  feMul(h, T3, z); // z^(2^252 - 3)
}
