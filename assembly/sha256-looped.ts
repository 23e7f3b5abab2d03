// SHA-256 compression (FIPS 180-4 §6.2.2) as plain loops: a small fraction of
// the unrolled code in ./sha256-rounds, so an engine that compiles each function
// on its first call (V8's lazy Wasm compilation) spends little on a fresh
// isolate's first hashes. ./sha2-first-use chooses between the two.

// prettier-ignore
const K: usize = memory.data<u32>([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
], 16);
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
      const t1 = hh + (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + (g ^ (e & (f ^ g))) + load<u32>(K + t) + load<u32>(W + t);
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
