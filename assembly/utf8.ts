// UTF-8 validity (RFC 3629) of decoded payload bytes, so JS can build the string
// with the cheapest decoder the runtime has: invalid input must be an error, never
// U+FFFD, or two byte strings could decode to the same JSON text.

export const UTF8_ASCII: i32 = 0;
export const UTF8_VALID: i32 = 1;
export const UTF8_INVALID: i32 = 2;

/** UTF8_ASCII, UTF8_VALID (well-formed, some non-ASCII) or UTF8_INVALID. */
export function utf8Class(p: usize, len: usize): i32 {
  let acc: u64 = 0;
  let i: usize = 0;
  for (; i + 8 <= len; i += 8) acc |= load<u64>(p + i);
  for (; i < len; i++) acc |= <u64>load<u8>(p + i);
  if ((acc & 0x8080808080808080) == 0) return UTF8_ASCII;
  return wellFormed(p, len) ? UTF8_VALID : UTF8_INVALID;
}

// @ts-ignore: decorator
@inline function inRange(p: usize, i: usize, len: usize, lo: u32, hi: u32): bool {
  if (i >= len) return false;
  const b = <u32>load<u8>(p + i);
  return b >= lo && b <= hi;
}

// RFC 3629 §4 table: no overlong forms, no surrogates, nothing above U+10FFFF.
function wellFormed(p: usize, len: usize): bool {
  let i: usize = 0;
  while (i < len) {
    const c = <u32>load<u8>(p + i);
    if (c < 0x80) {
      i++;
    } else if (c >= 0xc2 && c <= 0xdf) {
      if (!inRange(p, i + 1, len, 0x80, 0xbf)) return false;
      i += 2;
    } else if (c >= 0xe0 && c <= 0xef) {
      const lo: u32 = c == 0xe0 ? 0xa0 : 0x80;
      const hi: u32 = c == 0xed ? 0x9f : 0xbf;
      if (!inRange(p, i + 1, len, lo, hi) || !inRange(p, i + 2, len, 0x80, 0xbf)) return false;
      i += 3;
    } else if (c >= 0xf0 && c <= 0xf4) {
      const lo: u32 = c == 0xf0 ? 0x90 : 0x80;
      const hi: u32 = c == 0xf4 ? 0x8f : 0xbf;
      if (
        !inRange(p, i + 1, len, lo, hi) ||
        !inRange(p, i + 2, len, 0x80, 0xbf) ||
        !inRange(p, i + 3, len, 0x80, 0xbf)
      )
        return false;
      i += 4;
    } else {
      return false;
    }
  }
  return true;
}
