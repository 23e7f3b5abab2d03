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
