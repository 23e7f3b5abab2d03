// Loads the Rust wasm-bindgen peer (bench/peers/rust-verify): Ed25519 via ed25519-dalek
// and ed25519-compact, HS256 via RustCrypto hmac/sha2, each with its key prepared once.
// A bench builds it here the first time (./rust-build.ts, minutes, then reused); a smoke
// run never builds and reports it as not built. Null, with the reason printed, when it
// cannot be had.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { smoke } from '../lib/harness.ts';
import { buildRustPeer, pkgDir } from './rust-build.ts';

/** The classes the wasm-bindgen glue exports (constructors take the key bytes). */
export interface RustGlue {
  DalekKey: new (pub: Uint8Array) => {
    verify(m: Uint8Array, s: Uint8Array): boolean;
    verify_strict(m: Uint8Array, s: Uint8Array): boolean;
  };
  CompactKey: new (pub: Uint8Array) => { verify(m: Uint8Array, s: Uint8Array): boolean };
  Hs256Key: new (secret: Uint8Array) => { verify(m: Uint8Array, tag: Uint8Array): boolean };
}

export interface RustPeer extends RustGlue {
  /** The .wasm the peer runs (for size reports and workerd). */
  wasmPath: string;
}

/** The wasm-bindgen output directory (rust_verify.js, rust_verify_bg.wasm), or null. */
export function rustPeerDir(): string | null {
  if (!smoke) return buildRustPeer();
  if (existsSync(join(pkgDir, 'rust_verify_bg.wasm'))) return pkgDir;
  console.log('Rust peer: not built (smoke runs never build it; `npm run bench:rust-peer` does).');
  return null;
}

/** The peer instantiated in this (Node) process, or null if it is not built. */
export async function loadRustPeer(): Promise<RustPeer | null> {
  const dir = rustPeerDir();
  if (dir === null) return null;
  type Glue = RustGlue & { initSync(o: { module: BufferSource }): void };
  const glue = (await import(join(dir, 'rust_verify.js'))) as Glue;
  const wasmPath = join(dir, 'rust_verify_bg.wasm');
  glue.initSync({ module: readFileSync(wasmPath) });
  return { DalekKey: glue.DalekKey, CompactKey: glue.CompactKey, Hs256Key: glue.Hs256Key, wasmPath };
}
