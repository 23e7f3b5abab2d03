// Strict base64url (RFC 4648 §5 as JWS uses it, RFC 7515 §2): only A-Z a-z 0-9 - _,
// no padding, no whitespace, and the unused low bits of the last character must be
// zero, so every byte string has exactly one accepted encoding.

const INVALID = 255;
// char code -> 6-bit value, or INVALID. 128 entries: anything above is rejected first.
const TABLE = new Uint8Array(128).fill(INVALID);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
for (let i = 0; i < 64; i++) TABLE[ALPHABET.charCodeAt(i)] = i;

/** Decoded length of `len` base64url characters, or -1 for an impossible length (len % 4 === 1). */
export function decodedLength(len: number): number {
  const rem = len & 3;
  if (rem === 1) return -1;
  return (len >>> 2) * 3 + (rem === 0 ? 0 : rem - 1);
}

/** Unpadded base64url length of `len` bytes. */
export function encodedLength(len: number): number {
  return Math.floor((len * 4 + 2) / 3);
}

/**
 * Decode `text[start, end)` into `out` (which must hold decodedLength bytes).
 * Returns false on any character outside the alphabet or non-zero trailing bits.
 */
function decodeInto(text: string, start: number, end: number, out: Uint8Array): boolean {
  const full = start + ((end - start) & ~3);
  let o = 0;
  let bad = 0;
  let i = start;
  for (; i < full; i += 4) {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    const c = text.charCodeAt(i + 2);
    const d = text.charCodeAt(i + 3);
    const va = a < 128 ? TABLE[a]! : INVALID;
    const vb = b < 128 ? TABLE[b]! : INVALID;
    const vc = c < 128 ? TABLE[c]! : INVALID;
    const vd = d < 128 ? TABLE[d]! : INVALID;
    bad |= va | vb | vc | vd;
    out[o] = (va << 2) | (vb >>> 4);
    out[o + 1] = (vb << 4) | (vc >>> 2);
    out[o + 2] = (vc << 6) | vd;
    o += 3;
  }
  const rem = end - i;
  if (rem === 2 || rem === 3) {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    const va = a < 128 ? TABLE[a]! : INVALID;
    const vb = b < 128 ? TABLE[b]! : INVALID;
    bad |= va | vb;
    out[o] = (va << 2) | (vb >>> 4);
    if (rem === 2) {
      if ((vb & 0x0f) !== 0) return false; // non-zero trailing bits
    } else {
      const c = text.charCodeAt(i + 2);
      const vc = c < 128 ? TABLE[c]! : INVALID;
      bad |= vc;
      out[o + 1] = (vb << 4) | (vc >>> 2);
      if ((vc & 0x03) !== 0) return false;
    }
  } else if (rem !== 0) {
    return false;
  }
  // Every valid value is < 64, so bit 7 (set only by INVALID) marks a bad character.
  return (bad & 0x80) === 0;
}

/** The unused low bits of the last character are zero (the one canonical encoding). */
export function trailingBitsZero(text: string): boolean {
  const rem = text.length & 3;
  if (rem === 0) return true;
  const c = text.charCodeAt(text.length - 1);
  const v = c < 128 ? TABLE[c]! : INVALID;
  if (v === INVALID) return false;
  return (v & (rem === 2 ? 0x0f : 0x03)) === 0;
}

/** Decode a whole base64url segment, or undefined if it is not canonical base64url. */
export function decodeSegment(text: string, start: number, end: number): Uint8Array | undefined {
  const n = decodedLength(end - start);
  if (n < 0) return undefined;
  const out = new Uint8Array(n);
  return decodeInto(text, start, end, out) ? out : undefined;
}

/** Encode bytes as unpadded base64url (used for cache keys and tests, not the verify path). */
export function encode(bytes: Uint8Array): string {
  let s = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    s += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rem = bytes.length - i;
  if (rem === 1) {
    const n = bytes[i]! << 16;
    s += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]!;
  } else if (rem === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    s += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]!;
  }
  return s;
}
