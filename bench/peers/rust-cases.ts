// The Rust peer's rows in the per-algorithm tables (Node and workerd alike): the bare
// signature check of the token's signing input, key prepared once, no JWT parsing,
// beside the bare primitives. HS256 and EdDSA only (what the peer builds).
import type { Material } from '../lib/material.ts';
import type { RustGlue } from './rust.ts';

export interface RustCase {
  name: string;
  fn: () => boolean;
}

const fromB64u = (s: string): Uint8Array =>
  Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

/** The peer's cases for `m`'s algorithm, each checked to accept the signature and refuse a corrupted one. */
export function rustCases(rust: RustGlue, m: Material): RustCase[] {
  const checks: [string, (sig: Uint8Array) => boolean][] = [];
  if (m.variant.alg === 'HS256') {
    const key = new rust.Hs256Key(m.secret!);
    checks.push(['RustCrypto hmac (Rust Wasm, bare)', (sig) => key.verify(m.input, sig)]);
  } else if (m.variant.alg === 'EdDSA') {
    const pub = fromB64u(m.jwk!.x!);
    const dalek = new rust.DalekKey(pub);
    const compact = new rust.CompactKey(pub);
    checks.push(
      ['ed25519-dalek verify (Rust Wasm, bare)', (sig) => dalek.verify(m.input, sig)],
      ['ed25519-dalek verify_strict (Rust Wasm, bare)', (sig) => dalek.verify_strict(m.input, sig)],
      ['ed25519-compact (Rust Wasm, bare)', (sig) => compact.verify(m.input, sig)],
    );
  }
  const bad = m.sig.slice();
  bad[5]! ^= 1;
  for (const [name, check] of checks) if (!check(m.sig) || check(bad)) throw new Error(`${name} gave a wrong verdict`);
  return checks.map(([name, check]) => ({ name, fn: () => check(m.sig) }));
}
