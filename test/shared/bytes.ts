// Small byte helpers for tests, free of node: modules so they run in every runtime.

export function hex(text: string): Uint8Array {
  if (text.length % 2 !== 0) throw new Error('odd hex length');
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** Deterministic pseudo-random bytes (xorshift32), so failures reproduce from the seed. */
export function seededBytes(seed: number, length: number): Uint8Array {
  let x = seed >>> 0 || 0x9e3779b9;
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/**
 * Where `needle` first occurs in `haystack`, or -1. Jumps between candidates with the
 * native indexOf on one of the needle's non-zero bytes: Wasm memory is mostly zeros,
 * and a byte-by-byte scan of it is what made the memory-scrubbing tests slow.
 */
export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  if (needle.length === 0) return 0;
  const k = Math.max(
    0,
    needle.findIndex((b) => b !== 0),
  );
  const anchor = needle[k]!;
  for (let at = haystack.indexOf(anchor, k); at >= 0; at = haystack.indexOf(anchor, at + 1)) {
    const i = at - k;
    if (i + needle.length > haystack.length) return -1;
    let j = 0;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}
