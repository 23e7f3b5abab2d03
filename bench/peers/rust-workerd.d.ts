// What '#bench-rust-peer' (./rust-workerd.js or ./rust-workerd-none.js) exports.
declare module '#bench-rust-peer' {
  export function rustPeer(): import('./rust.ts').RustGlue | null;
}
