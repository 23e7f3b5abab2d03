// Byte/text helpers shared by the as-pect specs (expected values are written as
// hex strings, most of them generated from BigInt by scripts/gen-*-spec.mjs).

/** Write the bytes of hex string `h` at `dst`. */
export function fromHex(dst: usize, h: string): void {
  for (let i = 0; i < h.length / 2; i++) store<u8>(dst + i, <u8>I32.parseInt(h.substr(2 * i, 2), 16));
}

/** `n` bytes at `p` as lowercase hex. */
export function hexOf(p: usize, n: i32): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    const b = load<u8>(p + i);
    s += (b < 16 ? '0' : '') + b.toString(16);
  }
  return s;
}

/** `n` signed digits at `p`, comma-separated (scalar recodings). */
export function digitsOf(p: usize, n: i32): string {
  let s = '';
  for (let i = 0; i < n; i++) s += (i > 0 ? ',' : '') + load<i8>(p + i).toString();
  return s;
}
