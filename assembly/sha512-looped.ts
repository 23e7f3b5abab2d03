// SHA-512 compression (FIPS 180-4 §6.4.2) as plain loops: a small fraction of
// the unrolled code in ./sha512-rounds, so an engine that compiles each function
// on its first call (V8's lazy Wasm compilation) spends little on a fresh
// isolate's first hashes. ./sha2-first-use chooses between the two.

// The round constants, shared with the unrolled code.
import { KV as K } from './sha512-rounds';
/** The message schedule of the block being compressed; zeroed on return. */
const W: usize = memory.data(640, 16);

/** Compress `blocks` consecutive 128-byte blocks at `data` into the state at `h`. */
export function sha512CompressLooped(h: usize, data: usize, blocks: usize): void {
  for (let blk: usize = 0; blk < blocks; blk++) {
    const p = data + (blk << 7);
    for (let t: usize = 0; t < 128; t += 8) store<u64>(W + t, bswap<u64>(load<u64>(p + t)));
    for (let t: usize = 128; t < 640; t += 8) {
      const w15 = load<u64>(W + t - 120);
      const w2 = load<u64>(W + t - 16);
      const s0 = rotr<u64>(w15, 1) ^ rotr<u64>(w15, 8) ^ (w15 >>> 7);
      const s1 = rotr<u64>(w2, 19) ^ rotr<u64>(w2, 61) ^ (w2 >>> 6);
      store<u64>(W + t, load<u64>(W + t - 128) + s0 + load<u64>(W + t - 56) + s1);
    }
    let a = load<u64>(h, 0), b = load<u64>(h, 8), c = load<u64>(h, 16), d = load<u64>(h, 24);
    let e = load<u64>(h, 32), f = load<u64>(h, 40), g = load<u64>(h, 48), hh = load<u64>(h, 56);
    for (let t: usize = 0; t < 640; t += 8) {
      const t1 =
        hh + (rotr<u64>(e, 14) ^ rotr<u64>(e, 18) ^ rotr<u64>(e, 41)) + (g ^ (e & (f ^ g))) +
        load<u64>(K + t) + load<u64>(W + t);
      const t2 = (rotr<u64>(a, 28) ^ rotr<u64>(a, 34) ^ rotr<u64>(a, 39)) + ((a & b) | (c & (a | b)));
      hh = g; g = f; f = e; e = d + t1;
      d = c; c = b; b = a; a = t1 + t2;
    }
    store<u64>(h, load<u64>(h, 0) + a, 0); store<u64>(h, load<u64>(h, 8) + b, 8);
    store<u64>(h, load<u64>(h, 16) + c, 16); store<u64>(h, load<u64>(h, 24) + d, 24);
    store<u64>(h, load<u64>(h, 32) + e, 32); store<u64>(h, load<u64>(h, 40) + f, 40);
    store<u64>(h, load<u64>(h, 48) + g, 48); store<u64>(h, load<u64>(h, 56) + hh, 56);
  }
  // The schedule derives from the message (an HMAC key's pad, for one): not left behind.
  memory.fill(W, 0, 640);
}
