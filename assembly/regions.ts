// Fixed regions of linear memory shared with JS. Nothing is allocated per call:
// JS writes into these regions through views it builds once, and only numbers
// cross the boundary.

/** Bytes of message (or key, at import) that one call can take. */
export const INPUT_CAP: u32 = 65536;
/** A token's decoded signature: the longest a 65,536-character token can carry. */
export const SIG_CAP: u32 = 49152;
/** A token's decoded payload (same bound). */
export const PAYLOAD_CAP: u32 = 49152;
/** Digest output of the plain hash entry points. */
export const OUT_CAP: u32 = 64;

export const INPUT: usize = memory.data(INPUT_CAP as i32, 16);
// The decoder's last 4-byte store may pass the decoded length by one byte: slack.
export const SIG: usize = memory.data((SIG_CAP + 4) as i32, 16);
export const PAYLOAD: usize = memory.data((PAYLOAD_CAP + 4) as i32, 16);
export const OUT: usize = memory.data(OUT_CAP as i32, 16);
/** Claims text a signer appends to its payload JSON (its time members), kept between signs. */
export const EXTRA_CAP: u32 = 256;
export const EXTRA: usize = memory.data(EXTRA_CAP as i32, 16);

/** Overwrite `len` bytes at `ptr` with zeros (secrets must not outlive a call). */
export function wipe(ptr: usize, len: usize): void {
  memory.fill(ptr, 0, len);
}

/** Constant-time equality of two byte strings: no early exit, xor-accumulate. */
export function equalCt(a: usize, b: usize, len: usize): bool {
  let diff: u32 = 0;
  for (let i: usize = 0; i < len; i++) {
    diff |= <u32>(load<u8>(a + i) ^ load<u8>(b + i));
  }
  return diff == 0;
}
