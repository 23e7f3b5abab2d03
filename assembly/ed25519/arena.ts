// Grow-only memory for the Ed25519 tables, taken with memory.grow directly rather
// than heap.alloc: the stub runtime's allocator imports `abort` and traps when
// memory cannot grow, while the core must instantiate with no imports and answer
// every call with a status. Nothing else in the core allocates (no `new`), so the
// pages we add past the initial memory are ours alone. Never freed: callers
// allocate once (per slot, or once for B) and reuse.

/** `bytes` of fresh zeroed memory (64 KiB pages), or 0 if memory cannot grow. */
export function arenaAlloc(bytes: usize): usize {
  const pages = <i32>((bytes + 0xffff) >> 16);
  const before = memory.grow(pages);
  if (before < 0) return 0;
  return <usize>before << 16;
}
