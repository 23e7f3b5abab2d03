// Builds and loads the Rust wasm-bindgen peer (bench/peers/rust-verify): Ed25519 via
// ed25519-dalek and ed25519-compact, HS256 via RustCrypto hmac/sha2, each with its
// key prepared once. Built from crates.io with cargo for wasm32-unknown-unknown, then
// wasm-bindgen-cli (installed into bench/peers/.tools at the crate's pinned version).
// Returns null, with the reason printed, when cargo or the wasm32 target is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
export const crateDir = join(here, 'rust-verify');
export const pkgDir = join(crateDir, 'pkg');
const tools = join(here, '.tools');
const wasmBindgen = join(tools, 'bin', 'wasm-bindgen');
const WASM_BINDGEN_VERSION = '0.2.100'; // must equal the `wasm-bindgen` pin in Cargo.toml

export interface RustPeer {
  DalekKey: new (pub: Uint8Array) => { verify(m: Uint8Array, s: Uint8Array): boolean; verify_strict(m: Uint8Array, s: Uint8Array): boolean };
  CompactKey: new (pub: Uint8Array) => { verify(m: Uint8Array, s: Uint8Array): boolean };
  Hs256Key: new (secret: Uint8Array) => { verify(m: Uint8Array, tag: Uint8Array): boolean };
  /** The optimized .wasm the peer runs (for size reports and workerd). */
  wasmPath: string;
}

function run(cmd: string, args: string[], cwd: string): boolean {
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  return r.status === 0;
}

/** Build (if needed) and return the wasm-bindgen output directory, or null. */
export function buildRustPeer(): string | null {
  if (spawnSync('cargo', ['--version']).status !== 0) {
    console.log('Rust peer skipped: cargo not found (install Rust to compare against ed25519-dalek/ed25519-compact/RustCrypto).');
    return null;
  }
  const target = join(crateDir, 'target/wasm32-unknown-unknown/release/rust_verify.wasm');
  if (!run('cargo', ['build', '--release', '--quiet', '--target', 'wasm32-unknown-unknown'], crateDir)) {
    console.log('Rust peer skipped: cargo build failed (is the target installed? `rustup target add wasm32-unknown-unknown`).');
    return null;
  }
  if (!existsSync(wasmBindgen)) {
    console.log(`installing wasm-bindgen-cli ${WASM_BINDGEN_VERSION} into bench/peers/.tools (one time, a few minutes)…`);
    if (!run('cargo', ['install', 'wasm-bindgen-cli', '--version', WASM_BINDGEN_VERSION, '--locked', '--root', tools], here)) {
      console.log('Rust peer skipped: could not install wasm-bindgen-cli.');
      return null;
    }
  }
  const out = join(pkgDir, 'rust_verify_bg.wasm');
  if (!existsSync(out) || statSync(out).mtimeMs < statSync(target).mtimeMs) {
    if (!run(wasmBindgen, ['--target', 'web', '--out-dir', pkgDir, target], crateDir)) {
      console.log('Rust peer skipped: wasm-bindgen failed.');
      return null;
    }
  }
  return pkgDir;
}

/** Build and instantiate the peer in this (Node) process, or null if it cannot be built. */
export async function loadRustPeer(): Promise<RustPeer | null> {
  const dir = buildRustPeer();
  if (dir === null) return null;
  const mod = (await import(join(dir, 'rust_verify.js'))) as RustPeer & { initSync(o: { module: BufferSource }): void };
  const wasmPath = join(dir, 'rust_verify_bg.wasm');
  mod.initSync({ module: readFileSync(wasmPath) });
  return { DalekKey: mod.DalekKey, CompactKey: mod.CompactKey, Hs256Key: mod.Hs256Key, wasmPath };
}
