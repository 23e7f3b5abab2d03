// The core's bytes plus a custom section naming one isolate: the same code in bytes no
// other isolate has. With identical bytes V8 shares one compiled module, and the Wasm
// functions it compiled lazily, between the isolates of a process: one Worker's first
// calls would then compile code for every other Worker with the core, and a cold cell
// would measure which Worker ran first, not the Worker (bench/guard/cold-steps.ts: a fresh
// Loader isolate's first request grew 8 → 37 ms over ~1,300 isolates with shared bytes).
// Used by the Loader host (inside workerd) and by isolate.ts's fresh-process cell (Node).

/** `bytes` with a custom section `bench-isolate` holding `id` appended (ids up to ~110 bytes). */
export function ownBytes(bytes: ArrayBuffer | Uint8Array, id: string): Uint8Array {
  const name = new TextEncoder().encode('bench-isolate');
  const payload = new TextEncoder().encode(id);
  const body = [name.length, ...name, ...payload];
  if (body.length > 127) throw new Error('isolate id too long for a one-byte section size');
  const src = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const out = new Uint8Array(src.byteLength + 2 + body.length);
  out.set(src);
  out.set([0, body.length, ...body], src.byteLength);
  return out;
}
