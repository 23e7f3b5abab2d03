// Which SHA-2 compression runs: the small looped one for an isolate's first
// blocks, the unrolled one after. V8 compiles a Wasm function when it is first
// called; the unrolled functions are most of the module's code (about 9 KB and
// 13 KB), so a fresh isolate whose first request hashes a few blocks would pay
// for compiling them before it has any use for their speed. The counters are
// not secret (they count blocks, whatever the data), and both paths are
// constant time.
import { sha256Compress as sha256Unrolled } from './sha256-rounds';
import { sha512Compress as sha512Unrolled } from './sha512-rounds';
import { sha256CompressLooped } from './sha256-looped';
import { sha512CompressLooped } from './sha512-looped';

/** Blocks compressed by the looped code before the unrolled one takes over (per hash family). */
// @inline: a literal at its uses, so `warmAfter` starts as a constant (the module has no start function).
// @ts-ignore: decorator
@inline const WARM_AFTER: u32 = 256;
let warmAfter: u32 = WARM_AFTER;
let sha256Blocks: u32 = 0;
let sha512Blocks: u32 = 0;

/** Count `blocks` for SHA-256; true once the family is warm. */
function sha256Warm(blocks: usize): bool {
  if (sha256Blocks >= warmAfter) return true;
  sha256Blocks += <u32>min<usize>(blocks, <usize>warmAfter);
  return false;
}

function sha512Warm(blocks: usize): bool {
  if (sha512Blocks >= warmAfter) return true;
  sha512Blocks += <u32>min<usize>(blocks, <usize>warmAfter);
  return false;
}

// Inlined at every call site, so the unrolled functions keep several callers and
// the optimiser does not fold them into one large function compiled on first use.
/** Compress `blocks` consecutive 64-byte blocks at `data` into the SHA-256 state at `h`. */
// @ts-ignore: decorator
@inline export function sha256Compress(h: usize, data: usize, blocks: usize): void {
  if (sha256Warm(blocks)) sha256Unrolled(h, data, blocks);
  else sha256CompressLooped(h, data, blocks);
}

/** Compress `blocks` consecutive 128-byte blocks at `data` into the SHA-512 state at `h`. */
// @ts-ignore: decorator
@inline export function sha512Compress(h: usize, data: usize, blocks: usize): void {
  if (sha512Warm(blocks)) sha512Unrolled(h, data, blocks);
  else sha512CompressLooped(h, data, blocks);
}

/**
 * Tests and benchmarks: the blocks before the unrolled code is used (0: always
 * unrolled; 0xffffffff: always looped), counting anew; returns the previous value.
 */
export function sha2SetWarmAfter(n: u32): u32 {
  const previous = warmAfter;
  warmAfter = n;
  sha256Blocks = 0;
  sha512Blocks = 0;
  return previous;
}
