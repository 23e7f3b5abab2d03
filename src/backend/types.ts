// What a signature backend for RS/PS/ES (and HMAC CryptoKeys) must provide.
// Two implementations, chosen by package.json "imports" (#crypto-backend):
// WebCrypto everywhere, node:crypto's synchronous verify under the `node` condition.

import type { AlgSpec } from '../algorithms.js';

/** The public members of an RSA or EC JWK, already checked for shape. */
export type PublicJwk = { kty: 'RSA'; n: string; e: string } | { kty: 'EC'; crv: string; x: string; y: string };

/** A key in the backend's native form, bound to one algorithm. */
export interface BackendKey {
  readonly native: unknown;
}

export interface CryptoBackend {
  /** 'node' returns plain values (no promise) from every method. */
  readonly name: 'webcrypto' | 'node';
  importJwk(spec: AlgSpec, jwk: PublicJwk): BackendKey | Promise<BackendKey>;
  importCryptoKey(spec: AlgSpec, key: CryptoKey): BackendKey | Promise<BackendKey>;
  /**
   * A string `signingInput` is ASCII (it passed the base64url check). Bytes may be views
   * of the Wasm core's memory: read them before returning, or copy them.
   */
  verify(
    spec: AlgSpec,
    key: BackendKey,
    signingInput: string | Uint8Array,
    signature: Uint8Array,
  ): boolean | Promise<boolean>;
}
