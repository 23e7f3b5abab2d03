// Grow-only memory for the Ed25519 tables and the grown HMAC slot table, taken
// with memory.grow directly rather than heap.alloc: the stub runtime's allocator
// imports `abort` and traps when memory cannot grow, while the core must
// instantiate with no imports and answer every call with a status. Nothing else in
// the core allocates (no `new`), so the pages we add past the initial memory are
// ours alone. Never freed: callers allocate once (per slot, once for B, once per
// HMAC growth) and reuse.

let next: usize = 0; // bump pointer inside the pages grown so far
let end: usize = 0;

/** `bytes` of fresh zeroed memory (16-byte aligned), or 0 if memory cannot grow. */
export function arenaAlloc(bytes: usize): usize {
  const size = (bytes + 15) & ~(<usize>15);
  if (end - next < size) {
    // Grow by what is missing (64 KiB pages); the tail of the old region is kept
    // only if the new pages are contiguous with it, which they are unless memory
    // was grown by someone else (it is not: see above).
    const pages = <i32>((size - (end - next) + 0xffff) >> 16);
    const before = memory.grow(pages);
    if (before < 0) return 0;
    const start = <usize>before << 16;
    if (start != end) next = start; // not contiguous: start afresh in the new pages
    end = start + (<usize>pages << 16);
    if (end - next < size) return 0; // cannot happen when contiguous; be safe
  }
  const p = next;
  next += size;
  return p;
}
