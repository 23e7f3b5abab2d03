// The Rust peer inside workerd: its wasm-bindgen glue, with the .wasm imported as a
// compiled module as a deployed Worker imports Wasm (workerd compiles no Wasm from bytes).
// Bundled as '#bench-rust-peer' when the peer is built (bench/lib/workerd.ts), else
// ./rust-workerd-none.js.
import { initSync, DalekKey, CompactKey, Hs256Key } from './rust-verify/pkg/rust_verify.js';
import module from './rust-verify/pkg/rust_verify_bg.wasm';

export function rustPeer() {
  initSync({ module });
  return { DalekKey, CompactKey, Hs256Key };
}
