// Strict base64url (RFC 7515 §2: RFC 4648 §5 without padding) for token segments.
// Decoding happens where the token already is (INPUT), so JS never scans it twice.
// Canonical only: the alphabet A-Z a-z 0-9 - _, no padding or whitespace, a length
// that is not 1 mod 4, and zero unused bits in the last character — every byte
// string then has exactly one accepted encoding.

const BAD: u32 = 0xff;

// Character code -> 6-bit value, BAD for everything else (all 256 codes).
const VALUE: usize = memory.data(256);
for (let c: u32 = 0; c < 256; c++) {
  let v = BAD;
  if (c >= 65 && c <= 90) v = c - 65;
  else if (c >= 97 && c <= 122) v = c - 71;
  else if (c >= 48 && c <= 57) v = c + 4;
  else if (c == 45) v = 62;
  else if (c == 95) v = 63;
  store<u8>(VALUE + c, <u8>v);
}

// Per-lane constants of the SIMD loop: range bounds, then the distance from each
// character class to its 6-bit value, then the packing masks.
const LANES: usize = memory.data(240, 16);
const LANE_BYTES: usize = memory.data<u8>([65, 90, 97, 122, 48, 57, 45, 95, 191, 185, 4, 17, 224]);
for (let j: usize = 0; j < 13; j++) memory.fill(LANES + 16 * j, load<u8>(LANE_BYTES + j), 16);
for (let j: usize = 0; j < 8; j++) store<u16>(LANES + 208 + 2 * j, 0x3f);
for (let j: usize = 0; j < 4; j++) store<u32>(LANES + 224 + 4 * j, 0xffff);

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

// 6-bit value -> character of the URL alphabet.
const CHAR: usize = memory.data(64);
for (let v: u32 = 0; v < 64; v++) {
  store<u8>(CHAR + v, <u8>(v < 26 ? v + 65 : v < 52 ? v + 71 : v < 62 ? v - 4 : v == 62 ? 45 : 95));
}

// Per-lane constants of the SIMD encoder (loaded once per call, as above): the masks
// and multipliers that pick the four 6-bit values out of each 3-byte group, the
// thresholds of the character classes, the class -> distance-to-character table,
// and the byte gather (a swizzle of a loaded mask: V8 rebuilds a shuffle's
// immediate mask in every iteration).
const ENC: usize = memory.data(144, 16);
for (let j: usize = 0; j < 4; j++) {
  store<u32>(ENC + 4 * j, 0x0000fc00); // first value (bits 15..10 of the gathered word)
  store<u32>(ENC + 16 + 4 * j, 0x0fc00000); // third value
  store<u32>(ENC + 32 + 4 * j, 0x003f03f0); // second and fourth values
  store<u32>(ENC + 48 + 4 * j, 0x01000010); // shift them left by 4 and 8 (16-bit multiplies)
}
memory.fill(ENC + 64, 51, 16);
memory.fill(ENC + 80, 26, 16);
memory.fill(ENC + 96, 13, 16);
// Class 0: a-z (+71); 1..10: 0-9 (-4); 11: '-' (-17); 12: '_' (+32); 13: A-Z (+65).
memory.fill(ENC + 112, 252, 16); // -4
store<u8>(ENC + 112, 71);
store<u8>(ENC + 123, 239); // -17
store<u8>(ENC + 124, 32);
store<u8>(ENC + 125, 65);
// Group g (bytes 3g, 3g+1, 3g+2) to lane g as (b1, b0, b2, b1).
for (let g: u32 = 0; g < 4; g++) {
  const b0 = 3 * g;
  store<u32>(ENC + 128 + 4 * <usize>g, (b0 + 1) | (b0 << 8) | ((b0 + 2) << 16) | ((b0 + 1) << 24));
}

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
