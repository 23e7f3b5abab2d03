// A seeded generator and a Zipf-distributed index sequence, so every run of a
// cache bench replays the same request mix.

/** A small seeded PRNG in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Indices into the population, Zipf-distributed, reproducible. */
export function zipfSequence(population: number, n: number, s: number, seed: number): Uint32Array {
  const cdf = new Float64Array(population);
  let sum = 0;
  for (let k = 0; k < population; k++) cdf[k] = sum += 1 / Math.pow(k + 1, s);
  const rand = mulberry32(seed);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const x = rand() * sum;
    let lo = 0;
    let hi = population - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
  return out;
}
