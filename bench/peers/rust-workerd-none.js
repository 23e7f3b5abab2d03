// '#bench-rust-peer' when the Rust peer is not built (or not asked for): no peer.
export function rustPeer() {
  return null;
}
