// Strict base64url (RFC 7515 §2: RFC 4648 §5 without padding) for token segments.
// Decoding happens where the token already is (INPUT), so JS never scans it twice.
// Canonical only: the alphabet A-Z a-z 0-9 - _, no padding or whitespace, a length
// that is not 1 mod 4, and zero unused bits in the last character — every byte
// string then has exactly one accepted encoding.

const BAD: u32 = 0xff;

// Character code -> 6-bit value (A-Z 0-25, a-z 26-51, 0-9 52-61, '-' 62, '_' 63),
// BAD (0xff) for every other code. Data, not a loop at instantiation: the module
// has no start function, so instantiating it compiles and runs none of its code.
// prettier-ignore
const VALUE: usize = memory.data<u8>([
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x3e, 0xff, 0xff,
  0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
  0xff, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e,
  0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0xff, 0xff, 0xff, 0xff, 0x3f,
  0xff, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
  0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f, 0x30, 0x31, 0x32, 0x33, 0xff, 0xff, 0xff, 0xff, 0xff,
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
]);

// Per-lane constants of the SIMD loop, 16 bytes each: range bounds ('A' 'Z' 'a'
// 'z' '0' '9' '-' '_'), then the distance from each character class to its 6-bit
// value (as u8: -65, -71, +4, +17, -32), then the packing masks (u16 0x3f, u32 0xffff).
// prettier-ignore
const LANES: usize = memory.data<u64>([
  0x4141414141414141, 0x4141414141414141, 0x5a5a5a5a5a5a5a5a, 0x5a5a5a5a5a5a5a5a,
  0x6161616161616161, 0x6161616161616161, 0x7a7a7a7a7a7a7a7a, 0x7a7a7a7a7a7a7a7a,
  0x3030303030303030, 0x3030303030303030, 0x3939393939393939, 0x3939393939393939,
  0x2d2d2d2d2d2d2d2d, 0x2d2d2d2d2d2d2d2d, 0x5f5f5f5f5f5f5f5f, 0x5f5f5f5f5f5f5f5f,
  0xbfbfbfbfbfbfbfbf, 0xbfbfbfbfbfbfbfbf, 0xb9b9b9b9b9b9b9b9, 0xb9b9b9b9b9b9b9b9,
  0x0404040404040404, 0x0404040404040404, 0x1111111111111111, 0x1111111111111111,
  0xe0e0e0e0e0e0e0e0, 0xe0e0e0e0e0e0e0e0, 0x003f003f003f003f, 0x003f003f003f003f,
  0x0000ffff0000ffff, 0x0000ffff0000ffff,
], 16);

// @ts-ignore: decorator
@inline function value(c: u32): u32 {
  return <u32>load<u8>(VALUE + c);
}

/** Bytes that `len` base64url characters decode to, or -1 for an impossible length. */
export function decodedLength(len: u32): i32 {
  const rem = len & 3;
  if (rem == 1) return -1;
  return <i32>((len >> 2) * 3 + (rem == 0 ? 0 : rem - 1));
}

/**
 * Decode `len` characters at `src` to `dst`; returns the byte count, or -1 if the
 * text is not canonical base64url. May write up to 4 bytes past the result (the
 * destination regions keep that slack).
 */
export function decodeBase64Url(src: usize, len: u32, dst: usize): i32 {
  const n = decodedLength(len);
  if (n < 0) return -1;
  let i = src;
  let o = dst;
  const end = src + <usize>len;
  // 16 characters -> 12 bytes per step, classified and packed in SIMD lanes. The
  // constants are loaded from memory once: V8 rebuilds a v128.const at every use.
  const k = LANES;
  const cA = v128.load(k, 0), cZ = v128.load(k, 16), ca = v128.load(k, 32), cz = v128.load(k, 48);
  const c0 = v128.load(k, 64), c9 = v128.load(k, 80), cDash = v128.load(k, 96), cUnder = v128.load(k, 112);
  const dUpper = v128.load(k, 128), dLower = v128.load(k, 144), dDigit = v128.load(k, 160);
  const dDash = v128.load(k, 176), dUnder = v128.load(k, 192), m6 = v128.load(k, 208), m16 = v128.load(k, 224);
  let valid = i8x16.eq(cA, cA);
  while (i + 16 <= end) {
    const v = v128.load(i);
    const upper = v128.and(i8x16.ge_u(v, cA), i8x16.le_u(v, cZ));
    const lower = v128.and(i8x16.ge_u(v, ca), i8x16.le_u(v, cz));
    const digit = v128.and(i8x16.ge_u(v, c0), i8x16.le_u(v, c9));
    const dash = i8x16.eq(v, cDash);
    const under = i8x16.eq(v, cUnder);
    valid = v128.and(valid, v128.or(v128.or(upper, lower), v128.or(v128.or(digit, dash), under)));
    // Add to each character the distance to its 6-bit value (see VALUE).
    const shift = v128.or(
      v128.or(v128.and(upper, dUpper), v128.and(lower, dLower)),
      v128.or(v128.and(digit, dDigit), v128.or(v128.and(dash, dDash), v128.and(under, dUnder))),
    );
    const six = i8x16.add(v, shift);
    // Pairs of 6-bit values to 12 bits per 16-bit lane, pairs of those to 24 bits per 32-bit lane.
    const twelve = v128.or(i16x8.shl(v128.and(six, m6), 6), i16x8.shr_u(six, 8));
    const word = v128.or(i32x4.shl(v128.and(twelve, m16), 12), i32x4.shr_u(twelve, 16));
    // Most significant byte first, 12 bytes; the last 4 are overwritten by the next step.
    v128.store(o, i8x16.shuffle(word, word, 2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, 3, 7, 11, 15));
    i += 16;
    o += 12;
  }
  let bad: u32 = i8x16.all_true(valid) ? 0 : BAD;
  const quads = i + <usize>((<u32>(end - i)) & ~3);
  for (; i < quads; i += 4) {
    const w = load<u32>(i);
    const a = value(w & 0xff);
    const b = value((w >> 8) & 0xff);
    const c = value((w >> 16) & 0xff);
    const d = value(w >> 24);
    bad |= a | b | c | d;
    // 24 bits, most significant first; one 4-byte store, the 4th byte is overwritten next.
    store<u32>(o, bswap<u32>(((a << 18) | (b << 12) | (c << 6) | d) << 8));
    o += 3;
  }
  const rem = len & 3;
  if (rem != 0) {
    const a = value(load<u8>(i));
    const b = value(load<u8>(i, 1));
    bad |= a | b;
    store<u8>(o, <u8>((a << 2) | (b >> 4)));
    if (rem == 2) {
      bad |= b & 0x0f ? BAD : 0; // unused low bits must be zero
    } else {
      const c = value(load<u8>(i, 2));
      bad |= c | (c & 0x03 ? BAD : 0);
      store<u8>(o, <u8>((b << 4) | (c >> 2)), 1);
    }
  }
  // Valid values are below 64: only BAD sets bit 7.
  return bad & 0x80 ? -1 : n;
}

// ---- encoding (the HMAC signer writes its token with it) ----

// 6-bit value -> character of the URL alphabet (A-Z a-z 0-9 - _).
// prettier-ignore
const CHAR: usize = memory.data<u8>([
  0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50,
  0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66,
  0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76,
  0x77, 0x78, 0x79, 0x7a, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x2d, 0x5f,
]);

// Per-lane constants of the SIMD encoder (loaded once per call, as above), as u32
// lanes: the masks and multipliers that pick the four 6-bit values out of each
// 3-byte group (first value: bits 15..10 of the gathered word; third; second and
// fourth; the 16-bit multipliers that shift them left by 4 and 8), the thresholds
// of the character classes (51, 26, 13 in every byte), the class -> distance-to-
// character table (class 0: a-z +71; 1..10: 0-9 -4; 11: '-' -17; 12: '_' +32;
// 13: A-Z +65; as u8), and the byte gather: group g (bytes 3g, 3g+1, 3g+2) to lane
// g as (b1, b0, b2, b1) (a swizzle of a loaded mask: V8 rebuilds a shuffle's
// immediate mask in every iteration).
// prettier-ignore
const ENC: usize = memory.data<u32>([
  0x0000fc00, 0x0000fc00, 0x0000fc00, 0x0000fc00,
  0x0fc00000, 0x0fc00000, 0x0fc00000, 0x0fc00000,
  0x003f03f0, 0x003f03f0, 0x003f03f0, 0x003f03f0,
  0x01000010, 0x01000010, 0x01000010, 0x01000010,
  0x33333333, 0x33333333, 0x33333333, 0x33333333,
  0x1a1a1a1a, 0x1a1a1a1a, 0x1a1a1a1a, 0x1a1a1a1a,
  0x0d0d0d0d, 0x0d0d0d0d, 0x0d0d0d0d, 0x0d0d0d0d,
  0xfcfcfc47, 0xfcfcfcfc, 0xeffcfcfc, 0xfcfc4120,
  0x01020001, 0x04050304, 0x07080607, 0x0a0b090a,
], 16);

/** Characters that `len` bytes encode to (unpadded). */
export function encodedLength(len: u32): u32 {
  return (len / 3) * 4 + (len % 3 == 0 ? 0 : len % 3 + 1);
}

/**
 * Encode `len` bytes at `src` as unpadded base64url at `dst`; returns the character
 * count. Reads no byte past `src + len` and writes none past the result. What it
 * encodes is public (a token's payload and its tag), so the table lookups of the
 * scalar tail need not be constant time.
 */
export function encodeBase64Url(src: usize, len: u32, dst: usize): u32 {
  let i = src;
  let o = dst;
  const end = src + <usize>len;
  const k = ENC;
  const m0 = v128.load(k, 0), m2 = v128.load(k, 16), m13 = v128.load(k, 32), mul = v128.load(k, 48);
  const c51 = v128.load(k, 64), c26 = v128.load(k, 80), c13 = v128.load(k, 96), lut = v128.load(k, 112);
  const gather = v128.load(k, 128);
  // 12 bytes -> 16 characters per step (16 bytes loaded, the last 4 unused).
  while (i + 16 <= end) {
    const v = v128.load(i);
    // Each 32-bit lane gets bytes (b1, b0, b2, b1) of its group: little-endian, the
    // low half is b0:b1 and the high half b1:b2, big-endian 16-bit words.
    const w = i8x16.swizzle(v, gather);
    const six = v128.or(
      v128.or(i32x4.shr_u(v128.and(w, m0), 10), i32x4.shr_u(v128.and(w, m2), 6)),
      i16x8.mul(v128.and(w, m13), mul),
    );
    // Class of each value (see lut), then the distance from value to character. The
    // values are below 64, so a signed compare is exact (and one x64 instruction).
    const cls = v128.or(i8x16.sub_sat_u(six, c51), v128.and(i8x16.gt_s(c26, six), c13));
    v128.store(o, i8x16.add(six, i8x16.swizzle(lut, cls)));
    i += 12;
    o += 16;
  }
  for (; i + 3 <= end; i += 3) {
    const n = (<u32>load<u8>(i) << 16) | (<u32>load<u8>(i, 1) << 8) | <u32>load<u8>(i, 2);
    store<u8>(o, load<u8>(CHAR + (n >> 18)));
    store<u8>(o, load<u8>(CHAR + ((n >> 12) & 63)), 1);
    store<u8>(o, load<u8>(CHAR + ((n >> 6) & 63)), 2);
    store<u8>(o, load<u8>(CHAR + (n & 63)), 3);
    o += 4;
  }
  const rem = <u32>(end - i);
  if (rem != 0) {
    const n = (<u32>load<u8>(i) << 16) | (rem == 2 ? <u32>load<u8>(i, 1) << 8 : 0);
    store<u8>(o, load<u8>(CHAR + (n >> 18)));
    store<u8>(o, load<u8>(CHAR + ((n >> 12) & 63)), 1);
    o += 2;
    if (rem == 2) {
      store<u8>(o, load<u8>(CHAR + ((n >> 6) & 63)));
      o += 1;
    }
  }
  return <u32>(o - dst);
}
