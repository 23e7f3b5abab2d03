// What a signing backend must provide (EdDSA, RS*, PS*, ES*, and HMAC CryptoKeys).
// Two implementations behind #crypto-backend: node:crypto's synchronous sign under
// the `node` condition, WebCrypto everywhere else.

import type { AlgSpec } from '../algorithms.js';

/** A private key in the backend's native form, bound to one algorithm. */
export interface SignKey {
  readonly native: unknown;
}

/** What the caller handed in: a private JWK, a CryptoKey, or (node only) a PEM string or KeyObject. */
export type PrivateKeyInput = Record<string, unknown> | CryptoKey | string | object;

export interface SignBackend {
  /** 'node': every method returns a plain value (no promise). */
  readonly name: 'webcrypto' | 'node';
  /** Import a private key for `spec`; the caller has already checked the JWK's shape. */
  importPrivate(spec: AlgSpec, input: PrivateKeyInput): SignKey | Promise<SignKey>;
  /** Facts about an imported key that the key rules need (RSA modulus bits and public parameters, EC curve). */
  describe(
    key: SignKey,
  ): { type: string; bits?: number; curve?: string; rsa?: { n?: unknown; e?: unknown } } | undefined;
  /** `signingInput` is ASCII (base64url segments and a dot). */
  sign(spec: AlgSpec, key: SignKey, signingInput: string): Uint8Array | Promise<Uint8Array>;
}
