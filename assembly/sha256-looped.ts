// SHA-256 compression (FIPS 180-4 §6.2.2) as plain loops: a small fraction of
// the unrolled code in ./sha256-rounds, so an engine that compiles each function
// on its first call (V8's lazy Wasm compilation) spends little on a fresh
// isolate's first hashes. ./sha2-first-use chooses between the two.

// The round constants, shared with the unrolled code.
import { KV as K } from './sha256-rounds';
/** The message schedule of the block being compressed; zeroed on return. */
const W: usize = memory.data(256, 16);

/** Compress `blocks` consecutive 64-byte blocks at `data` into the state at `h`. */
export function sha256CompressLooped(h: usize, data: usize, blocks: usize): void {
  for (let blk: usize = 0; blk < blocks; blk++) {
    const p = data + (blk << 6);
    for (let t: usize = 0; t < 64; t += 4) store<u32>(W + t, bswap<u32>(load<u32>(p + t)));
    for (let t: usize = 64; t < 256; t += 4) {
      const w15 = load<u32>(W + t - 60);
      const w2 = load<u32>(W + t - 8);
      const s0 = rotr<u32>(w15, 7) ^ rotr<u32>(w15, 18) ^ (w15 >>> 3);
      const s1 = rotr<u32>(w2, 17) ^ rotr<u32>(w2, 19) ^ (w2 >>> 10);
      store<u32>(W + t, load<u32>(W + t - 64) + s0 + load<u32>(W + t - 28) + s1);
    }
    let a = load<u32>(h, 0), b = load<u32>(h, 4), c = load<u32>(h, 8), d = load<u32>(h, 12);
    let e = load<u32>(h, 16), f = load<u32>(h, 20), g = load<u32>(h, 24), hh = load<u32>(h, 28);
    for (let t: usize = 0; t < 256; t += 4) {
      const t1 =
        hh + (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + (g ^ (e & (f ^ g))) +
        load<u32>(K + t) + load<u32>(W + t);
      const t2 = (rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22)) + ((a & b) | (c & (a | b)));
      hh = g; g = f; f = e; e = d + t1;
      d = c; c = b; b = a; a = t1 + t2;
    }
    store<u32>(h, load<u32>(h, 0) + a, 0); store<u32>(h, load<u32>(h, 4) + b, 4);
    store<u32>(h, load<u32>(h, 8) + c, 8); store<u32>(h, load<u32>(h, 12) + d, 12);
    store<u32>(h, load<u32>(h, 16) + e, 16); store<u32>(h, load<u32>(h, 20) + f, 20);
    store<u32>(h, load<u32>(h, 24) + g, 24); store<u32>(h, load<u32>(h, 28) + hh, 28);
  }
  // The schedule derives from the message (an HMAC key's pad, for one): not left behind.
  memory.fill(W, 0, 256);
}
